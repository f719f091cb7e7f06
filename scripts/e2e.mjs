#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end journeys against the production build. Builds first when there is no build in
// .next (or when --build is given); extra arguments go to vitest, e.g. `npm run test:e2e -- tests/e2e/smoke.e2e.ts`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const args = process.argv.slice(2);
const forceBuild = args.includes("--build");
const vitestArgs = args.filter((arg) => arg !== "--build");

function run(command, commandArgs) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, env, stdio: "inherit" });
    child.once("error", (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

if (forceBuild || !existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log(forceBuild ? "Building (--build)..." : "No production build in .next: building first...");
  const code = await run(bin("next"), ["build"]);
  if (code !== 0) process.exit(code);
}

process.exitCode = await run(bin("vitest"), ["run", "--project", "e2e", ...vitestArgs]);
