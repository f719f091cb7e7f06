import "server-only";
import { defineScheduledJob } from "@/server/jobs/define";
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

export const stockJobs = [stockReconciliationJob];
