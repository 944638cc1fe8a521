import type { Plugin } from "graphql-yoga";
import { isUploadPath, type Uploads } from "../adapters/uploads.js";
import { failure } from "./failure.js";
import { Response } from "./response.js";

/** Why a request for a file is answered without it (503 with Retry-After while the database cannot say who may read it). */
export type Refusal = { status: number; message: string; headers?: Record<string, string> };

const REFUSALS: Record<"ruta" | "no_encontrado" | "firma", Refusal> = {
  ruta: { status: 400, message: "La ruta del archivo no es válida" },
  no_encontrado: { status: 404, message: "No encontrado" },
  firma: { status: 403, message: "El enlace venció o no es válido; pide el documento de nuevo" },
};

const refuse = ({ status, message, headers }: Refusal) => failure(status, message, headers);

/**
 * GET /uploads/<key>: the file for a valid signed link, or for a caller `mayRead` lets see it
 * (the plain links stored before links were signed keep working for their owner that way).
 */
async function serve(uploads: Uploads, url: URL, mayRead: (key: string) => Promise<Refusal | null>): Promise<Response> {
  const named = uploads.named(url);
  if ("refused" in named) return refuse(REFUSALS[named.refused]);
  if (named.signed === null) {
    const refusal = await mayRead(named.key);
    if (refusal) return refuse(refusal);
  }
  const file = await uploads.read(named.key);
  if (!file) return refuse(REFUSALS.no_encontrado);
  return new Response(file.bytes, {
    headers: {
      "content-type": file.type,
      // Private: a shared cache must never hand one driver's document to someone else.
      "cache-control": `private, max-age=${Math.floor(uploads.linkTtlMs / 1000)}`,
    },
  });
}

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
      return serve(uploads, url, (key) => mayRead(request, serverContext, key)).then(endResponse);
    },
  };
}
