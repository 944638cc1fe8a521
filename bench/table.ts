import { loadavg } from "node:os";

/** One line of the bench table: a path measured against its baseline in the same run. */
export interface BenchRow {
  /** What was measured, e.g. "POST /conductor/update_location.php". */
  path: string;
  /** The absolute figure, e.g. "4,210 req/s, p99 6.1 ms". */
  measured: string;
  /** What it is compared with, and its figure, e.g. "raw node:http echo: 29,800 req/s". */
  baseline: string;
  /** measured ÷ baseline, oriented so that higher is better. */
  ratio: number;
  /** The target ratio (at least this much); none for a figure that is only informative. */
  target?: number;
  /** A further condition of the target besides the ratio (a p99 under its bound), when there is one. */
  holds?: boolean;
  /** Anything else worth reading next to the ratio (memory, p99 target…). */
  note?: string;
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - text.length));

/** Cells as the lines of one Markdown table, each column as wide as its widest cell. */
export function markdownTable(header: string[], lines: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!)).join(" | ")} |`;
  return [row(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.map(row)];
}

/** The machine's load average before a run and now, with the platform and Node.js version. */
export function loadLine(loadBefore: number[]): string {
  const fmt = (load: number[]) => load.map((l) => l.toFixed(2)).join(" ");
  return `load average before: ${fmt(loadBefore)}; after: ${fmt(loadavg())} (${process.platform}, node ${process.version})`;
}

/** The table's columns but the note, as the rows' cells: stdout and bench/results.md (bench/results.ts) alike. */
export const ROW_HEADER = ["path", "measured", "baseline (same run)", "ratio", "target", "ok"];

export function rowCells(r: BenchRow): string[] {
  return [
    r.path,
    r.measured,
    r.baseline,
    `${r.ratio.toFixed(r.ratio >= 10 ? 0 : 2)}×`,
    r.target === undefined ? "—" : `≥ ${r.target}×`,
    r.target === undefined ? "—" : r.ratio >= r.target && r.holds !== false ? "yes" : "NO",
  ];
}

/** Prints the rows as one Markdown table, with the machine's load average before and after. */
export function printTable(rows: BenchRow[], loadBefore: number[]): string {
  const lines = rows.map((r) => [...rowCells(r), r.note ?? ""]);
  return [...markdownTable([...ROW_HEADER, "note"], lines), "", loadLine(loadBefore)].join("\n");
}
