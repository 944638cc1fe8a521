import type { ServerResponse } from "node:http";

/**
 * The headers every answer gets that it does not have: never sniffed as another type, and never
 * cached unless its route chose its own caching.
 */
export function securityHeaders(headers: Pick<Headers, "has">): Array<[string, string]> {
  const added: Array<[string, string]> = [["x-content-type-options", "nosniff"]];
  if (!headers.has("cache-control")) added.push(["cache-control", "no-store"]);
  return added;
}

/**
 * Sends an answer made outside Yoga on Node's response, with the headers every answer gets. Its
 * head and body go out in one write, as a string: whatwg-node's own sending writes them corked, in
 * a second step, which cost a ping about 7% more of the server's CPU.
 */
export async function sendSecured(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  for (const [name, value] of securityHeaders(response.headers)) headers[name] = value;
  const body = await response.text();
  res.writeHead(response.status, headers).end(body);
}
