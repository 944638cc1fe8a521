#!/usr/bin/env node
// `npm run build`: the service compiled to JavaScript in build/, which `npm start` runs. tsx (the
// tests' and `npm run dev`'s loader) keeps every function's name by defining it on each closure it
// creates, which costs the request paths about a fifth of their time. build/ sits beside src/ so
// that paths the code finds relative to itself (the migrations, package.json) resolve the same.
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
// Data the code reads with require, which the compiler does not copy.
cpSync("src/domain/maps/data", "build/domain/maps/data", { recursive: true });
