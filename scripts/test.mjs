#!/usr/bin/env node
// `npm test`: every check the project has, stopping at the first step that fails (ARCHITECTURE section 6).
//
//   typecheck + lint + unit -> integration + build -> e2e
//
// Stages joined by + run at the same time: on two cores one of them mostly waits (on PostgreSQL, on the disk, or
// single-threaded) while another computes. Their output is kept in .test-data/results/<stage>.log and printed whole as each ends,
// so it never interleaves. The summary gives each stage's time and the ten slowest test files.
//
// The last line printed is the plain count CI reads: `tests: N passed, M failed` (`, K skipped` when any). A stage
// that fails without a failing test (type errors, lint, the build) counts as one failure there.
//
// Options: --skip=build,e2e (comma-separated stage names) to leave stages out while working locally; the e2e stage
// then uses the build already in .next.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
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

const stages = {
  typecheck: { command: bin("tsc"), args: ["--noEmit"] },
  lint: { command: bin("eslint"), args: ["--max-warnings", "0", "."] },
  // There may be no unit test files yet; integration and e2e always have some.
  unit: vitest("unit", ["--passWithNoTests"]),
  integration: vitest("integration"),
  // Always a fresh production build: the e2e journeys run against it.
  build: { command: bin("next"), args: ["build"] },
  e2e: vitest("e2e"),
};

/** The steps in order; the stages of one step run at the same time. */
const steps = [["typecheck", "lint", "unit"], ["integration", "build"], ["e2e"]];

// No colour codes in logs (vitest prints them otherwise), and no telemetry calls to a network we do not have.
const env = { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" };
delete env.FORCE_COLOR;

/** Runs a stage; its output goes to the terminal, or to `logFile` when it shares its step with another. */
function run(command, args, logFile) {
  return new Promise((resolve) => {
    const log = logFile ? openSync(logFile, "w") : undefined;
    const child = spawn(command, args, { cwd: root, env, stdio: log === undefined ? "inherit" : ["ignore", log, log] });
    const done = (code) => {
      if (log !== undefined) closeSync(log);
      resolve(code);
    };
    child.once("error", (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      done(127);
    });
    child.once("exit", (code, signal) => done(code ?? (signal ? 128 : 1)));
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
      // Every file's time, for the slowest ten in the summary.
      fileTimes: (report.testResults ?? []).map((result) => ({ file: path.relative(root, result.name), ms: (result.endTime ?? 0) - (result.startTime ?? 0) })),
    };
  } catch {
    return undefined;
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
const files = [];
let exitCode = 0;
const started = Date.now();

mkdirSync(resultsDir, { recursive: true });

/** Runs one stage and records its line; answers its exit code. */
async function runStage(name, shared) {
  const stage = stages[name];
  if (stage.results) rmSync(stage.results, { force: true });
  const logFile = shared ? path.join(resultsDir, `${name}.log`) : undefined;
  console.log(`\n==> ${name}: ${path.relative(root, stage.command)} ${stage.args.join(" ")}${logFile ? ` (output in ${path.relative(root, logFile)} until it ends)` : ""}\n`);
  const t0 = Date.now();
  const code = await run(stage.command, stage.args, logFile);
  const took = Date.now() - t0;
  if (logFile) {
    console.log(`\n--- ${name} output ---`);
    process.stdout.write(readFileSync(logFile, "utf8"));
  }

  const counts = readCounts(stage.results);
  let failed = 0;
  if (counts) {
    totals.passed += counts.passed;
    totals.skipped += counts.skipped;
    failed = counts.failed;
    files.push(...counts.fileTimes.map((time) => ({ stage: name, ...time })));
  }
  // A failing stage always shows at least one failure in the count.
  if (code !== 0 && failed === 0) failed = Math.max(1, counts?.failedFiles ?? 0);
  totals.failed += failed;

  const detail = counts
    ? `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""}`
    : "";
  const status = code === 0 ? "ok" : `FAILED (exit ${code})`;
  const line = `${name.padEnd(12)} ${status.padEnd(16)} ${seconds(took).padStart(8)}${detail ? `   ${detail}` : ""}`;
  lines.push(line);
  console.log(`\n<== ${line}`);
  return code;
}

for (const [index, step] of steps.entries()) {
  const names = step.filter((name) => !skip.has(name));
  for (const name of step.filter((name) => skip.has(name))) lines.push(`${name.padEnd(12)} skipped (--skip)`);
  const codes = await Promise.all(names.map((name) => runStage(name, names.length > 1)));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) {
    exitCode = failed;
    for (const later of steps.slice(index + 1).flat()) lines.push(`${later.padEnd(12)} not run (an earlier stage failed)`);
    break;
  }
}

console.log(`\n--- summary (${seconds(Date.now() - started)}) ---`);
for (const line of lines) console.log(line);
if (files.length > 0) {
  console.log("slowest test files:");
  for (const slow of files.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
    console.log(`  ${seconds(slow.ms).padStart(8)}  ${slow.stage.padEnd(12)} ${slow.file}`);
  }
}
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exitCode = exitCode;
