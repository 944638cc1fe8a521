import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { securityHeaders } from "./security-headers.js";

/** Why Node refused a request it could not read, as the status and message of the answer. */
function refusalOf(code: string | undefined): [number, string] {
  if (code === "HPE_HEADER_OVERFLOW") return [431, "La dirección o las cabeceras de la petición superan el tamaño máximo (16 KB)"];
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return [408, "La petición tardó demasiado en llegar"];
  return [400, "La petición HTTP no es válida"];
}

/**
 * Node's refusals of requests it cannot parse (a URL or headers over its limit, a malformed
 * request line), answered as every other refusal is: JSON with a message in Spanish. Node's own
 * answer has no body. The connection closes after it, as with Node's.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // An answer already under way on this connection cannot be followed by another.
  const answering = (socket as { _httpMessage?: ServerResponse })._httpMessage?.headersSent;
  if (error.code === "ECONNRESET" || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const [status, message] = refusalOf(error.code);
  const body = JSON.stringify({ success: false, message });
  const headers = [
    ["content-type", "application/json; charset=utf-8"],
    ["content-length", String(Buffer.byteLength(body))],
    ...securityHeaders(new Headers()),
    ["connection", "close"],
  ];
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${body}`,
  );
}
