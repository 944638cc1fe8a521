import type { IncomingMessage, ServerResponse } from "node:http";
import { sendNodeResponse } from "@whatwg-node/server";

/**
 * The headers every answer gets that it does not have: never sniffed as another type, and never
 * cached unless its route chose its own caching.
 */
export function securityHeaders(headers: Pick<Headers, "has">): Array<[string, string]> {
  const added: Array<[string, string]> = [["x-content-type-options", "nosniff"]];
  if (!headers.has("cache-control")) added.push(["cache-control", "no-store"]);
  return added;
}

/** Sends an answer made outside Yoga on Node's response, with the headers every answer gets. */
export async function sendSecured(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  for (const [name, value] of securityHeaders(response.headers)) response.headers.set(name, value);
  await sendNodeResponse(response, res, req, true);
}
