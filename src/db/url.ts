import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export type Provider = "sqlite" | "postgresql";

export const databaseProvider = (url: string): Provider => (url.startsWith("file:") ? "sqlite" : "postgresql");

/** The file behind a `file:` URL (relative paths are relative to the working directory), its folder created. */
export function sqliteFile(url: string): string {
  const file = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  return file;
}
