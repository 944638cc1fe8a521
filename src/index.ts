import { loadConfig } from "./config.js";
import { buildServer } from "./server.js";

const server = await buildServer(loadConfig());
await server.start();

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
