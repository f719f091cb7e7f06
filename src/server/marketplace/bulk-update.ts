import "server-only";
import { and, count, eq, lte } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { configParams, product } from "@/server/db/schema";
import type { BulkOfferProgress } from "./schemas";

/**
 * How far the bulk marketplace offer update has come. The update walks the marketplace products in id order and
 * keeps the last id it finished in `BULK_UPDATE_EBAY_OFFERS_CURRENT_ID` (0 when no update runs), so progress is
 * that id's place among them, readable by any app instance. No estimate of the time left yet: a run's start is not
 * recorded anywhere until the marketplace job records it.
 */
export async function getBulkOfferProgress(db: Db): Promise<BulkOfferProgress> {
  const [param] = await db
    .select({ value: configParams.value })
    .from(configParams)
    .where(eq(configParams.param, "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID"));
  const currentId = Number(param?.value ?? 0);
  if (!param || !Number.isInteger(currentId) || currentId <= 0) return { progress: null };

  const onMarketplace = eq(product.ebayStatus, "ONLINE");
  const [[total], [done]] = await Promise.all([
    db.select({ value: count() }).from(product).where(onMarketplace),
    db.select({ value: count() }).from(product).where(and(onMarketplace, lte(product.id, currentId))),
  ]);
  const totalCount = total?.value ?? 0;
  const currentCount = Math.min(done?.value ?? 0, totalCount);
  if (totalCount === 0 || currentCount >= totalCount) return { progress: null };
  return {
    progress: {
      currentPercent: String(Math.floor((currentCount / totalCount) * 100)),
      estimatedTimeToCompletion: null,
      currentCount,
      totalCount,
    },
  };
}
