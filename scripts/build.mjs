#!/usr/bin/env node
// `npm run build`: the service compiled to JavaScript in build/, which `npm start` runs. tsx (the
// tests' and `npm run dev`'s loader) keeps every function's name by defining it on each closure it
// creates, which costs the request paths about a fifth of their time. build/ sits beside src/ so
// that paths the code finds relative to itself (the migrations, package.json) resolve the same.
// Then the admin console (console/), built into build/consola, which the service serves at /consola/,
// and the page trip share links open (share-page/), built into build/seguimiento.
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";

const bin = (name) => `node_modules/.bin/${name}`;
execFileSync(bin("tsc"), ["-p", "tsconfig.build.json"], { stdio: "inherit" });
// Data the code reads with require, which the compiler does not copy.
cpSync("src/domain/maps/data", "build/domain/maps/data", { recursive: true });

// The console's client is generated from schema.graphql and its documents, then type-checked, so a
// schema change that breaks a page fails here; Vite does not check types itself.
execFileSync(bin("graphql-codegen"), ["--config", "console/codegen.ts", "--silent"], { stdio: "inherit" });
execFileSync(bin("tsc"), ["--noEmit", "-p", "console"], { stdio: "inherit" });
execFileSync(bin("vite"), ["build", "console", "--logLevel", "warn"], { stdio: "inherit" });

// The page a trip's share link opens (share-page/), built into build/seguimiento.
execFileSync(bin("tsc"), ["--noEmit", "-p", "share-page"], { stdio: "inherit" });
execFileSync(bin("vite"), ["build", "share-page", "--logLevel", "warn"], { stdio: "inherit" });
