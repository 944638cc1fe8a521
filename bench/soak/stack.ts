import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createPgCluster, freePort, type PgCluster } from "../../test/support/pg-cluster.js";
import { createTestRedis, type TestRedis } from "../../test/support/redis.js";
import { type Owned, progress, ToolError } from "./lifecycle.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The built service, as `npm start` runs it. */
const SERVICE_ARGS = ["--enable-source-maps", "build/index.js"];
const TAIL_LINES = 15;

/** A service process that exited while nobody had told it to. */
export interface Crash {
  process: number;
  /** Milliseconds into the run. */
  at: number;
  exit: string;
  lastLines: string[];
}

/** What the service processes logged at warn and above, by message, with one example of each. */
export class ServiceLogs {
  readonly warn = new Map<string, number>();
  readonly error = new Map<string, number>();
  readonly examples = new Map<string, string>();

  take(line: string): void {
    if (!line.startsWith("{")) return;
    let entry: { level?: number; msg?: string; err?: { message?: string }; error?: string };
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (entry.level === undefined || entry.level < 40) return;
    const into = entry.level >= 50 ? this.error : this.warn;
    const msg = entry.msg ?? "(no message)";
    into.set(msg, (into.get(msg) ?? 0) + 1);
    const detail = entry.err?.message ?? entry.error;
    if (detail && !this.examples.has(msg)) this.examples.set(msg, String(detail).split("\n")[0]!.slice(0, 160));
  }
}

type ServiceState = "down" | "starting" | "up";

/**
 * One process of the built service on a port of its own, which keeps across restarts. It
 * remembers whether the tool killed it: any other exit of a process that was up is a crash, and
 * while `supervised` the process is started again, as a process manager would.
 */
export class Service {
  state: ServiceState = "down";
  supervised = false;
  startFailures = 0;
  private child: ChildProcess | null = null;
  private byTool = false;
  /** Stopped for good: never started again. */
  private retired = false;
  /** The start under way, which a second caller (the supervisor, the chaos) waits for instead of starting another. */
  private starting: Promise<void> | null = null;

  constructor(
    readonly index: number,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly owned: Owned,
    private readonly stack: { logs: ServiceLogs; crashes: Crash[]; startedAt: number },
  ) {}

