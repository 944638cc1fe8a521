import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { followState, startWork as beginWork, type Work } from "./background/index.js";
import { ConfigError, type Config } from "./config.js";
import { seedDemoData } from "./demo/seed.js";
import { ensureInitialAdmin } from "./domain/accounts/initial-admin.js";
import { ValidationError } from "./domain/errors.js";
import { ListenError } from "./http/listen-error.js";
import { createPipeline } from "./pipeline.js";
import { createServing } from "./serving.js";
import { type Wired, wire, type WiringOptions } from "./wiring.js";

export type BuildOptions = WiringOptions;

/** The first administrator, from ADMIN_EMAIL and ADMIN_PASSWORD: a password the policy refuses is a setting the service cannot start with. */
async function initialAdmin({ config, deps, log }: Wired): Promise<void> {
  if (!config.ADMIN_EMAIL || !config.ADMIN_PASSWORD) return;
  const password = config.ADMIN_PASSWORD;
  const admin = await ensureInitialAdmin(deps, { email: config.ADMIN_EMAIL, password }).catch((error: unknown) => {
    if (!(error instanceof ValidationError)) throw error;
    throw new ConfigError([
      `${error.field} must be a password hard to guess, and this one ${error.reason} (given ${[...password].length} characters)`,
    ]);
  });
  if (admin) log.info({ email: admin.email }, "initial administrator created");
}

/**
 * Everything the service is, on one port: wired from its configuration (src/wiring.ts), with its
 * background work (src/background/) and its requests' pipeline (src/pipeline.ts, src/serving.ts).
 * Building it migrates the database and creates the first administrator; `start` listens and
 * begins the background work, `stop` ends both.
 */
export async function buildServer(config: Config, options: BuildOptions = {}) {
  const wired = await wire(config, options);
  const { deps, database, events, outage, mail, log } = wired;
  if (config.DEMO_DATA) {
    // Optional: a process whose demo data could not be loaded serves all the same.
    await seedDemoData(deps).then(
      ({ users }) => log.info({ users }, "demo data ready"),
      (error: unknown) => log.error({ err: error }, "demo data could not be loaded; serving without it"),
    );
  }
  const state = await followState(wired);
  await initialAdmin(wired);
  if (config.LEGACY_AUTH === "ids" && config.NODE_ENV === "production") {
    log.warn({}, "LEGACY_AUTH=ids: legacy callers are trusted to be the ids they send; set LEGACY_AUTH=token once the apps send tokens");
  }

  let stopping: Promise<void> | null = null;
  const pipeline = createPipeline(wired, () => stopping !== null);
  const serving = createServing(wired, pipeline);
  let http: Server | null = null;
  let webSockets: ReturnType<typeof serving.attachWebSockets> | null = null;

  /**
   * Begun once the process serves (start), so that a process that cannot listen claims no wave and
   * no mail; served in-process (the tests), it is begun by calling this.
   */
  let work: Work | null = null;
  function startWork() {
    if (!work && !stopping) work = beginWork(wired, state);
  }

  async function start(port = config.PORT, host = config.HOST): Promise<{ port: number }> {
    const server = serving.httpServer();
    http = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) => reject(new ListenError(host, port, error)));
      // WebSockets are attached as it starts listening, in the same turn: a server that could not
      // listen has nothing of theirs to report, and no upgrade can come before them.
      server.listen(port, host, () => {
        webSockets = serving.attachWebSockets(server);
        resolve();
      });
    });
    const actual = (server.address() as AddressInfo).port;
    // Links in mails name the port actually taken (PORT=0 picks one), unless PUBLIC_URL says where people reach the service.
    if (!config.PUBLIC_URL) deps.safety.publicUrl = `http://localhost:${actual}`;
    log.info({ port: actual, database: database.provider, events: config.REDIS_URL ? "redis" : "in-process" }, "listening");
    startWork();
    return { port: actual };
  }

  /** Stops accepting, lets requests in flight finish, closes WebSockets, then the database. */
  function stop(): Promise<void> {
    stopping ??= (async () => {
      if (http) {
        const server = http;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Pages following a trip fall back to polling another process.
        pipeline.sharePage.close();
        // Whatever the clients do, nothing outlives the grace period: long-lived streams (SSE) and
        // WebSockets whose client never answers the closing handshake are cut then.
        const force = setTimeout(() => {
          server.closeAllConnections();
          webSockets?.terminate();
        }, config.SHUTDOWN_TIMEOUT_MS);
        await webSockets?.close();
        await closed;
        clearTimeout(force);
      }
      await work?.stop();
      await state.stop();
      await mail.stop();
      await state.flushPositions();
      outage.stop();
      await pipeline.yoga.dispose();
      await events.close();
      await database.close();
      log.info({}, "stopped");
    })();
    return stopping;
  }

  return {
    deps,
    fetch: (request: Request) => pipeline.yoga.fetch(request),
    httpServer: serving.httpServer,
    start,
    startWork,
    stop,
    flushPositions: state.flushPositions,
    /** Sends the waves due now (once the process works: see startWork). */
    nudgeDispatcher: () => work?.dispatcher.nudge() ?? Promise.resolve(),
    /** Sends the document reminders due now (once the process works). */
    nudgeReminders: () => work?.reminders.nudge() ?? Promise.resolve(),
    /** Escalates the SOSs due now (once the process works). */
    nudgeEscalation: () => work?.escalation.nudge() ?? Promise.resolve(),
    /** Reminds of, dispatches and ends the booked trips due now (once the process works). */
    nudgeBookings: () => work?.bookings.nudge() ?? Promise.resolve(),
  };
}

export type AppServer = Awaited<ReturnType<typeof buildServer>>;
