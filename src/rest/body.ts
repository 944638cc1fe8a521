import { ValidationError } from "../domain/errors.js";

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body over ${limit} bytes`);
  }
}

/** Reads at most `limit` bytes, refusing early when the declared length is already too big. */
async function readBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export const readBody = async (request: Request, limit: number) => (await readBytes(request, limit)).toString("utf8");

/** The fields of a multipart/form-data body; file parts arrive as File objects. */
export async function readMultipart(request: Request, limit: number): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ValidationError("La petición debe enviarse como multipart/form-data");
  }
  const bytes = await readBytes(request, limit);
  try {
    const form = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
    return Object.fromEntries(form.entries());
  } catch {
    throw new ValidationError("El cuerpo multipart/form-data no es válido");
  }
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
