import { markdownTable } from "../table.js";
import { type Census, percentile } from "./client.js";
import type { ServiceLogs, Stack } from "./stack.js";

/** A line of a soak table: what, its figure, and when there is one, the target it must meet. */
export interface Line {
  what: string;
  measured: string;
  target?: string;
  /** Whether the target is met; absent for a figure without one. */
  ok?: boolean;
  note?: string;
}

export const summaryTable = (lines: Line[]) =>
  markdownTable(
    ["what", "measured", "target", "ok", "note"],
    lines.map((l) => [l.what, l.measured, l.target ?? "", l.ok === undefined ? "" : l.ok ? "yes" : "NO", l.note ?? ""]),
  );

export const ms = (value: number) =>
  Number.isNaN(value) ? "—" : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;

export const percentiles = (values: number[]) =>
  values.length === 0
    ? "none"
    : `p50 ${ms(percentile(values, 50))} · p95 ${ms(percentile(values, 95))} · p99 ${ms(percentile(values, 99))}`;

export const times = (count: number, what: string) => `${count.toLocaleString("en-US")} ${what}`;

/** A must-be-zero line. */
export const none = (what: string, found: number, note = ""): Line => ({
  what,
  measured: String(found),
  target: "0",
  ok: found === 0,
  note,
});

/** How each path was answered: a column per status, then calls with no answer. */
export function censusTable(census: Census): string[] {
  const http = [...census.outcomes].filter(([path]) => path.startsWith("/"));
  const outcomes = [...new Set(http.flatMap(([, byOutcome]) => [...byOutcome.keys()]))].sort((a, b) => {
    const [x, y] = [Number(a), Number(b)];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? a.localeCompare(b) : 1) : -1;
    return x - y;
  });
  const lines = http
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, byOutcome]) => [
      path,
      String([...byOutcome.values()].reduce((a, b) => a + b, 0)),
      ...outcomes.map((outcome) => String(byOutcome.get(outcome) ?? "")),
    ]);
  return markdownTable(["path", "calls", ...outcomes], lines);
}

/** Subscriptions and connections: what ended them, in one line each. */
export function subscriptionLines(census: Census): string[] {
  return [...census.outcomes]
    .filter(([path]) => !path.startsWith("/"))
    .map(([path, byOutcome]) => `- ${path}: ${[...byOutcome].map(([outcome, count]) => `${count} × ${outcome}`).join(", ")}`);
}

/** The service's own log lines at error and warn, by message, most frequent first. */
export function logLines(logs: ServiceLogs): string[] {
  const top = (counts: Map<string, number>, level: string) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([msg, count]) => `- ${level} × ${count}: ${msg}${logs.examples.has(msg) ? ` (${logs.examples.get(msg)})` : ""}`);
  const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  return [
    `service log lines: ${sum(logs.error)} at error or fatal, ${sum(logs.warn)} at warn`,
    ...top(logs.error, "error"),
    ...top(logs.warn, "warn"),
  ];
}

/** The lines about processes that exited by themselves: each with its last log lines. */
export function crashLines(stack: Stack): string[] {
  return stack.crashes.flatMap((crash) => [
    `- process ${crash.process} exited by itself ${ms(crash.at)} into the run (${crash.exit}); its last lines:`,
    ...crash.lastLines.slice(-5).map((line) => `    ${line.slice(0, 300)}`),
  ]);
}
