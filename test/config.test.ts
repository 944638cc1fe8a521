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

  it("keeps the legacy id contract by default and opens introspection only outside production", () => {
    expect(loadConfig({})).toMatchObject({ LEGACY_AUTH: "ids", GRAPHQL_INTROSPECTION: true, CORS_ORIGINS: [], TOKEN_TTL_S: 7 * 24 * 3600 });
    expect(loadConfig({ NODE_ENV: "production" }).GRAPHQL_INTROSPECTION).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", GRAPHQL_INTROSPECTION: "true" }).GRAPHQL_INTROSPECTION).toBe(true);
    expect(loadConfig({ LEGACY_AUTH: "token" }).LEGACY_AUTH).toBe("token");
  });

  it("reads the allowed browser origins as a list of origins", () => {
    expect(loadConfig({ CORS_ORIGINS: "https://admin.example.co, http://localhost:5173/" }).CORS_ORIGINS).toEqual([
      "https://admin.example.co",
      "http://localhost:5173",
    ]);
  });

  it.each([
    [{ LEGACY_AUTH: "none" }, /LEGACY_AUTH/],
    [{ CORS_ORIGINS: "*" }, /CORS_ORIGINS/],
    [{ URL_SIGNING_SECRET: "corta" }, /URL_SIGNING_SECRET/],
    [{ TOKEN_TTL_S: "0" }, /TOKEN_TTL_S/],
    [{ PORT: "abc" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
    [{ REDIS_URL: "http://x" }, /REDIS_URL/],
    [{ ADMIN_EMAIL: "a@b.co" }, /ADMIN_EMAIL and ADMIN_PASSWORD/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
  ])("refuses %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
