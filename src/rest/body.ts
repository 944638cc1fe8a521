import { ValidationError } from "../domain/errors.js";

export class PayloadTooLargeError extends Error {}

/** Reads at most `limit` bytes, refusing early when the declared length is already too big. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) throw new PayloadTooLargeError();
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw new PayloadTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A legacy JSON body: empty means no fields; anything but an object is refused. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError("El cuerpo de la petición no es JSON válido");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError("El cuerpo de la petición debe ser un objeto JSON");
  }
  return value as Record<string, unknown>;
}
