/**
 * The file a bench run leaves its table in (bench/results.md, or BENCH_RESULTS): when and where it
 * ran (date, commit, machine, Node, settings, load) above the table, and the rows' notes listed
 * under it, so that no row of the table runs to hundreds of characters. docs/performance.md says
 * what each row measures.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { type BenchRow, markdownTable, ROW_HEADER, rowCells } from "./table.js";

/** The settings of `npm run bench` with no variable set. */
export const FULL_RUN = { seconds: 5, rounds: 3, appLoad: true };

interface RunSettings {
  seconds: number;
  rounds: number;
  appLoad: boolean;
}

/** What is known of a run when it starts: the code it runs and the machine's load before it. */
export interface BenchRun {
  startedAt: Date;
  /** The short commit, with "+ uncommitted changes" when tracked files differ from it. */
  commit: string;
  loadBefore: number[];
  settings: RunSettings;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_FILE = fileURLToPath(new URL("./results.md", import.meta.url));

function commit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    const hash = git("rev-parse", "--short", "HEAD");
    // Tracked files only, and not the results a previous run left behind, which are no code.
    const changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/results.md");
    return changed ? `${hash} + uncommitted changes` : hash;
  } catch {
    return "unknown (not a git checkout)";
  }
}

/** Read as the run starts, so that the commit is that of the code measured. */
export function beginRun(settings: RunSettings): BenchRun {
  return { startedAt: new Date(), commit: commit(), loadBefore: loadavg(), settings };
}

function machine(): string {
  const models = new Map<string, number>();
  for (const { model } of cpus()) models.set(model.trim(), (models.get(model.trim()) ?? 0) + 1);
  const cores = models.size ? [...models].map(([model, n]) => `${n} × ${model}`).join(", ") : "CPUs unknown";
  return `${cores}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB of memory`;
}

function settingsLine({ seconds, rounds, appLoad }: RunSettings): string {
  const line = `BENCH_SECONDS=${seconds}, BENCH_ROUNDS=${rounds}, app load ${appLoad ? "ran" : "skipped (BENCH_APP_LOAD=0)"}`;
  const full = seconds === FULL_RUN.seconds && rounds === FULL_RUN.rounds && appLoad === FULL_RUN.appLoad;
  return full
    ? `${line} (a full run)`
    : `${line}; a full run is BENCH_SECONDS=${FULL_RUN.seconds}, BENCH_ROUNDS=${FULL_RUN.rounds} with app load`;
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d+Z$/, "Z");
const duration = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
const loads = (load: number[]) => load.map((l) => l.toFixed(2)).join(" ");
// A `|` inside a cell would end it.
const cell = (text: string) => text.replaceAll("|", "\\|");
const isInvalid = (row: BenchRow) => row.note?.includes("INVALID") ?? false;

/** The whole file: what the run was, whether it was cut short, the table, the notes. */
export function resultsMarkdown(rows: BenchRow[], run: BenchRun, finishedAt = new Date(), loadAfter = loadavg()): string {
  const invalid = rows.filter(isInvalid);
  const lines = [
    "# Bench results",
    "",
    "Written by `npm run bench` (`bench/run.ts`) at the end of each run, not by hand. What each row measures, " +
      "against what and why: [docs/performance.md](../docs/performance.md).",
    "",
  ];
  if (invalid.length > 0)
    lines.push(
      `**This run was cut short: ${invalid.length} of ${rows.length} rows have no valid figures** ` +
        `(${invalid.map((r) => r.path).join("; ")}); their notes say why.`,
      "",
    );
  lines.push(
    `- **Date** (UTC): ${isoSeconds(run.startedAt)}, for ${duration(finishedAt.getTime() - run.startedAt.getTime())}`,
    `- **Commit**: ${run.commit}`,
    `- **Machine**: ${machine()}`,
    `- **Node**: ${process.version} on ${process.platform} ${process.arch}`,
    `- **Settings**: ${settingsLine(run.settings)}`,
    `- **Load average** (1, 5, 15 min): ${loads(run.loadBefore)} before; ${loads(loadAfter)} after`,
    "",
  );
  const notes: string[] = [];
  const table = rows.map((row) => {
    if (row.note) notes.push(`${notes.length + 1}. ${row.path}: ${row.note}`);
    return [...rowCells(row), row.note ? String(notes.length) : ""].map(cell);
  });
  lines.push(...markdownTable([...ROW_HEADER, "note"], table));
  if (notes.length > 0) lines.push("", "Notes, by the number in the row's last column:", "", ...notes);
  return `${lines.join("\n")}\n`;
}

/** Writes the file (BENCH_RESULTS, or bench/results.md) and returns its path. */
export function writeResults(rows: BenchRow[], run: BenchRun, file = process.env.BENCH_RESULTS || DEFAULT_FILE): string {
  writeFileSync(file, resultsMarkdown(rows, run));
  return file;
}
