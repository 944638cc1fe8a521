import type { IncomingMessage } from "node:http";

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body over ${limit} bytes`);
  }
}

/**
 * Reads at most `limit` bytes, refusing early when the declared length is already too big. A body
 * of a declared length within the limit is read whole (Node never reads past the declared length),
 * which costs far less than walking its stream chunk by chunk.
 */
export async function readBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return Buffer.alloc(0);
  if (Number.isSafeInteger(declared) && declared >= 0) return Buffer.from(await request.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** `readBytes` for a request read straight from Node (the legacy calls' lane, src/rest/shim.ts). */
export function readNodeBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers["content-length"] ?? Number.NaN) > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const refuse = (error: Error) => {
      req.off("data", take).off("end", done);
      reject(error);
    };
    const take = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) refuse(new BodyTooLargeError(limit));
      else chunks.push(chunk);
    };
    const done = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    req.on("data", take).once("end", done).once("error", refuse);
  });
}

/** The message a client gets for a body over the limit. */
export const tooLargeMessage = (limit: number) => `El cuerpo de la petición supera el límite de ${limit} bytes`;

/** How large a body may be: multipart bodies carry files and may be larger. */
export interface BodyLimits {
  bodyLimit: number;
  multipartLimit: number;
}

export const limitFor = (request: Request, { bodyLimit, multipartLimit }: BodyLimits) =>
  /^multipart\//i.test(request.headers.get("content-type") ?? "") ? multipartLimit : bodyLimit;

/**
 * Reads the body within `limit` and hands on, through `setRequest`, a request carrying the bytes
 * read, for whatever reads the body next.
 */
export async function readAndHandOn(
  request: Request,
  limit: number,
  fetchAPI: { Request: typeof Request },
  setRequest: (request: Request) => void,
): Promise<Buffer> {
  const hasBody = request.body !== null;
  const body = await readBytes(request, limit);
  if (hasBody)
    setRequest(new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body) }));
  return body;
}

/** The answer to a body `readBytes` could not read: too large, or cut off. */
export const unreadableBody = (error: unknown, limit: number, refuse: (status: number, message: string, code: string) => Response) =>
  error instanceof BodyTooLargeError
    ? refuse(413, tooLargeMessage(limit), "PAYLOAD_TOO_LARGE")
    : refuse(400, "No se pudo leer el cuerpo de la petición", "BAD_REQUEST");
