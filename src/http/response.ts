/**
 * The Response class Yoga answers with. Yoga writes a body of its own class straight to the socket,
 * where a global (undici) Response would be pumped through a web stream: several times the cost for
 * the small JSON answers that make up most of the traffic.
 */
export { Response } from "@whatwg-node/server";
