import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, extname, resolve, sep } from "node:path";
import type { Plugin } from "graphql-yoga";
import type { Clock } from "../domain/deps.js";
import { failure } from "../http/failure.js";
import { Response } from "../http/response.js";

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

/** Why a request for a file is answered without it (503 with Retry-After while the database cannot say who may read it). */
export type Refusal = { status: number; message: string; headers?: Record<string, string> };

/**
 * Uploaded files on local disk under `root`, served back under /uploads/. Links are kept plain
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

  /** The key a URL path names, or a refusal for a path that is not a file's. */
  function keyOfPath(pathname: string): string | Refusal {
    let key: string;
    try {
      key = decodeURIComponent(pathname.slice(UPLOADS_PATH.length));
    } catch {
      return { status: 400, message: "La ruta del archivo no es válida" };
    }
    return fileFor(key) && TYPES[extname(key).toLowerCase()] ? key : { status: 404, message: "No encontrado" };
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
    return typeof key === "string" ? { key, link: plainLink(key) } : null;
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
    /**
     * GET /uploads/<key>: the file for a valid signed link, or for a caller `mayRead` lets see it
     * (the plain links stored before links were signed keep working for their owner that way).
     */
    async serve(url: URL, mayRead: (key: string) => Promise<Refusal | null>): Promise<Response> {
      const key = keyOfPath(url.pathname);
      if (typeof key !== "string") return refuse(key);
      const signed = signedFor(key, url);
      if (signed === false) return refuse({ status: 403, message: "El enlace venció o no es válido; pide el documento de nuevo" });
      if (signed === null) {
        const refusal = await mayRead(key);
        if (refusal) return refuse(refusal);
      }
      let body: Buffer;
      try {
        body = await readFile(fileFor(key)!);
      } catch {
        return refuse({ status: 404, message: "No encontrado" });
      }
      return new Response(new Uint8Array(body), {
        headers: {
          "content-type": TYPES[extname(key).toLowerCase()]!,
          // Private: a shared cache must never hand one driver's document to someone else.
          "cache-control": `private, max-age=${Math.floor(linkTtlMs / 1000)}`,
        },
      });
    },
  };
}

const refuse = ({ status, message, headers }: Refusal) => failure(status, message, headers);

export type Uploads = ReturnType<typeof localUploads>;

/**
 * GET /uploads/… as a Yoga plugin: signed links open for anyone holding them; a plain link opens
 * for a caller `mayRead` admits (their Bearer token), with its refusal otherwise.
 */
export function useUploads(
  uploads: Uploads,
  mayRead: (request: Request, serverContext: object, key: string) => Promise<Refusal | null>,
): Plugin {
  return {
    onRequest({ request, url, serverContext, endResponse }) {
      if (!isUploadPath(url.pathname) || request.method !== "GET") return;
      return uploads.serve(url, (key) => mayRead(request, serverContext, key)).then(endResponse);
    },
  };
}
