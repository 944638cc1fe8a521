import { execFile } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Debian's PostgreSQL programs (the newest installed version). */
const BIN = (() => {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
  return join("/usr/lib/postgresql", versions[0]!, "bin");
})();

/** The server refuses to run as root: its programs run as the `postgres` user when we are root. */
const asPostgres = (program: string, args: string[]) =>
  process.getuid?.() === 0 ? run("runuser", ["-u", "postgres", "--", join(BIN, program), ...args]) : run(join(BIN, program), args);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  port: number;
  /** A database URL on this cluster (trust authentication, user postgres). */
  url(database?: string): string;
  start(): Promise<void>;
  /** Stops the server; `immediate` is a crash as far as clients are concerned. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** `pg_ctl restart -m immediate`: every connection is cut and the server comes back. */
  restart(mode?: "fast" | "immediate"): Promise<void>;
  /** Runs one SQL statement through psql (creating databases, say). */
  sql(statement: string, database?: string): Promise<string>;
  /** Resolves once the server takes connections: after recovery, that can come after `start` returns. */
  ready(): Promise<void>;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of our own, in a temporary folder on a free port, so that tests and the
 * soak test can stop, crash and restart a real server without touching the machine's own.
 */
export async function createPgCluster(): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), "rh-pg-"));
  const data = join(dir, "data");
  if (process.getuid?.() === 0) chownSync(dir, 101, 104);
  chmodSync(dir, 0o700);
  await asPostgres("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  // fsync off: the cluster is thrown away, and a test's speed should not depend on the disk.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const pgCtl = (...args: string[]) => asPostgres("pg_ctl", ["-D", data, "-w", "-t", "60", ...args]);
  const cluster: PgCluster = {
    port,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await pgCtl("-o", options, "-l", join(dir, "server.log"), "start");
    },
    stop: async (mode = "fast") => {
      await pgCtl("-m", mode, "stop");
    },
    restart: async (mode = "immediate") => {
      await pgCtl("-m", mode, "-o", options, "-l", join(dir, "server.log"), "restart");
    },
    sql: async (statement, database = "postgres") => {
      const { stdout } = await run(join(BIN, "psql"), [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "postgres",
        "-d",
        database,
        "-Atc",
        statement,
      ]);
      return stdout.trim();
    },
    ready: async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await cluster.sql("SELECT 1");
          return;
        } catch (error) {
          if (attempt >= 150) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    destroy: async () => {
      await pgCtl("-m", "immediate", "stop").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
