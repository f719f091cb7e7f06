import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { logbook } from "@/server/db/schema";
import { logChange, type LogChange } from "@/server/logbook/service";

/**
 * A logbook entry about the marketplace (event EBAY_API): an import, an upload, a bulk run. Staff filter the logbook
 * on that event to see everything the shop and eBay said to each other.
 */
export function logMarketplaceEvent(tx: Db, change: Omit<LogChange, "eventType">): Promise<number> {
  return logChange(tx, { ...change, eventType: "EBAY_API" });
}

/** An entry about one marketplace offer (entity MARKETPLACE_OFFER, the product's id). */
export function logOfferChange(tx: Db, productId: number, change: Omit<LogChange, "eventType" | "entityType" | "entityId">): Promise<number> {
  return logMarketplaceEvent(tx, { ...change, entityType: "MARKETPLACE_OFFER", entityId: productId });
}

/** Something the marketplace refused or the shop could not take from it, for staff to look at: the system's WARNING. */
export function logMarketplaceWarning(tx: Db, change: Omit<LogChange, "eventType" | "userId" | "logLevel">): Promise<number> {
  return logMarketplaceEvent(tx, { ...change, userId: null, logLevel: "WARNING" });
}

/**
 * Whether one of the marketplace's entries about an order has `key` at `value` in its new state. The logbook is how
 * the shop remembers what it already did for the order (a tracking number uploaded, staff told of a cancellation),
 * so that a retry or the next poll does not do it again.
 */
export async function hasMarketplaceOrderEntry(db: Db, orderId: number, key: string, value: string): Promise<boolean> {
  const [found] = await db
    .select({ id: logbook.id })
    .from(logbook)
    .where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(orderId)), eq(logbook.eventType, "EBAY_API"), sql`${logbook.newState}->>${key} = ${value}`))
    .limit(1);
  return found !== undefined;
}
