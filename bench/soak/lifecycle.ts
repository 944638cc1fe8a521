import type { ChildProcess } from "node:child_process";

/** A failure of the tool itself (it could not build, start PostgreSQL, onboard the city): said in one line, exit 2. */
export class ToolError extends Error {}

export const progress = (line: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Everything the tool started, released in reverse order however the run ends: normally, on a
 * failure, or on Ctrl-C. Child processes are also killed synchronously when the tool exits, so
 * that none outlives it even when a cleanup could not run.
 */
export class Owned {
  private readonly cleanups: Array<{ what: string; release: () => Promise<unknown> }> = [];
  private readonly children = new Set<ChildProcess>();

  add(what: string, release: () => Promise<unknown>): void {
    this.cleanups.push({ what, release });
  }

  /** A child process to kill if the tool exits while it runs; forgotten once it has exited. */
  child(child: ChildProcess): void {
    this.children.add(child);
    child.once("exit", () => this.children.delete(child));
  }

  async release(): Promise<void> {
    for (const { what, release } of this.cleanups.splice(0).reverse()) {
      await release().catch((error: unknown) => progress(`cleanup of ${what} failed: ${reason(error)}`));
    }
    this.killChildren();
  }

  killChildren(): void {
    for (const child of this.children) child.kill("SIGKILL");
  }
}

/**
 * Runs the tool: `main` answers the exit code. A ToolError ends it with its message and 2, as does
 * anything unexpected (with its stack), an unhandled rejection included; Ctrl-C or SIGTERM release
 * everything and exit 130 or 143.
 */
export async function runOwned(main: (owned: Owned) => Promise<number>): Promise<never> {
  const owned = new Owned();
  process.on("exit", () => owned.killChildren());
  // A second signal while releasing waits for the same release.
  let released: Promise<void> | null = null;
  const finish = async (code: number): Promise<never> => {
    released ??= owned.release();
    await released;
    process.exit(code);
  };
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      progress(`${signal}: stopping everything the soak started`);
      void finish(code);
    });
  }
  const fail = (what: string) => (error: unknown) => {
    process.stderr.write(
      `soak: the tool itself failed (${what}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    void finish(2);
  };
  process.on("unhandledRejection", fail("an unhandled promise rejection"));
  process.on("uncaughtException", fail("an uncaught exception"));

  let code: number;
  try {
    code = await main(owned);
  } catch (error) {
    if (error instanceof ToolError) process.stderr.write(`soak: ${error.message}\n`);
    else process.stderr.write(`soak: the tool itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    code = 2;
  }
  return finish(code);
}
