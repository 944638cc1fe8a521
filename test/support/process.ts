import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { afterAll, beforeAll, expect } from "vitest";
import { openDatabase, type Database, type Db } from "../../src/db/client.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { PASSWORD, uniqueEmail } from "./fixtures.js";

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** What `npm start` runs after building (global-setup.ts builds it before the tests). */
export const SERVICE_ARGS = ["--enable-source-maps", "build/index.js"];

/** Runs the service as `npm start` does and resolves once it is listening. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, SERVICE_ARGS, {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "test", BCRYPT_COST: "4", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/"port":(\d+)[^\n]*"msg":"listening"/);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return {
    child,
    port,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      // Already gone (a kill -9 included).
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, "exit");
      return code as number | null;
    },
  };
}

/** Runs the service as `npm start` does, for a start that must fail: how it exited and what it printed. */
export async function startRefused(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, SERVICE_ARGS, {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "test", BCRYPT_COST: "4", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const [code] = (await once(child, "exit")) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * Two service processes on one PostgreSQL database, sharing the local Redis under a prefix of their
 * own, so that concurrent runs sharing the Redis neither hear nor count each other; `settings` adds
 * to their environment.
 */
export async function startPair(databaseUrl: string, settings: Record<string, string> = {}): Promise<[ServiceProcess, ServiceProcess]> {
  const env = {
    ...settings,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_CHANNEL_PREFIX: `test-${randomUUID()}:`,
  };
  return Promise.all([startService(env), startService(env)]);
}

/** Approves a driver with a car and documents in force for a year, straight in the database, as an administrator would. */
export async function approveInDatabase(db: Db, conductorId: number): Promise<void> {
  const later = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const placa = randomUUID().slice(0, 6).toUpperCase();
  await db.driverProfile.update({
    where: { conductor_id: conductorId },
    data: {
      aprobado: true,
      estado_revision: "aprobado",
      licencia: { create: { numero: `L${placa}`, tipo: "B1", fecha_expiracion: later } },
      vehiculo: { create: { placa, tipo: "auto", soat_vencimiento: later, tecnomecanica_vencimiento: later } },
    },
  });
}

/** A new account of the given type, registered through the service's legacy call. */
export async function registerOn(service: ServiceProcess, tipo_usuario: string): Promise<{ id: number; email: string }> {
  const response = await fetch(`http://127.0.0.1:${service.port}/auth/register.php`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: uniqueEmail(tipo_usuario),
      password: PASSWORD,
      name: "N",
      lastName: "M",
      phone: "3001234567",
      tipo_usuario,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).user;
}

/** A JSON POST to one process, answered as its status and parsed body. */
export async function postTo(service: ServiceProcess, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * Two processes (see startPair) on a PostgreSQL database of the test file's own, started before
 * its tests and stopped after them; `db` reads that database directly.
 */
export function pairOnPostgres(settings: Record<string, string> = {}) {
  const pair = {} as { a: ServiceProcess; b: ServiceProcess; db: Database };
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("postgresql");
    [pair.a, pair.b] = await startPair(database.url, settings);
    pair.db = await openDatabase(database.url);
  });
  afterAll(async () => {
    await Promise.all([pair.a?.stop(), pair.b?.stop()]);
    await pair.db?.close();
    await database?.drop();
  });
  return pair;
}
