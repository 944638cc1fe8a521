import { expect } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config.js";
import type { Clock } from "../../src/domain/deps.js";
import { openSession } from "../../src/domain/accounts/sessions.js";
import { createLogger, type AppLogger } from "../../src/logger.js";
import { buildServer, type AppServer } from "../../src/server.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { undocumented } from "./openapi.js";

export interface TestApp {
  server: AppServer;
  /** The SQL statements sent to the database so far. */
  queries: string[];
  config: Config;
  db: AppServer["deps"]["db"];
  /**
   * A legacy call over a socket, as the apps make it; GET sends `body` as the query string, other
   * methods as JSON.
   */
  legacy(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<LegacyResponse>;
  /** Where `legacy` sends its calls: http://127.0.0.1:<port>. */
  origin: string;
  /** A GraphQL request over HTTP, optionally as a signed-in user. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, callerId?: number): Promise<GraphQLResponse<T>>;
  /** A session token for the user, opened directly (no password involved); the same one on every call. */
  token(userId: number): Promise<string>;
  /** The Authorization header of `token(userId)`. */
  bearer(userId: number): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export interface LegacyResponse {
  status: number;
  body: any;
  headers: Headers;
}

/** How GraphQL answers an operation that needs somebody signed in when nobody is: 401, nothing run. */
export const SIGN_IN_REQUIRED = {
  status: 401,
  errors: [
    { message: "Inicia sesión y envía el token en la cabecera Authorization: Bearer <token>", extensions: { code: "UNAUTHENTICATED" } },
  ],
};

export interface GraphQLResponse<T> {
  status: number;
  data: T;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/**
 * A server on a fresh database of the provider under test, used in-process (`server.fetch`, no
 * port) except for legacy calls, which go over a socket on a port of the test's own.
 */
export async function createTestApp(options: { clock?: Clock; env?: Record<string, string>; log?: AppLogger } = {}): Promise<TestApp> {
  const database: TestDatabase = await createTestDatabase();
  const uploads = mkdtempSync(join(tmpdir(), "rh-test-uploads-"));
  const config = loadConfig({
    DATABASE_URL: database.url,
    UPLOAD_DIR: uploads,
    BCRYPT_COST: "4",
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DEMO_DATA: "false",
    // In-process requests come from no address, so they would all share one budget of logins and codes.
    LOGIN_MAX_PER_ADDRESS: "1000",
    EMAIL_CODES_PER_ADDRESS: "1000",
    SHARE_REQUESTS_PER_ADDRESS: "1000",
    // Later waves go out when a test nudges the dispatcher: a poll would add statements to those tests count.
    DISPATCH_POLL_MS: "60000",
    // Likewise SOS escalations, which a test nudges (nudgeEscalation).
    SOS_POLL_MS: "60000",
    // And booked trips, dispatched when a test nudges them.
    BOOKING_POLL_MS: "600000",
    ...options.env,
  });
  const queries: string[] = [];
  const server = await buildServer(config, {
    clock: options.clock,
    log: options.log ?? createLogger(config),
    onQuery: (sql) => queries.push(sql),
  });
  // Served in-process: no port, but the waves, mail and positions go on as in a process that listens.
  server.startWork();
  // Its first look for document reminders, as it starts, ends before any test counts statements.
  await server.nudgeReminders();

  // Served by the server's own listener, but not by start(): the links it writes keep their host.
  const socket = server.httpServer();
  await new Promise<void>((resolve) => socket.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`;

  const legacy: TestApp["legacy"] = async (method, path, body, headers = {}) => {
    let url = `${origin}${path}`;
    const init: RequestInit = { method, headers: { ...headers } };
    if (method === "GET" && body) url += `?${new URLSearchParams(body as Record<string, string>)}`;
    else if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      init.headers = { "content-type": "application/json", ...headers };
    }
    const response = await fetch(url, init);
    const text = await response.text();
    const answer = { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
    // Every legacy answer of every test is checked against the OpenAPI document.
    expect(undocumented(method, path.split("?")[0]!, answer.status, answer.body)).toBeNull();
    return answer;
  };

  const tokens = new Map<number, Promise<string>>();
  const token: TestApp["token"] = (userId) => {
    if (!tokens.has(userId))
      tokens.set(
        userId,
        openSession(server.deps, userId, null).then((issued) => issued.token),
      );
    return tokens.get(userId)!;
  };
  const bearer: TestApp["bearer"] = async (userId) => ({ authorization: `Bearer ${await token(userId)}` });

  const graphql: TestApp["graphql"] = async (query, variables, callerId) => {
    const response = await server.fetch(
      new Request("http://test/graphql", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(callerId === undefined ? {} : await bearer(callerId)),
        },
        body: JSON.stringify({ query, variables }),
      }),
    );
    return { status: response.status, ...(await response.json()) };
  };

  return {
    server,
    queries,
    config,
    db: server.deps.db,
    legacy,
    origin,
    graphql,
    token,
    bearer,
    close: async () => {
      socket.closeAllConnections();
      await new Promise((resolve) => socket.close(resolve));
      await server.stop();
      await database.drop();
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}
