// `npm run bench:faults`: the shop under the faults the reliability review injected (RELIABILITY-REVIEW.md), each a
// scenario in bench/faults/ that starts what it needs (the production build, a PostgreSQL or Redis of its own),
// injects the fault, measures what a user or a load balancer would meet, and says PASS or FAIL with its figures.
// Exits non-zero when any scenario fails. Needs the production build (`npx next build`); traffic goes to 127.0.0.1
// only, bounded in count and time.
//
//   npm run bench:faults [-- --only mail-send-window|frozen-database|database-outage|redis-snapshot]
import { option } from "./shop-server";
import type { FaultScenario } from "./faults/scenario";
import { databaseOutage } from "./faults/database-outage";
import { frozenDatabase } from "./faults/frozen-database";
import { mailSendWindow } from "./faults/mail-send-window";
import { redisSnapshot } from "./faults/redis-snapshot";

const scenarios: FaultScenario[] = [mailSendWindow, frozenDatabase, databaseOutage, redisSnapshot];

const only = option("only", "");
const chosen = only ? scenarios.filter((scenario) => scenario.name === only) : scenarios;
if (chosen.length === 0) {
  console.error(`No scenario named "${only}"; there are: ${scenarios.map((scenario) => scenario.name).join(", ")}`);
  process.exit(2);
}

const results: { name: string; pass: boolean }[] = [];
for (const scenario of chosen) {
  console.log(`\n== ${scenario.name}: ${scenario.description}`);
  const started = performance.now();
  let pass = false;
  try {
    const outcome = await scenario.run();
    pass = outcome.pass;
    for (const [figure, value] of Object.entries(outcome.figures)) console.log(`   ${figure.padEnd(44)} ${value}`);
  } catch (error) {
    console.error(`   the scenario could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  console.log(`   ${pass ? "PASS" : "FAIL"} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  results.push({ name: scenario.name, pass });
}

console.log("\n--- faults ---");
for (const { name, pass } of results) console.log(`${pass ? "PASS" : "FAIL"}  ${name}`);
process.exitCode = results.every((result) => result.pass) ? 0 : 1;