  /** Starts the process and resolves once it listens; rejects, with its last lines, if it exits first. */
  start(): Promise<void> {
    if (this.retired) return Promise.reject(new Error(`process ${this.index} was stopped for good`));
    if (this.state === "up") return Promise.resolve();
    this.starting ??= this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private spawn(): Promise<void> {
    const child = spawn(process.execPath, SERVICE_ARGS, {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.owned.child(child);
    this.child = child;
    this.byTool = false;
    this.state = "starting";
    const tail: string[] = [];
    return new Promise<void>((resolve, reject) => {
      const lines = (chunk: Buffer, carry: { rest: string }) => {
        const text = carry.rest + chunk.toString();
        const parts = text.split("\n");
        carry.rest = parts.pop()!;
        for (const line of parts) {
          tail.push(line);
          if (tail.length > TAIL_LINES) tail.shift();
          this.stack.logs.take(line);
          if (this.state === "starting" && line.includes('"msg":"listening"')) {
            this.state = "up";
            resolve();
          }
        }
      };
      const out = { rest: "" };
      const err = { rest: "" };
      child.stdout!.on("data", (chunk: Buffer) => lines(chunk, out));
      child.stderr!.on("data", (chunk: Buffer) => lines(chunk, err));
      child.once("error", (error) => reject(error));
      child.once("exit", (code, signal) => {
        const exit = signal ?? `code ${code}`;
        const was = this.state;
        this.state = "down";
        if (was === "starting") {
          // What it said, without the stack frames.
          const said = tail.filter((line) => line.trim() !== "" && !line.trimStart().startsWith("at ") && !line.startsWith("Node.js v"));
          reject(new Error(`process ${this.index} exited (${exit}) before listening: ${said.slice(-4).join(" | ").slice(0, 600)}`));
          return;
        }
        if (this.byTool) return;
        this.stack.crashes.push({ process: this.index, at: Date.now() - this.stack.startedAt, exit, lastLines: [...tail] });
        progress(`process ${this.index} exited by itself (${exit})`);
        if (this.supervised) void sleep(1000).then(() => this.startUntilUp(60_000));
      });
    });
  }

  /** Starts it, trying again every second (the database may be restarting), for up to `withinMs`. */
  async startUntilUp(withinMs: number): Promise<boolean> {
    const until = Date.now() + withinMs;
    for (;;) {
      try {
        await this.start();
        return true;
      } catch (error) {
        if (this.retired) return false;
        this.startFailures++;
        progress(`could not start process ${this.index}: ${(error as Error).message}`);
        if (Date.now() > until) return false;
        await sleep(1000);
      }
    }
  }

  /** `kill -9`. */
  async kill(): Promise<void> {
    await this.end("SIGKILL");
  }

  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  async stop(): Promise<void> {
    this.supervised = false;
    this.retired = true;
    const child = this.child;
    const killer = setTimeout(() => child?.kill("SIGKILL"), 5000);
    await this.end("SIGTERM");
    clearTimeout(killer);
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.byTool = true;
    const exited = once(child, "exit");
    child.kill(signal);
    await exited;
  }
}

export interface Stack {
  pg: PgCluster;
  /** The service's database. */
  databaseUrl: string;
  redis: TestRedis;
  services: Service[];
  logs: ServiceLogs;
  crashes: Crash[];
  /** The processes listening now: where a load balancer would send requests. */
  up(): Service[];
  /** One SQL statement on the service's database, its rows as lines of `|`-separated values. */
  sql(statement: string): Promise<string>;
  /** The processes started again if they crash from now on. */
  supervise(on: boolean): void;
}

export const ADMIN = { email: "admin@soak.test", password: "Soak#Admin2024" };
const DATABASE = "soak";

/**
 * A PostgreSQL cluster and a Redis server of the run's own, on free loopback ports, and the
 * service processes on them. Everything is released through `owned`.
 */
export async function startStack(owned: Owned, options: { processes: number; env?: Record<string, string> }): Promise<Stack> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "rh-soak-"));
  } catch (error) {
    throw new ToolError(`cannot create a temporary folder: ${(error as Error).message}`);
  }
  owned.add("the run's folder", async () => rmSync(dir, { recursive: true, force: true }));

  progress("starting PostgreSQL (initdb into a temporary folder)…");
  const pg = await createPgCluster().catch((error: unknown) => {
    throw new ToolError(`cannot start PostgreSQL: ${(error as Error).message.split("\n").slice(0, 3).join(" ")}`);
  });
  owned.add("PostgreSQL", () => pg.destroy());
  progress(`PostgreSQL on port ${pg.port}`);
  await pg.sql(`CREATE DATABASE ${DATABASE}`);

  const redis = await createTestRedis();
  await redis.start().catch((error: unknown) => {
    throw new ToolError(`cannot start redis-server: ${(error as Error).message.split("\n")[0]}`);
  });
  owned.add("Redis", () => redis.stop());
  progress(`Redis on port ${redis.port}`);

  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    DATABASE_URL: pg.url(DATABASE),
    REDIS_URL: redis.url,
    REDIS_CHANNEL_PREFIX: "soak:",
    UPLOAD_DIR: join(dir, "uploads"),
    URL_SIGNING_SECRET: randomBytes(24).toString("hex"),
    DEMO_DATA: "false",
    LOG_LEVEL: "info",
    LEGACY_AUTH: "ids",
    BCRYPT_COST: "4",
    // Every actor signs in from 127.0.0.1.
    LOGIN_MAX_PER_ADDRESS: "1000000",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // Waves of a few drivers every 2 s, so that a request goes through several in the time a passenger waits.
    DISPATCH_WAVE_SIZE: "3",
    DISPATCH_WAVE_S: "2",
    SHUTDOWN_TIMEOUT_MS: "3000",
    // Set only so that each start does not warn that /metrics is closed.
    METRICS_TOKEN: randomBytes(16).toString("hex"),
    ...options.env,
  };
  const shared = { logs: new ServiceLogs(), crashes: [] as Crash[], startedAt: Date.now() };
  const ports = await Promise.all(Array.from({ length: options.processes }, () => freePort()));
  const services = ports.map((port, index) => new Service(index + 1, port, env, owned, shared));
  owned.add("the service processes", () => Promise.all(services.map((service) => service.stop())));

  progress(`starting ${services.length} service processes (build/index.js) on ports ${ports.join(", ")}…`);
  const started = await Promise.all(services.map((service) => service.startUntilUp(30_000)));
  if (started.includes(false)) throw new ToolError("cannot start the service processes (see the lines above)");

  return {
    pg,
    databaseUrl: env.DATABASE_URL!,
    redis,
    services,
    logs: shared.logs,
    crashes: shared.crashes,
    up: () => services.filter((service) => service.state === "up"),
    sql: (statement) => pg.sql(statement, DATABASE),
    supervise: (on) => {
      for (const service of services) service.supervised = on;
    },
  };
}
