import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

/** A Redis server of the test's own, on a port of its own, that the test stops and starts again. */
export interface TestRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  /** Stops the server (its clients see their connections close); a no-op when it is not running. */
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A Redis on a free port, not started yet: never the shared one on 6379. */
export async function createTestRedis(binary = process.env.TEST_REDIS_SERVER ?? "redis-server"): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (child) return;
      const started = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = started;
      let output = "";
      await new Promise<void>((resolve, reject) => {
        started.stdout!.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("Ready to accept connections")) resolve();
        });
        started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
        started.once("error", reject);
        started.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      }).catch((error) => {
        child = null;
        throw error;
      });
    },
    async stop() {
      const running = child;
      if (!running) return;
      child = null;
      if (running.exitCode !== null || running.signalCode !== null) return;
      running.kill("SIGKILL");
      await once(running, "exit");
    },
  };
}
