import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DefinitionNode, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, parse, print, visit } from "graphql";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";

/**
 * The console's documents, the .graphql files under console/src, as the API takes them: each
 * operation, with the fragments it spreads, passes the default limits and the schema's validation,
 * and so reaches the point where it would run. A page whose document the limits refuse shows nothing.
 */

const SOURCES = join("console", "src");
const definitions: DefinitionNode[] = readdirSync(SOURCES, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".graphql"))
  .flatMap((file) => parse(readFileSync(join(SOURCES, file), "utf8")).definitions);
const fragments = new Map(
  definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
);
const operations = definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);

/** An operation as the console sends it: with the fragments it spreads, and those these spread. */
function sent(operation: OperationDefinitionNode): string {
  const spread = new Set<string>();
  const collect = (node: OperationDefinitionNode | FragmentDefinitionNode) =>
    visit(node, {
      FragmentSpread({ name }) {
        if (spread.has(name.value)) return;
        spread.add(name.value);
        collect(fragments.get(name.value)!);
      },
    });
  collect(operation);
  return [operation, ...[...spread].map((name) => fragments.get(name)!)].map(print).join("\n");
}

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

it.each(operations.map((operation) => [operation.name!.value, operation] as const))(
  "%s passes the API's limits and validation",
  async (_, operation) => {
    const response = await app.graphql(sent(operation));
    // Sent without a session or variables, it is turned away only where it would run.
    expect(response.errors?.length).toBeGreaterThan(0);
    for (const error of response.errors ?? []) {
      expect(error.extensions?.code === "UNAUTHENTICATED" || /^Variable "\$\w+" of required type/.test(error.message), error.message).toBe(
        true,
      );
    }
  },
);
