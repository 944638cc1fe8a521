import { Writable } from "node:stream";

/** A destination for the service's JSON log, and every line written to it so far, parsed. */
export function logLines(): { lines: Array<Record<string, unknown>>; sink: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, sink };
}
