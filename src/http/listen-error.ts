/** What an operator is told when the service cannot listen, by the system's error code. */
const REASONS: Record<string, string> = {
  EADDRINUSE: "the port is already in use; set PORT to a free one",
  EACCES: "this user may not listen on that port",
  EADDRNOTAVAIL: "HOST is not an address of this machine",
  ENOTFOUND: "HOST does not resolve to an address",
  EAI_AGAIN: "HOST could not be resolved now",
};

/** The service could not listen: one line that says where and why. */
export class ListenError extends Error {
  constructor(host: string, port: number, cause: NodeJS.ErrnoException) {
    super(`Cannot listen on ${host}:${port}: ${(cause.code && REASONS[cause.code]) ?? cause.message} (${cause.code ?? "error"})`, {
      cause,
    });
    this.name = "ListenError";
  }
}
