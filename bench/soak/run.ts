/**
 * `npm run soak`: a city of drivers and passengers against several processes of the built service
 * on a PostgreSQL and a Redis of the run's own, while processes are killed with `kill -9`, Redis
 * is killed and PostgreSQL restarted; then the database's account of every request, as a table on
 * stdout (progress on stderr). `--probe` aims at the window between a trip's commit and its answer
 * instead. Everything runs on loopback and is removed at the end. `--help` lists the options.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { progress, runOwned, ToolError } from "./lifecycle.js";
import { parseOptions, USAGE, UsageError } from "./options.js";
import { runCity } from "./run-city.js";
import { runProbe } from "./run-probe.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run build`: the processes run build/index.js, as `npm start` does. */
function build(): void {
  progress("building the service (node scripts/build.mjs)…");
  const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) {
    throw new ToolError(
      `cannot build the service: node scripts/build.mjs ${built.error ? `failed (${built.error.message})` : `exited with ${built.status ?? built.signal}`}; the compiler's errors are above`,
    );
  }
}

await runOwned(async (owned) => {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`soak: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (options.build) build();
  return options.mode === "city" ? runCity(owned, options.city) : runProbe(owned, options.probe);
});
