#!/usr/bin/env node
// `npm test`: every check the project has (ARCHITECTURE section 6).
//
//   typecheck ─┬─> build ──> e2e
//   lint ──────┤
//   unit ──────┴─> integration
//
// A stage starts as soon as the stages it waits for have passed, so that stages run side by side: on two cores the
// integration tests leave most of a core idle (they wait on PostgreSQL) while the build or the journeys compute. The
// first stage to fail stops every stage that has not started yet. The output of each stage is kept in
// .test-data/results/<stage>.log and printed whole as it ends, so it never interleaves. The summary gives each
// stage's time and the ten slowest test files.
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
  commands: [
    [
      bin("vitest"),
      [
        "run",
        "--project",
        project,
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${path.join(resultsDir, `${project}.json`)}`,
        ...extra,
      ],
    ],
  ],
  results: path.join(resultsDir, `${project}.json`),
  after: [],
});

/** Each stage: what it runs (one command after the other) and the stages it waits for. */
const stages = {
  // Next writes the types of the routes, pages and layouts first, so that tsc checks them as `next build` would.
  typecheck: { commands: [[bin("next"), ["typegen"]], [bin("tsc"), ["--noEmit"]]], after: [] },
  // After eslint, the map of domains: .dependency-cruiser.cjs names the rule an import breaks and why it exists.
  lint: { commands: [[bin("eslint"), ["--max-warnings", "0", "."]], [bin("depcruise"), ["src", "--output-type", "err-long"]]], after: [] },
  // There may be no unit test files yet; integration and e2e always have some.
  unit: vitest("unit", ["--passWithNoTests"]),
  integration: { ...vitest("integration"), after: ["typecheck", "lint", "unit"] },
  // Always a fresh production build: the e2e journeys run against it. It leaves out its own TypeScript pass when the
  // typecheck stage, which it waits for, has just made the same one (next.config.ts).
  build: { commands: [[bin("next"), ["build"]]], after: ["typecheck"] },
  e2e: { ...vitest("e2e"), after: ["build"] },
};
const order = Object.keys(stages);

// No colour codes in logs (vitest prints them otherwise), and no telemetry calls to a network we do not have.
const env = { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" };
delete env.FORCE_COLOR;
if (!skip.has("typecheck")) env.SHOP_TYPES_CHECKED = "1";

/** Runs a stage's commands one after the other, up to the first that fails; answers the last exit code. Output goes
 * to the terminal, or to `logFile` when other stages may run at the same time. */
async function run(commands, logFile) {
  const log = logFile ? openSync(logFile, "w") : undefined;
  try {
    for (const [command, args] of commands) {
      const code = await new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, env, stdio: log === undefined ? "inherit" : ["ignore", log, log] });
        child.once("error", (error) => {
          console.error(`could not start ${command}: ${error.message}`);
          resolve(127);
        });
        child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
      });
      if (code !== 0) return code;
    }
    return 0;
  } finally {
    if (log !== undefined) closeSync(log);
  }
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
/** The summary line of each stage, printed in the order of `stages`. */
const lines = new Map();
const files = [];
let exitCode = 0;
const started = Date.now();
const chosen = order.filter((name) => !skip.has(name));
for (const name of order.filter((name) => skip.has(name))) lines.set(name, `${name.padEnd(12)} skipped (--skip)`);

mkdirSync(resultsDir, { recursive: true });

/** Runs one stage and records its line; answers its exit code. */
async function runStage(name, shared) {
  const stage = stages[name];
  if (stage.results) rmSync(stage.results, { force: true });
  const logFile = shared ? path.join(resultsDir, `${name}.log`) : undefined;
  const shown = stage.commands.map(([command, args]) => `${path.relative(root, command)} ${args.join(" ")}`).join(" && ");
  console.log(`\n==> ${name}: ${shown}${logFile ? ` (output in ${path.relative(root, logFile)} until it ends)` : ""}\n`);
  const t0 = Date.now();
  const code = await run(stage.commands, logFile);
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
  const startedAt = `from ${seconds(t0 - started)}`;
  const line = `${name.padEnd(12)} ${status.padEnd(16)} ${seconds(took).padStart(8)}  ${startedAt.padEnd(12)}${detail ? `  ${detail}` : ""}`;
  lines.set(name, line);
  console.log(`\n<== ${line}`);
  return code;
}

/** Each stage's run, started once: it waits for the stages it depends on, then runs unless one of them, or any
 * other stage, has failed by then. */
const runs = new Map();
function stageRun(name) {
  if (!runs.has(name)) {
    runs.set(
      name,
      (async () => {
        const codes = await Promise.all(stages[name].after.filter((before) => chosen.includes(before)).map(stageRun));
        if (exitCode !== 0 || codes.some((code) => code !== 0)) {
          lines.set(name, `${name.padEnd(12)} not run (an earlier stage failed)`);
          return undefined;
        }
        const code = await runStage(name, chosen.length > 1);
        if (code !== 0 && exitCode === 0) exitCode = code;
        return code;
      })(),
    );
  }
  return runs.get(name);
}
await Promise.all(chosen.map(stageRun));

console.log(`\n--- summary (${seconds(Date.now() - started)}) ---`);
for (const name of order) if (lines.has(name)) console.log(lines.get(name));
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
