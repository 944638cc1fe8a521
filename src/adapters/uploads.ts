import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, extname, resolve, sep } from "node:path";
import type { Clock } from "../domain/deps.js";

const UPLOADS_PATH = "/uploads/";

/** Whether a path is a document photo's (which the service serves under /uploads/). */
export const isUploadPath = (pathname: string) => pathname.startsWith(UPLOADS_PATH);

const TYPES: Record<string, string> = { ".jpg": "image/jpeg", ".png": "image/png" };

export interface UploadsOptions {
  root: string;
  maxBytes: number;
  /** Signs links, so that only links this service handed out open a file. */
  secret: string;
  linkTtlMs: number;
  clock: Clock;
}

/** What a request for a file names: a key, and whether its link was signed (null: not signed at all); or why it names none. */
type Named = { key: string; signed: boolean | null } | { refused: "ruta" | "no_encontrado" | "firma" };

/**
 * Uploaded files on local disk under `root`, served back under /uploads/ (src/http/uploads.ts). Links are kept plain
 * (`/uploads/<key>`) and shown signed: `?expira=<unix seconds>&firma=<HMAC>`, valid until then.
 */
export function localUploads({ root, maxBytes, secret, linkTtlMs, clock }: UploadsOptions) {
  const base = resolve(root);
  /** The file behind a key, or null when it would fall outside the upload folder. */
  const fileFor = (key: string) => {
    const file = resolve(base, key);
    return file.startsWith(base + sep) ? file : null;
  };
  const signature = (key: string, expires: number) => createHmac("sha256", secret).update(`${key}\n${expires}`).digest();
  const plainLink = (key: string) => `${UPLOADS_PATH}${key.split("/").map(encodeURIComponent).join("/")}`;

  /** The key a URL path names, or why it names none: a path that does not decode, or that is no file's. */
  function keyOfPath(pathname: string): string | "ruta" | "no_encontrado" {
    let key: string;
    try {
      key = decodeURIComponent(pathname.slice(UPLOADS_PATH.length));
    } catch {
      return "ruta";
    }
    return fileFor(key) && TYPES[extname(key).toLowerCase()] ? key : "no_encontrado";
  }

  function find(value: string): { key: string; link: string } | null {
    let url: URL;
    try {
      url = new URL(value, "http://local");
    } catch {
      return null;
    }
    if (!url.pathname.startsWith(UPLOADS_PATH)) return null;
    const key = keyOfPath(url.pathname);
    return key !== "ruta" && key !== "no_encontrado" ? { key, link: plainLink(key) } : null;
  }

  /** Whether a request carries a valid, unexpired signature for the key: null when it carries none. */
  function signedFor(key: string, url: URL): boolean | null {
    const expira = url.searchParams.get("expira");
    const firma = url.searchParams.get("firma");
    if (expira === null && firma === null) return null;
    const expires = Number(expira);
    if (!Number.isSafeInteger(expires) || expires * 1000 <= clock.now().getTime()) return false;
    const given = Buffer.from(firma ?? "", "base64url");
    const expected = signature(key, expires);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

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
      return plainLink(key);
    },
    find,
    async remove(folder: string): Promise<void> {
      const path = fileFor(folder);
      if (!path) throw new Error(`upload folder outside the upload folder: ${folder}`);
      await rm(path, { recursive: true, force: true });
    },
    link(value: string): string {
      const upload = find(value);
      if (!upload) return value;
      const expires = Math.floor((clock.now().getTime() + linkTtlMs) / 1000);
      return `${upload.link}?expira=${expires}&firma=${signature(upload.key, expires).toString("base64url")}`;
    },
    /** The file a request's URL names, and whether its link is signed and still valid. */
    named(url: URL): Named {
      const key = keyOfPath(url.pathname);
      if (key === "ruta" || key === "no_encontrado") return { refused: key };
      const signed = signedFor(key, url);
      return signed === false ? { refused: "firma" } : { key, signed };
    },
    /** A stored file's bytes and type; null when there is none. */
    async read(key: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
      const file = fileFor(key);
      if (!file) return null;
      try {
        return { bytes: new Uint8Array(await readFile(file)), type: TYPES[extname(key).toLowerCase()]! };
      } catch {
        return null;
      }
    },
    /** How long a signed link opens, which is also how long a reader may keep the file. */
    linkTtlMs,
  };
}

export type Uploads = ReturnType<typeof localUploads>;
