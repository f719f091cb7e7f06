import "server-only";
import type { Decimal } from "decimal.js";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, orderDetail, paymentDetail } from "@/server/db/schema";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineJob } from "@/server/jobs/define";
import { logOrderChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import { recordSalesShare } from "@/server/orders/sales-rollup";

/*
 * eBay's fees on an imported order (the final value fee and the others, from the Finances API's transactions of the
 * order, a signed call) recorded as the order's provider fees, where the margin of the order and the owner's sales
 * figures read them: the payment's `providerFees`, as a web payment's fees are. eBay books the sale's transaction a
 * little after the payment, so the job runs a while after the import and is tried again until it is there.
 */

/** How long after the import the fees are first asked for. */
export const ORDER_FEES_FIRST_DELAY_SECONDS = 120;

export type MarketplaceFeesOutcome =
  | { result: "recorded"; fees: Decimal }
  | { result: "unchanged"; fees: Decimal }
  /** eBay lists no sale transaction for the order yet. */
  | { result: "not yet" }
  /** Not an order imported from the marketplace (or gone). */
  | { result: "not a marketplace order" };

/**
 * Reads the marketplace's fees of one imported order and records them as its provider fees, in one transaction with
 * the logbook entry and the order's share of the sales rollups. The same fees again change nothing.
 */
export async function recordMarketplaceFees(db: Db, port: MarketplacePort, orderId: number): Promise<MarketplaceFeesOutcome> {
  const [found] = await db
    .select({ marketplaceOrderId: orderDetail.marketplaceOrderId })
    .from(orderDetail)
    .where(and(eq(orderDetail.orderId, orderId), eq(orderDetail.shop, "EBAY")));
  if (!found?.marketplaceOrderId) return { result: "not a marketplace order" };
  const marketplaceOrderId = found.marketplaceOrderId;
  const fees = await port.getOrderFees(marketplaceOrderId);
  if (!fees) return { result: "not yet" };

  return db.transaction(async (tx) => {
    const [payment] = await tx
      .select({ id: paymentDetail.id, providerFees: paymentDetail.providerFees, orderNumber: order.orderNumber })
      .from(paymentDetail)
      .innerJoin(order, eq(order.id, paymentDetail.orderId))
      .where(eq(paymentDetail.orderId, orderId))
      .for("update", { of: paymentDetail });
    if (!payment) return { result: "not a marketplace order" } as const;
    if (payment.providerFees?.equals(fees.total)) return { result: "unchanged", fees: fees.total } as const;
    await tx.update(paymentDetail).set({ providerFees: fees.total, updatedAt: new Date() }).where(eq(paymentDetail.id, payment.id));
    const byType = Object.fromEntries(Object.entries(fees.byType).map(([type, amount]) => [type, amount.toFixed(2)]));
    const breakdown = Object.entries(byType).map(([type, amount]) => `${type.toLowerCase().replace(/_/g, " ")} ${amount}`).join(", ");
    await logOrderChange(tx, orderId, {
      userId: null,
      previousState: { providerFees: payment.providerFees?.toFixed(2) ?? null },
      newState: { providerFees: fees.total.toFixed(2), marketplaceFees: byType, marketplaceOrderId },
      description: `eBay's fees on order ${payment.orderNumber} (eBay ${marketplaceOrderId}): ${formatEuro(fees.total)}${breakdown ? ` (${breakdown})` : ""}`,
    });
    await recordSalesShare(tx, orderId);
    return { result: "recorded", fees: fees.total } as const;
  });
}

const feesRetry = { limit: 8, delaySeconds: 300, backoff: true };

/**
 * `marketplace-order-fees`: the fees of an order imported from the marketplace. While eBay has no transaction for it
 * the job fails and is tried again (5 minutes, doubling: about a day in all); after the last try staff are told,
 * since the order's margin then lacks eBay's fees.
 */
export const orderFeesJob = defineJob({
  name: "marketplace-order-fees",
  schema: z.object({ orderId: z.number().int().positive() }),
  retry: feesRetry,
  expireInSeconds: 120,
  async run({ orderId }, { db, attempt }) {
    const outcome = await recordMarketplaceFees(db, getMarketplace(), orderId);
    if (outcome.result !== "not yet") return;
    if (attempt > feesRetry.limit) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select({ orderNumber: order.orderNumber }).from(order).where(eq(order.id, orderId));
        await notifyStaff(tx, {
          type: "EBAY_ORDER",
          severity: "WARNING",
          message: `eBay lists no fees for order ${row?.orderNumber ?? orderId} a day after its sale: its margin lacks eBay's fees; check the order in eBay's payments.`,
        });
      });
      return;
    }
    throw new Error(`eBay lists no sale transaction for order ${orderId} yet; asked again later`);
  },
});
