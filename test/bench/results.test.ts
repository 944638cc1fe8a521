import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { beginRun, resultsMarkdown, writeResults } from "../../bench/results.js";
import type { BenchRow } from "../../bench/table.js";

const LONG_NOTE =
  "stopped at 28,000 users: p99 4365 ms; per fully-used core: 45,384 users (server CPU 0.53 s per s); idle, the server processes use 0.01 CPU s per s";
const rows: BenchRow[] = [
  {
    path: "POST /conductor/update_location.php",
    measured: "17,458 req/s, p99 7.0 ms",
    baseline: "echo: 44,494 req/s",
    ratio: 0.39,
    target: 0.25,
    note: "3,000 drivers online",
  },
  { path: "GET /viajes/get_trip.php", measured: "10,090 req/s, p99 5.0 ms", baseline: "GraphQL: 3,411 req/s", ratio: 3.02, target: 0.85 },
  {
    path: "app users per process (SQLite, 1 process)",
    measured: "24,000 users",
    baseline: "target 10,000 users",
    ratio: 2.4,
    target: 1,
    note: LONG_NOTE,
  },
  { path: "app users per process (PostgreSQL, 1 process)", measured: "24,000 users", baseline: "no target", ratio: 1 },
];
const invalid: BenchRow = {
  path: "POST /viajes/create_trip.php (PostgreSQL)",
  measured: "not measured",
  baseline: "—",
  ratio: 0,
  target: 1,
  note: "INVALID: connect ECONNREFUSED 127.0.0.1:5432",
};
const run = beginRun({ seconds: 1, rounds: 1, appLoad: false });
const tableLines = (text: string) => text.split("\n").filter((line) => line.startsWith("|"));

describe("bench/results.md", () => {
  it("is headed with the date, the commit, the machine, Node, the settings and the load", () => {
    const text = resultsMarkdown(rows, run);
    const head = text.slice(0, text.indexOf("\n|"));
    expect(head).toMatch(/\*\*Date\*\* \(UTC\): \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    const hash = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    expect(head).toMatch(new RegExp(`\\*\\*Commit\\*\\*: ${hash}( \\+ uncommitted changes)?\\n`));
    const model = cpus()[0]!.model.trim();
    expect(head).toContain(`${cpus().filter((cpu) => cpu.model.trim() === model).length} × ${model}`);
    expect(head).toMatch(/\d+\.\d GiB of memory/);
    expect(head).toContain(`${process.version} on ${process.platform}`);
    expect(head).toContain("BENCH_SECONDS=1, BENCH_ROUNDS=1, app load skipped");
    expect(head).toMatch(/\*\*Load average\*\* \(1, 5, 15 min\): [\d.]+ [\d.]+ [\d.]+ before; [\d.]+ [\d.]+ [\d.]+ after/);
    expect(head).not.toContain("cut short");
  });

  it("lists the notes under the table, numbered from the rows", () => {
    const text = resultsMarkdown(rows, run);
    const table = tableLines(text);
    expect(table).toHaveLength(rows.length + 2);
    for (const line of table) expect(line).not.toMatch(/drivers online|stopped at/);
    expect(table[2]).toMatch(/\| 1 +\|$/);
    expect(table[3]).toMatch(/\| +\|$/);
    expect(table[4]).toMatch(/\| 2 +\|$/);
    const notes = text.slice(text.lastIndexOf("|"));
    expect(notes).toContain("\n1. POST /conductor/update_location.php: 3,000 drivers online\n");
    expect(notes).toContain(`\n2. app users per process (SQLite, 1 process): ${LONG_NOTE}\n`);
  });

  it("says at the top when rows are invalid, and still lists them", () => {
    const text = resultsMarkdown([...rows, invalid], run);
    const top = text.slice(0, text.indexOf("- **Date**"));
    expect(top).toContain("This run was cut short: 1 of 5 rows have no valid figures");
    expect(top).toContain("POST /viajes/create_trip.php (PostgreSQL)");
    expect(tableLines(text).at(-1)).toMatch(/^\| POST \/viajes\/create_trip\.php \(PostgreSQL\) .*\| NO +\| 3 +\|$/);
    expect(text).toContain("\n3. POST /viajes/create_trip.php (PostgreSQL): INVALID: connect ECONNREFUSED");
  });

  it("is written where it is told", () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
    try {
      const file = writeResults(rows, run, join(dir, "results.md"));
      expect(readFileSync(file, "utf8")).toMatch(/^# Bench results\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
