import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import { KeyedHistogram } from "./keyed-histogram.js";
import type { Logger } from "../domain/deps.js";
import { MAIL_STATES } from "../domain/mail/outbox.js";
import { VEHICLE_TYPES } from "../domain/service-types.js";
import { methodLabel, operationLabeller, routeLabeller } from "./labels.js";

/** What the metrics read when they are scraped. */
export interface MetricsSources {
  /** The paths requests are reported by (legacy calls, GraphQL, health); any other is `other`. */
  paths: Iterable<string>;
  /** Trips waiting for a driver, as the database counts them. */
  pendingTrips(): Promise<number>;
  /** Outbox mail in each state, as the database counts it. */
  outbox(): Promise<Record<(typeof MAIL_STATES)[number], number>>;
  /** The drivers this process knows to be online. */
  drivers(): Iterable<{ tipo_vehiculo: (typeof VEHICLE_TYPES)[number]; disponible: boolean }>;
  /** The database's connection pool; null without one (SQLite), and then its gauges are left out. */
  pool(): { inUse: number; waiting: number } | null;
  events(): { mode: "redis" | "in-process"; connected: boolean; lost: number };
  log: Logger;
}

/** A reading at scrape time that takes longer is given up: the scrape must answer in time. */
const READING_TIMEOUT_MS = 1000;
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** `release`, run at the first call of the function returned and never again. */
function once(release: () => void): () => void {
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    release();
  };
}

/** A gauge of what is open now, counted in a plain number and read when scraped: opening and closing cost no label work. */
function openCount(registry: Registry, name: string, help: string): () => () => void {
  let open = 0;
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(open);
    },
  });
  return () => {
    open++;
    return once(() => open--);
  };
}

/** Adds one to `gauge` now and takes it off at the first call of the function returned. */
function hold<T extends string>(gauge: Gauge<T>, labels: Partial<Record<T, string>> = {}): () => void {
  gauge.inc(labels);
  return once(() => gauge.dec(labels));
}

export type OperationTransport = "http" | "sse" | "ws" | "legacy";

/**
 * The service's Prometheus metrics, in a registry of their own: one per server, so that two
 * servers in one process (tests) count apart.
 */
export class Metrics {
  readonly #registry = new Registry();
  readonly #route: (pathname: string) => string;
  readonly operationLabel = operationLabeller();

