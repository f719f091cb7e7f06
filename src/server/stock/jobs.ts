import "server-only";
import { defineScheduledJob } from "@/server/jobs/define";
import { foldHoldingChanges } from "./holdings";
import { DRIFTS_LOGGED_ONE_BY_ONE, reconcileStock } from "./reconciliation";

/**
 * Checks the stock ledger every night at 02:00 UTC (three or four in the morning in the shop's time zone, when it
 * is quiet); the server also queues one check when it starts. Drift is logged; a failed check is tried again.
 */
export const stockReconciliationJob = defineScheduledJob({
  name: "stock-reconciliation",
  schedule: "0 2 * * *",
  retry: { limit: 2, delaySeconds: 600 },
  expireInSeconds: 1800,
  async run({ db, log }) {
    const drift = await reconcileStock(db);
    if (drift === null) return;
    if (drift.length > 0) {
      log.error({ event: "STOCK_CHANGE", drift: drift.slice(0, DRIFTS_LOGGED_ONE_BY_ONE) }, `${drift.length} product(s) have stock that differs from their ledger or their cost lots`);
    } else {
      log.info({ event: "STOCK_CHANGE" }, "stock ledger check: every product's stock matches its ledger and its cost lots");
    }
  },
});

/**
 * Every minute, adds the changes to what the lots hold per category and box into the holdings (holdings.ts), so that
 * the reports add up a few hundred rows and a minute's changes. Missed runs only leave more changes to add.
 */
export const stockHoldingFoldJob = defineScheduledJob({
  name: "stock-holding-fold",
  schedule: "* * * * *",
  retry: { limit: 2, delaySeconds: 30 },
  expireInSeconds: 300,
  async run({ db, log }) {
    const { changes } = await foldHoldingChanges(db);
    if (changes > 0) log.debug({ event: "STOCK_CHANGE", changes }, "folded changes into the stock holdings");
  },
});

export const stockJobs = [stockReconciliationJob, stockHoldingFoldJob];
