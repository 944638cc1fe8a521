#!/usr/bin/env node
// Run by `npm ci` / `npm install` (postinstall): gives the project the Node it runs on.
//
// The project runs on the Node named in .nvmrc, within the range `engines.node` declares. When the
// Node running npm already fits that range, nothing is done: it runs the project. Otherwise the
// Node of .nvmrc is fetched from the npm registry (the `node-<platform>-<arch>` package, the
// official binary; npm checks its integrity) into node_modules/.node-runtime, and linked as
// node_modules/.bin/node, which npm puts first on PATH for every `npm start`, `npm test` and
// `npm run …`. The native addons (better-sqlite3, bcrypt) are Node-API builds shipped inside their
// packages, so they load on it as they are.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { declaredNode, fits } from "./node-version.mjs";

const root = process.cwd();
const { wanted, range } = declaredNode(root);

const running = process.versions.node;
// npm ci --dry-run runs this too: it changes nothing.
if (process.env.npm_config_dry_run === "true") process.exit(0);
if (fits(running, range)) {
  console.log(`Node ${running} fits ${range}: the project runs on it`);
  process.exit(0);
}

// The registry's Linux builds need glibc: a musl system (Alpine) installs Node 24 from its own packages.
const glibc = process.platform !== "linux" || Boolean(process.report.getReport().header.glibcVersionRuntime);
const platform = { linux: "linux", darwin: "darwin" }[process.platform];
const arch = { x64: "x64", arm64: "arm64" }[process.arch];
if (!platform || !arch || !glibc) {
  console.error(
    `This machine's Node is ${running} and the project needs ${range}: install Node ${wanted} (see .nvmrc) and run npm ci again`,
  );
  process.exit(1);
}

const runtime = join(root, "node_modules", ".node-runtime");
const bin = join(runtime, "package", "bin", "node");
rmSync(runtime, { recursive: true, force: true });
mkdirSync(runtime, { recursive: true });
// npm itself, as the running npm was started: it fetches the package from the configured registry.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const [packed] = JSON.parse(
  execFileSync(npm[0], [...npm.slice(1), "pack", `node-${platform}-${arch}@${wanted}`, "--pack-destination", runtime, "--json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }),
);
execFileSync("tar", ["-xzf", join(runtime, packed.filename), "-C", runtime], { stdio: "inherit" });
rmSync(join(runtime, packed.filename));
const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
if (version !== `v${wanted}`) throw new Error(`node-${platform}-${arch}@${wanted} runs as ${version}`);

const link = join(root, "node_modules", ".bin", "node");
mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
if (existsSync(link)) rmSync(link);
symlinkSync(relative(join(root, "node_modules", ".bin"), bin), link);
console.log(`This machine's Node is ${running}; the project runs on Node ${wanted} from the registry (${relative(root, link)})`);
