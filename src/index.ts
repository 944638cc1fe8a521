import { ConfigError, loadConfig } from "./config.js";
import { ListenError } from "./http/listen-error.js";
import { buildServer } from "./server.js";

/** A start that cannot go on: one line saying why, and a non-zero exit. */
function refuse(error: unknown): never {
  if (!(error instanceof ConfigError || error instanceof ListenError)) throw error;
  console.error(error.message);
  process.exit(1);
}

let server: Awaited<ReturnType<typeof buildServer>>;
try {
  server = await buildServer(loadConfig());
} catch (error) {
  refuse(error);
}
try {
  await server.start();
} catch (error) {
  // Nothing of its own was begun yet (no wave, no mail claimed): what was opened is closed.
  await server.stop().catch(() => undefined);
  refuse(error);
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