  readonly #requests = new KeyedHistogram<"method" | "route" | "status">(
    "http_request_duration_seconds",
    "Time to answer an HTTP request, until the answer starts (an event stream: until it opens), by method, route and status",
    SECONDS,
    this.#registry,
  );
  readonly #operations = new KeyedHistogram<"operation" | "type" | "transport" | "outcome">(
    "graphql_operation_duration_seconds",
    "Time to execute a GraphQL query or mutation, by operation, type, transport (http, sse, ws, legacy) and outcome (ok, error)",
    SECONDS,
    this.#registry,
  );
  readonly #errors = new Counter({
    name: "app_errors_total",
    help: "Errors answered by GraphQL operations, legacy calls included, by code (INTERNAL: unexpected, SERVICE_UNAVAILABLE: too busy)",
    labelNames: ["code"],
    registers: [this.#registry],
  });
  /** Each of these counts something open; call the function returned when it closes. */
  readonly inFlight = openCount(this.#registry, "http_requests_in_flight", "Requests being served (event streams and health checks aside)");
  readonly queued = openCount(this.#registry, "http_requests_queued", "Requests waiting for a free place (MAX_CONCURRENT_REQUESTS)");
  readonly streamOpened = openCount(this.#registry, "sse_streams", "Open event streams (GraphQL over SSE)");
  #sockets: () => number = () => 0;
  readonly #socketGauge: Gauge = new Gauge({
    name: "websocket_connections",
    help: "Open graphql-ws connections",
    registers: [this.#registry],
    collect: () => this.#socketGauge.set(this.#sockets()),
  });
  readonly #subscriptions = new Gauge({
    name: "graphql_subscriptions",
    help: "Active subscriptions by root field, one per subscriber (WebSocket and SSE)",
    labelNames: ["field"],
    registers: [this.#registry],
  });

  constructor(sources: MetricsSources) {
    this.#route = routeLabeller(sources.paths);
    collectDefaultMetrics({ register: this.#registry });

    new Gauge({
      name: "drivers_online",
      help:
        "Drivers online as this process knows them, by vehicle type and whether they are free for a trip " +
        "(every process knows them all)",
      labelNames: ["vehicle_type", "available"],
      registers: [this.#registry],
      collect() {
        // Counted afresh; a type nobody drives now reads 0 rather than vanishing.
        for (const vehicle_type of VEHICLE_TYPES) for (const available of ["true", "false"]) this.set({ vehicle_type, available }, 0);
        for (const driver of sources.drivers()) this.inc({ vehicle_type: driver.tipo_vehiculo, available: String(driver.disponible) });
      },
    });
    new Gauge({
      name: "trips_pending",
      help: "Trips waiting for a driver, counted by the database at scrape time (NaN when it does not answer in time)",
      registers: [this.#registry],
      async collect() {
        try {
          this.set(await withinTime(sources.pendingTrips(), READING_TIMEOUT_MS));
        } catch (error) {
          // Unknown, rather than a stale or made-up number.
          this.set(Number.NaN);
          sources.log.warn({ err: error }, "metrics: could not count the pending trips");
        }
      },
    });
    new Gauge({
      name: "outbox_mail",
      help:
        "Outbox mail by state (pendiente: to send, enviado, fallido: given up, vencido: expired unsent), " +
        "counted by the database at scrape time (NaN when it does not answer in time)",
      labelNames: ["estado"],
      registers: [this.#registry],
      async collect() {
        try {
          const counts = await withinTime(sources.outbox(), READING_TIMEOUT_MS);
          for (const estado of MAIL_STATES) this.set({ estado }, counts[estado]);
        } catch (error) {
          for (const estado of MAIL_STATES) this.set({ estado }, Number.NaN);
          sources.log.warn({ err: error }, "metrics: could not count the outbox mail");
        }
      },
    });
    // Without a pool (SQLite) these series are left out rather than reported empty.
    if (sources.pool()) {
      const poolGauge = (name: string, help: string, read: (pool: { inUse: number; waiting: number }) => number) =>
        new Gauge({
          name,
          help,
          registers: [this.#registry],
          collect() {
            const pool = sources.pool();
            this.set(pool ? read(pool) : Number.NaN);
          },
        });
      poolGauge("db_pool_in_use", "Database connections lent to a query or transaction (PostgreSQL)", (pool) => pool.inUse);
      poolGauge("db_pool_waiting", "Queries waiting for a database connection (PostgreSQL)", (pool) => pool.waiting);
    }
    new Gauge({
      name: "event_bus_connected",
      help: "1 while events reach every process (mode redis), 0 while Redis is away; always 1 in-process",
      labelNames: ["mode"],
      registers: [this.#registry],
      collect() {
        const { mode, connected } = sources.events();
        this.reset();
        this.set({ mode }, connected ? 1 : 0);
      },
    });
    let lostSeen = 0;
    new Counter({
      name: "event_bus_events_lost_total",
      help: "Events that could not be sent to the other processes (Redis away)",
      registers: [this.#registry],
      collect() {
        const { lost } = sources.events();
        this.inc(lost - lostSeen);
        lostSeen = lost;
      },
    });
  }

  observeRequest(method: string, pathname: string, status: number, seconds: number): void {
    const labels = [methodLabel(method), this.#route(pathname), String(status)] as const;
    this.#requests.observe(labels.join(" "), () => ({ method: labels[0], route: labels[1], status: labels[2] }), seconds);
  }

  observeOperation(
    labels: { operation: string; type: string; transport: OperationTransport; outcome: "ok" | "error" },
    seconds: number,
  ): void {
    this.#operations.observe(`${labels.operation} ${labels.type} ${labels.transport} ${labels.outcome}`, () => labels, seconds);
  }

  countError(code: string): void {
    // Codes are the server's own; the pattern keeps anything else from becoming a label.
    this.#errors.inc({ code: /^[A-Z][A-Z_]{0,39}$/.test(code) ? code : "OTHER" });
  }

  /** Counts a subscription under its root field until the function returned, or subscriptionEnded, is called. */
  subscriptionStarted = (field: string) => hold(this.#subscriptions, { field });
  subscriptionEnded = (field: string) => void this.#subscriptions.dec({ field });

  /** Where the gauge of open graphql-ws connections reads their number when scraped. */
  countSockets(count: () => number): void {
    this.#sockets = count;
  }

  /** The exposition text; collectors never throw (a reading that fails reads NaN). */
  text(): Promise<string> {
    return this.#registry.metrics();
  }

  get contentType(): string {
    return this.#registry.contentType;
  }
}
