import { setTimeout as sleep } from "node:timers/promises";
import type { Random } from "./random.js";
import type { Service } from "./stack.js";

/** The part of a legacy answer the city reads. */
export interface LegacyBody {
  success?: boolean;
  message?: string;
  token?: string;
  user?: { id: number };
  trip?: { id: number; estado: string; conductor_id: number | null; precio_estimado: number };
}

export interface Answer {
  /** The HTTP status, or null when none came (the connection failed or the call timed out). */
  status: number | null;
  /** The status, "network error" or "timeout": how the census counts it. */
  outcome: string;
  body: LegacyBody;
  ms: number;
  /** The process that answered (or did not). */
  process: number;
}

/** Every call and its outcome by path, with the times of the answered ones; subscription events too. */
export class Census {
  readonly outcomes = new Map<string, Map<string, number>>();
  readonly times = new Map<string, number[]>();

  record(path: string, outcome: string, ms: number | null = null): void {
    const byOutcome = this.outcomes.get(path) ?? new Map<string, number>();
    this.outcomes.set(path, byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1));
    if (ms === null) return;
    const times = this.times.get(path) ?? [];
    this.times.set(path, times);
    times.push(ms);
  }

  /** Answers 500–599 other than 503, and subscriptions ended by an internal error: what must not happen. */
  serverFailures(): Array<{ path: string; outcome: string; count: number }> {
    return [...this.outcomes].flatMap(([path, byOutcome]) =>
      [...byOutcome]
        .filter(([outcome]) => (/^5\d\d$/.test(outcome) && outcome !== "503") || outcome.includes("INTERNAL"))
        .map(([outcome, count]) => ({ path, outcome, count })),
    );
  }
}

/** The p-th percentile (0–100) of the values, by nearest rank; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface CallOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** A process to avoid when another is up (a retry goes elsewhere). */
  avoid?: number;
  /** This process, up or not. */
  on?: Service;
  /** What the census counts the call under, when not its path. */
  label?: string;
}

/**
 * The legacy interface over whichever processes are up, as behind a load balancer that takes a
 * process out once it is down: each call goes to one of them at random.
 */
export class Api {
  constructor(
    private readonly up: () => Service[],
    readonly census: Census,
    private readonly random: Random,
  ) {}

  /** One of the processes up (another than `avoid` if there is one), waiting while none is. */
  async target(avoid?: number): Promise<Service> {
    for (;;) {
      const up = this.up();
      const others = up.filter((service) => service.index !== avoid);
      if (up.length > 0) return this.random.pick(others.length > 0 ? others : up);
      await sleep(200);
    }
  }

  post(path: string, body: Record<string, unknown>, options: CallOptions = {}): Promise<Answer> {
    return this.call("POST", path, JSON.stringify(body), { "content-type": "application/json", ...options.headers }, options);
  }

  get(path: string, query: Record<string, string | number>, options: CallOptions = {}): Promise<Answer> {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    return this.call("GET", `${path}?${search}`, undefined, options.headers ?? {}, options, path);
  }

  upload(path: string, form: FormData, options: CallOptions = {}): Promise<Answer> {
    return this.call("POST", path, form, options.headers ?? {}, options);
  }

  private async call(
    method: string,
    url: string,
    body: string | FormData | undefined,
    headers: Record<string, string>,
    options: CallOptions,
    path = url,
  ): Promise<Answer> {
    const service = options.on ?? (await this.target(options.avoid));
    const started = performance.now();
    let status: number | null = null;
    let outcome: string;
    let parsed: LegacyBody = {};
    try {
      const response = await fetch(`http://127.0.0.1:${service.port}${url}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 35_000),
      });
      const text = await response.text();
      status = response.status;
      outcome = String(status);
      try {
        parsed = JSON.parse(text) as LegacyBody;
      } catch {
        parsed = { message: text.slice(0, 200) };
      }
    } catch (error) {
      outcome = (error as Error).name === "TimeoutError" ? "timeout" : "network error";
      parsed = { message: (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message };
    }
    const ms = performance.now() - started;
    this.census.record(options.label ?? path, outcome, status === null ? null : ms);
    return { status, outcome, body: parsed, ms, process: service.index };
  }
}
