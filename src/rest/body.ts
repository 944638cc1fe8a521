import { ValidationError } from "../domain/errors.js";

/** The fields of a multipart/form-data body of Content-Type `type`; file parts arrive as File objects. */
export async function readMultipart(type: string, read: () => Promise<Buffer>): Promise<Record<string, unknown>> {
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ValidationError("La petición debe enviarse como multipart/form-data");
  }
  const bytes = await read();
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
