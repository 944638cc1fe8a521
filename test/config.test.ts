import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

describe("configuration", () => {
  it("has defaults that run the embedded mode", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 4000, DATABASE_URL: "file:./data/app.db", NODE_ENV: "development", DEMO_DATA: true });
    expect(config.REDIS_URL).toBeUndefined();
  });

  it("turns demo data off outside development unless asked", () => {
    expect(loadConfig({ NODE_ENV: "production" }).DEMO_DATA).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", DEMO_DATA: "1" }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DEMO_DATA: "false" }).DEMO_DATA).toBe(false);
  });

  it("treats empty values as unset", () => {
    const config = loadConfig({ PORT: "", REDIS_URL: "" });
    expect(config.PORT).toBe(4000);
    expect(config.REDIS_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: "abc" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
    [{ REDIS_URL: "http://x" }, /REDIS_URL/],
    [{ ADMIN_EMAIL: "a@b.co" }, /ADMIN_EMAIL and ADMIN_PASSWORD/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
  ])("refuses %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
