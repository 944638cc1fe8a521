// The Node the project runs on: .nvmrc names the version, package.json's engines the range (`^x.y.z`).
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The version .nvmrc names, and the range engines.node declares, of the project at `root`. */
export function declaredNode(root = process.cwd()) {
  return {
    wanted: readFileSync(join(root, ".nvmrc"), "utf8").trim().replace(/^v/, ""),
    range: JSON.parse(readFileSync(join(root, "package.json"), "utf8")).engines.node,
  };
}

/** Whether `version` (x.y.z) fits a range written `^x.y.z`: the same major, and not older. */
export function fits(version, caret) {
  const [major, ...rest] = version.replace(/^v/, "").split(".").map(Number);
  const [lowMajor, ...lowRest] = caret.replace(/^\^/, "").split(".").map(Number);
  if (major !== lowMajor) return false;
  for (let i = 0; i < 2; i++) if (rest[i] !== lowRest[i]) return rest[i] > lowRest[i];
  return true;
}
