#!/usr/bin/env node
// `npm test`: every check the project has, in order, stopping at the first failure (ARCHITECTURE section 6).
//
//   typecheck -> lint -> unit -> integration -> build -> e2e
//
// The last line printed is the plain count CI reads: `tests: N passed, M failed` (`, K skipped` when any). A stage
// that fails without a failing test (type errors, lint, the build) counts as one failure there.
//
// Options: --skip=build,e2e (comma-separated stage names) to leave stages out while working locally; the e2e stage
// then uses the build already in .next.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.join(root, ".test-data", "results");

const skip = new Set(
  process.argv
    .filter((arg) => arg.startsWith("--skip="))
    .flatMap((arg) => arg.slice("--skip=".length).split(","))
    .map((name) => name.trim())
    .filter(Boolean),
);

const vitest = (project, extra = []) => ({
  command: bin("vitest"),
  args: [
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${path.join(resultsDir, `${project}.json`)}`,
    ...extra,
  ],
  results: path.join(resultsDir, `${project}.json`),
});

const stages = [
  { name: "typecheck", command: bin("tsc"), args: ["--noEmit"] },
  { name: "lint", command: bin("eslint"), args: ["--max-warnings", "0", "."] },
  // There may be no unit test files yet; integration and e2e always have some.
  { name: "unit", ...vitest("unit", ["--passWithNoTests"]) },
  { name: "integration", ...vitest("integration") },
  // Always a fresh production build: the e2e journeys run against it.
  { name: "build", command: bin("next"), args: ["build"] },
  { name: "e2e", ...vitest("e2e") },
];

// No colour codes in logs (vitest prints them otherwise), and no telemetry calls to a network we do not have.
const env = { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" };
delete env.FORCE_COLOR;

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.once("error", (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function readCounts(file) {
  if (!file || !existsSync(file)) return undefined;
  try {
    const report = JSON.parse(readFileSync(file, "utf8"));
    return {
      passed: report.numPassedTests ?? 0,
      failed: report.numFailedTests ?? 0,
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
      // Files that failed to load (a syntax error, a failing globalSetup) run no test but fail the stage.
      failedFiles: (report.testResults ?? []).filter((file) => file.status === "failed").length,
    };
  } catch {
    return undefined;
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
let exitCode = 0;
const started = Date.now();

mkdirSync(resultsDir, { recursive: true });

for (const stage of stages) {
  if (skip.has(stage.name)) {
    lines.push(`${stage.name.padEnd(12)} skipped (--skip)`);
    continue;
  }
  if (stage.results) rmSync(stage.results, { force: true });
  console.log(`\n==> ${stage.name}: ${path.relative(root, stage.command)} ${stage.args.join(" ")}\n`);
  const t0 = Date.now();
  const code = await run(stage.command, stage.args);
  const took = Date.now() - t0;

  const counts = readCounts(stage.results);
  let failed = 0;
  if (counts) {
    totals.passed += counts.passed;
    totals.skipped += counts.skipped;
    failed = counts.failed;
  }
  // A failing stage always shows at least one failure in the count.
  if (code !== 0 && failed === 0) failed = Math.max(1, counts?.failedFiles ?? 0);
  totals.failed += failed;

  const detail = counts
    ? `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""}`
    : "";
  const status = code === 0 ? "ok" : `FAILED (exit ${code})`;
  const line = `${stage.name.padEnd(12)} ${status.padEnd(16)} ${seconds(took).padStart(8)}${detail ? `   ${detail}` : ""}`;
  lines.push(line);
  console.log(`\n<== ${line}`);

  if (code !== 0) {
    exitCode = code;
    for (const later of stages.slice(stages.indexOf(stage) + 1)) {
      lines.push(`${later.name.padEnd(12)} not run (an earlier stage failed)`);
    }
    break;
  }
}

console.log(`\n--- summary (${seconds(Date.now() - started)}) ---`);
for (const line of lines) console.log(line);
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exitCode = exitCode;
