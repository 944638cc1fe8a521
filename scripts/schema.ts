// npm run schema:print writes schema.graphql from the code; npm run schema:check fails when it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { printedSchema } from "../src/graphql/schema.js";

const FILE = "schema.graphql";
const printed = `${printedSchema()}\n`;

if (process.argv[2] === "print") {
  writeFileSync(FILE, printed);
  console.log(`${FILE} written`);
} else {
  let current = "";
  try {
    current = readFileSync(FILE, "utf8");
  } catch {
    // A missing file is simply stale.
  }
  if (current !== printed) {
    console.error(`${FILE} is out of date with the code: run npm run schema:print`);
    process.exit(1);
  }
  console.log(`${FILE} is up to date`);
}
