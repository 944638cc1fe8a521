import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { declaredNode, fits } from "../../scripts/node-version.mjs";

/**
 * The SQLite binding on the Node the project runs (docs/node-runtime.md). A binding built on
 * Node's own object wrapper, as better-sqlite3 up to 12 is, compiled against Node 24.19's headers
 * or later, can abort the process in the garbage collector (`RemoveEnvironmentCleanupHook`); the
 * Node-API binding in use must survive what provokes that: statements by the thousand prepared and
 * dropped across forced collections, databases closed or left open with statements alive, a
 * worker thread's teardown and the process's own.
 */
const STRESS = `
const Database = require("better-sqlite3");
const { Worker } = require("node:worker_threads");
function churn(file) {
  const db = new Database(file);
  db.exec("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)");
  const kept = [];
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 250; i++) {
      const statement = db.prepare("SELECT " + i + " AS n, v FROM t WHERE id = ?");
      statement.get(i);
      if (i % 50 === 0) kept.push(statement);
      db.prepare("SELECT * FROM t").iterate().return();
    }
    global.gc();
  }
  return { db, kept };
}
churn(":memory:").db.close();
global.gc();
globalThis.open = churn(":memory:");
const worker = new Worker("const Database = require('better-sqlite3'); globalThis.open = (" + churn + ")(':memory:');", { eval: true });
worker.on("exit", (code) => {
  global.gc();
  console.log("ok " + code + " " + process.version);
});
`;

describe("the SQLite binding", () => {
  it("survives statements prepared and dropped across forced collections, closes and teardowns, in a process of its own", () => {
    const run = spawnSync(process.execPath, ["--expose-gc", "-e", STRESS], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({ status: 0, signal: null, stderr: "" });
    expect(run.stdout.trim()).toBe(`ok 0 ${process.version}`);
  });

  it("runs on a Node the project declares: the one .nvmrc names, or another of its range", () => {
    const { wanted, range } = declaredNode();
    expect(fits(wanted, range)).toBe(true);
    expect(fits(process.version, range)).toBe(true);
    // The range is the line's: the next major does not fit, nor does an older release.
    expect(fits("25.0.0", range) || fits("20.20.2", range)).toBe(false);
  });
});
