import type { IncomingMessage } from "node:http";

/**
 * The client's address: the socket's peer, or, behind `trustedHops` proxies that append to
 * X-Forwarded-For, the address the outermost of them saw. Entries further left are the client's
 * own claims and are not trusted.
 */
export function clientAddress(
  socketRequest: IncomingMessage | undefined,
  headers: Pick<Headers, "get"> | undefined,
  trustedHops: number,
): string | null {
  const peer = socketRequest?.socket?.remoteAddress ?? null;
  if (trustedHops === 0) return peer;
  const forwarded = (headers?.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return forwarded[Math.max(0, forwarded.length - trustedHops)] ?? peer;
}
