/** Background work done in passes: every `pollMs`, and at once when nudged. */
export interface Passes {
  /** Runs a pass now; resolves once a pass that began after this call has ended. */
  nudge(): Promise<void>;
  /** No new passes; resolves once the one under way has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` (which must not reject) one at a time: a nudge during a pass asks for one more
 * after it, and the next timed pass is `pollMs` after the last one ended. A long pass asks
 * `stopped()` between steps, so that stop() need not wait for all of it.
 */
export function repeatPasses(pass: (stopped: () => boolean) => Promise<void>, pollMs: number): Passes {
  let stopped = false;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  function run(): Promise<void> {
    clearTimeout(timer);
    const current = pass(() => stopped).finally(() => {
      running = null;
      if (!stopped && !queued) timer = setTimeout(nudge, pollMs).unref();
    });
    running = current;
    return current;
  }

  function nudge(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (!running) return run();
    queued ??= running.then(() => {
      queued = null;
      return stopped ? undefined : run();
    });
    return queued;
  }

  void nudge();
  return {
    nudge,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
