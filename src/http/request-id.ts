import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

// What a proxy's or client's id may look like; anything else is replaced, so that a header cannot
// put arbitrary text into the logs.
const ACCEPTABLE = /^[A-Za-z0-9._:@-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when it is a sensible one, otherwise a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers["x-request-id"];
  return typeof sent === "string" && ACCEPTABLE.test(sent) ? sent : randomUUID();
}
