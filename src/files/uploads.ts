import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, extname, join, resolve, sep } from "node:path";

export const UPLOADS_PATH = "/uploads/";

const TYPES: Record<string, string> = { ".jpg": "image/jpeg", ".png": "image/png" };

/** Uploaded files on local disk under `root`, served back under /uploads/. */
export function localUploads(root: string, maxBytes: number) {
  const base = resolve(root);
  /** The file behind a key or URL path, or null when it would fall outside the upload folder. */
  const fileFor = (key: string) => {
    const file = resolve(base, key);
    return file.startsWith(base + sep) ? file : null;
  };

  return {
    maxBytes,
    async save(key: string, bytes: Uint8Array): Promise<string> {
      const file = fileFor(key);
      if (!file) throw new Error(`upload key outside the upload folder: ${key}`);
      await mkdir(dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${file}.part`;
      await writeFile(partial, bytes);
      await rename(partial, file);
      return `${UPLOADS_PATH}${key}`;
    },
    /** GET /uploads/<key>: the file, or 404. */
    async serve(pathname: string): Promise<Response> {
      const key = decodeURIComponent(pathname.slice(UPLOADS_PATH.length));
      const file = fileFor(join(key));
      const type = file ? TYPES[extname(file).toLowerCase()] : undefined;
      if (!file || !type) return new Response("No encontrado", { status: 404 });
      try {
        const body = await readFile(file);
        return new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=31536000, immutable" } });
      } catch {
        return new Response("No encontrado", { status: 404 });
      }
    },
  };
}
