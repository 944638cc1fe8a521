/** Starting and stopping bench/server-process.ts children, and reading their CPU time. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ServerCpu, ServerReady } from "./server-process.js";

/** The server under test in a child process, so that the load generator does not share its event loop. */
export function startServer(env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<ServerReady> } {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./server-process.ts", import.meta.url))], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    // As deployed: libraries read NODE_ENV from the environment (graphql-js drops its development checks).
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = new Promise<ServerReady>((resolve, reject) => {
    child.once("message", (message) => resolve(message as ServerReady));
    child.once("exit", (code, signal) => reject(new Error(`the server process ended before it was ready (${signal ?? code})`)));
  });
  return { child, ready };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (child.connected) child.send({ kind: "stop" });
  const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(killer);
}

/** The child's CPU time so far (user + system), in seconds, as its own process.cpuUsage() reads it. */
export function cpuSeconds(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const listener = (message: ServerCpu) => {
      if (message.kind !== "cpu") return;
      child.off("message", listener);
      resolve((message.usage.user + message.usage.system) / 1e6);
    };
    child.on("message", listener);
    child.send({ kind: "cpu" });
  });
}
