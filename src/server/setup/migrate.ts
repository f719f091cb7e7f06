import "server-only";
import type { Database } from "@/server/db/client";
import { migrateSchema } from "@/server/db/migrate";
import { installJobQueue } from "@/server/jobs/boss";
import { logger } from "@/server/logger";
import { backfillCostLayers } from "@/server/margins/cost-layers-backfill";
import { backfillSalesRollups } from "@/server/orders/sales-rollup";

/**
 * Brings a database to this build: every committed migration it does not have yet, the cost layers of a ledger
 * written before they were recorded (`backfillCostLayers`, once, under the migrations' lock), then the job queue's own tables
 * (pg-boss keeps its schema in step itself, and `installJobQueue` moves a queue that pg-boss 10 kept). Queuing a job
 * needs them even where no worker runs, as in tests and scripts. Here, above both, because the queue sits on the
 * database and the database knows nothing of it. Last, the sales rollups of orders from before they existed, once
 * (`backfillSalesRollups`: from then on every change of an order writes its own share).
 */
export async function runMigrations(database: Database): Promise<void> {
  await migrateSchema(database, async (tx) => {
    // Once, for a ledger written before each piece's cost was recorded when it moved; a no-op ever after.
    const recorded = await backfillCostLayers(tx);
    if (recorded) logger.info(recorded, "recorded the cost layers of the existing stock ledger");
  });
  await installJobQueue(database);
  await backfillSalesRollups(database.db);
}
