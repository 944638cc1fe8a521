import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { printedSchema } from "../src/graphql/schema.js";

describe("schema.graphql", () => {
  it("is the schema the code builds (npm run schema:print)", () => {
    expect(readFileSync("schema.graphql", "utf8")).toBe(`${printedSchema()}\n`);
  });
});
