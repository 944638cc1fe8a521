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
  // Node's web streams are async iterable; the global ReadableStream type of Node 20 does not say so.
  // biome-ignore lint/plugin: see above
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The message a client gets for a body over the limit. */
export const tooLargeMessage = (limit: number) => `El cuerpo de la petición supera el límite de ${limit} bytes`;
