import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The documentation names files, headings and paths of this repository: a link to a page or a
 * heading that does not exist, or a path in backticks to a file that moved, fails here, each one
 * reported with its file and line.
 */

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
function markdownFiles(): string[] {
  const found = ["README.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found;
}

interface Page {
  file: string;
  /** The text outside fenced code blocks, those blocks' lines left empty so that offsets keep their lines. */
  prose: string;
  /** The lines of fenced code blocks, with their line numbers. */
  code: Array<{ line: number; text: string }>;
  /** Where each line of the file starts. */
  lineStarts: number[];
}

const readPage = (file: string): Page => parsePage(file, readFileSync(file, "utf8"));

function parsePage(file: string, markdown: string): Page {
  const lines = markdown.split("\n");
  const prose: string[] = [];
  const code: Page["code"] = [];
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      prose.push("");
    } else if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      else code.push({ line: i + 1, text: line });
      prose.push("");
    } else prose.push(line);
  });
  const lineStarts: number[] = [];
  let at = 0;
  for (const line of prose) {
    lineStarts.push(at);
    at += line.length + 1;
  }
  return { file, prose: prose.join("\n"), code, lineStarts };
}

/** The line (from 1) of an offset in the page's text. */
function lineOf(page: Page, offset: number): number {
  let low = 0;
  let high = page.lineStarts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (page.lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** Code spans (`…`), which may run over a line break, with their offsets. */
const CODE_SPAN = /`([^`]+)`/g;

/** The text with its code spans blanked out (line breaks kept), so that what they show is not read as a link. */
const withoutCodeSpans = (text: string) => text.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, " "));

/** The anchor GitHub gives a heading: lower-case, punctuation other than - and _ removed, spaces as -. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a page's headings, a repeated one numbered -1, -2, … as GitHub does. */
function anchorsOf(page: Page): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of page.prose.split("\n")) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    let anchor = base;
    while (anchors.has(anchor)) {
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      anchor = `${base}-${n}`;
    }
    anchors.add(anchor);
  }
  return anchors;
}

/** Inline links and images, `[text](target "title")`, and reference definitions, `[name]: target`. */
const LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm;

function linksOf(page: Page): Array<{ line: number; target: string }> {
  const text = withoutCodeSpans(page.prose);
  return [...text.matchAll(LINK), ...text.matchAll(DEFINITION)].map((match) => ({ line: lineOf(page, match.index), target: match[1]! }));
}

/** Folders the build writes and git ignores (`console/src/gql/`): named by the docs, absent until built. */
const GENERATED = readFileSync(".gitignore", "utf8")
  .split("\n")
  .map((line) => line.trim().replace(/^\//, ""))
  .filter((line) => line.endsWith("/") && !line.startsWith("#"));

/** A path of this repository as the docs write one: a file (with an extension) or a folder (ending in /). */
const REPO_PATH = /^(?:src|test|bench|scripts|console|share-page|prisma|docs)\/[^\s<>*{}…]*$/;
const looksLikePath = (text: string) => REPO_PATH.test(text) && (text.endsWith("/") || /\.[A-Za-z0-9]+$/.test(text));

/** Why `path` (from the repository's root) is not there, or null when it is. */
function missing(path: string): string | null {
  if (GENERATED.some((folder) => path.startsWith(folder))) return null;
  if (!existsSync(path)) return "does not exist";
  if (path.endsWith("/") && !statSync(path).isDirectory()) return "is not a folder";
  return null;
}

const pages = markdownFiles().map(readPage);
const anchors = new Map(pages.map((page) => [page.file, anchorsOf(page)]));
const anchorsIn = (file: string) => {
  if (!anchors.has(file)) anchors.set(file, anchorsOf(readPage(file)));
  return anchors.get(file)!;
};

describe("the documentation", () => {
  it("finds README.md and the pages under docs/", () => {
    expect(pages.map((page) => page.file)).toContain("README.md");
    expect(pages.length).toBeGreaterThan(1);
  });

  it("links only to files that exist, and to headings those files have", () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const { line, target } of linksOf(page)) {
        if (/^(?:https?|mailto):/i.test(target)) continue;
        const at = `${page.file}:${line}: ${target}`;
        const hash = target.indexOf("#");
        const path = decodeURI(hash === -1 ? target : target.slice(0, hash));
        const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
        const file = path === "" ? page.file : normalize(path.startsWith("/") ? path.slice(1) : join(dirname(page.file), path));
        if (relative(".", file).startsWith("..")) {
          broken.push(`${at}: points outside the repository`);
          continue;
        }
        const why = missing(file);
        if (why) broken.push(`${at}: ${file} ${why}`);
        else if (fragment !== null && file.endsWith(".md") && !anchorsIn(file).has(fragment)) {
          broken.push(`${at}: ${file} has no heading #${fragment}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("names in backticks only files and folders that exist", () => {
    const gone: string[] = [];
    for (const page of pages) {
      for (const match of page.prose.matchAll(CODE_SPAN)) {
        const path = match[1]!.trim();
        const why = looksLikePath(path) && missing(path);
        if (why) gone.push(`${page.file}:${lineOf(page, match.index)}: \`${path}\` ${why}`);
      }
      // In code blocks (a layout sketch, a command), each word that is such a path.
      for (const { line, text } of page.code) {
        for (const word of text.split(/\s+/)) {
          const why = looksLikePath(word) && missing(word);
          if (why) gone.push(`${page.file}:${line}: ${word} ${why}`);
        }
      }
    }
    expect(gone).toEqual([]);
  });
});

describe("GitHub's anchors", () => {
  it.each([
    ["Reads at the database's speed", "reads-at-the-databases-speed"],
    ["App load: users per process", "app-load-users-per-process"],
    ["Running on PostgreSQL (and several processes)", "running-on-postgresql-and-several-processes"],
    ["`LEGACY_AUTH` and the `.php` calls", "legacy_auth-and-the-php-calls"],
    ["Comisión y Señal", "comisión-y-señal"],
  ])("%s is #%s", (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });

  it("numbers a repeated heading", () => {
    const page = parsePage("example.md", "# Notes\n\n## Notes\n\n```\n# not a heading\n```\n\n### Notes\n");
    expect([...anchorsOf(page)]).toEqual(["notes", "notes-1", "notes-2"]);
  });
});
