import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { stripVTControlCharacters as plain } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, prettyLines, requestScope } from "../../src/logger.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { SERVICE_ARGS, startService } from "../support/process.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const ESC = "\u001b[";

describe("development logs", () => {
  it("are one readable line per event, led by the request id being served", () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (chunk: Buffer) => (text += plain(chunk.toString())));
    const log = createLogger({ LOG_LEVEL: "info" }, prettyLines(out));
    requestScope.run({ request_id: "app-7f3a:42" }, () => log.info({ viaje_id: 9 }, "viaje creado"));
    log.info("sin petición");
    expect(text).toContain("[app-7f3a:42] viaje creado");
    expect(text).toContain("viaje_id: 9");
    expect(text).toMatch(/INFO.*sin petición/);
    expect(text).not.toContain('"level"');
  });

  it("are coloured when the service runs in development in a terminal", async () => {
    // `script` gives the service a terminal of its own, as `npm start` in a shell would have.
    const command = [process.execPath, ...SERVICE_ARGS].join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: {
        ...process.env,
        NODE_ENV: "development",
        DEMO_DATA: "false",
        LOG_LEVEL: "debug",
        PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: database.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout!.on("data", () => {
          const match = plain(output).match(/listening[^\n]*\n(?:[^\n]*\n)*?\s*port: (\d+)/);
          if (match) resolve(Number(match[1]));
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "tty-1" },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      await expect.poll(() => output).toContain("[tty-1]");
      expect(output).toContain(ESC);
      expect(output).not.toContain('"level"');
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
  });

  it("are JSON lines when the output is not a terminal, even in development", async () => {
    const service = await startService({ NODE_ENV: "development", DEMO_DATA: "false", DATABASE_URL: database.url });
    await service.stop();
    const lines = service.output().trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty("level");
    expect(service.output()).not.toContain(ESC);
  });
});
