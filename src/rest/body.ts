import { ValidationError } from "../domain/errors.js";
import { readBytes } from "../http/body.js";

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
