import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Carrier } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { rowId } from "@/lib/id";
import type { Db } from "@/server/db/client";
import { order, orderDetail } from "@/server/db/schema";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { logOrderChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import { readOrderLines } from "@/server/orders/order-rows";
import { hasMarketplaceOrderEntry, logMarketplaceEvent, logMarketplaceWarning } from "./logbook";

/** eBay's shipping carrier codes for the shop's carriers. */
const carrierCodes: Record<Carrier, string> = { POSTNL: "PostNL", UPS: "UPS" };

const uploadRetry = { limit: 6, delaySeconds: 30, backoff: true };

/**
 * Called in the transaction that marks an order shipped: for an order imported from the marketplace, queues the
 * upload of its tracking number, which exists only if the shipment commits. Other orders are left alone.
 */
export async function requestShipmentUpload(tx: Db, orderId: number): Promise<void> {
  const [detail] = await tx.select({ shop: orderDetail.shop, marketplaceOrderId: orderDetail.marketplaceOrderId }).from(orderDetail).where(eq(orderDetail.orderId, orderId));
  if (detail?.shop !== "EBAY" || !detail.marketplaceOrderId) return;
  await enqueueJob(tx, shipmentUploadJob, { orderId }, { singletonKey: String(orderId) });
}

export type ShipmentUpload = { result: "uploaded" | "already uploaded" | "not a marketplace order" | "refused"; error?: string };

/**
 * Reports a shipped marketplace order's parcel: its tracking number (letters and digits only), carrier and the
 * marketplace's lines with the pieces that went (oversold pieces did not). Once per tracking number. A refusal that
 * trying again cannot mend is recorded and answered "refused"; one that may pass later is thrown for the queue.
 */
export async function uploadShipment(db: Db, port: MarketplacePort, orderId: number, now: Date = new Date()): Promise<ShipmentUpload> {
  const [row] = await db
    .select({
      orderNumber: order.orderNumber,
      marketplaceOrderId: orderDetail.marketplaceOrderId,
      trackingNumber: orderDetail.trackingNumber,
      carrier: orderDetail.carrier,
      shippedAt: orderDetail.shippedAt,
    })
    .from(order)
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(eq(order.id, orderId));
  if (!row?.marketplaceOrderId) return { result: "not a marketplace order" };
  const { orderNumber, marketplaceOrderId } = row;
  const trackingNumber = row.trackingNumber?.replace(/[^A-Za-z0-9]/g, "") ?? "";
  if (!trackingNumber || !row.carrier) {
    const error = `Order ${orderNumber} has no tracking number or carrier to report to eBay.`;
    await logOrderChange(db, orderId, { userId: null, logLevel: "WARNING", description: error });
    return { result: "refused", error };
  }
  if (await hasMarketplaceOrderEntry(db, orderId, "uploadedTrackingNumber", trackingNumber)) return { result: "already uploaded" };

  const lines = (await readOrderLines(db, orderId)).flatMap((line) => {
    const sent = line.quantity - line.oversoldQuantity;
    return line.marketplaceLineItemId && sent > 0 ? [{ lineItemId: line.marketplaceLineItemId, quantity: sent }] : [];
  });
  const shipment = { orderId: marketplaceOrderId, lines, carrierCode: carrierCodes[row.carrier], trackingNumber, shippedAt: row.shippedAt ?? now };
  try {
    await port.shipOrder(shipment);
  } catch (error) {
    const failure = error instanceof MarketplaceError ? error : new MarketplaceError("shipOrder", null, [], errorMessage(error), { cause: error });
    await logMarketplaceWarning(db, {
      entityType: "ORDER",
      entityId: orderId,
      newState: shipment,
      errorData: { message: failure.message, status: failure.status },
      description: `Tracking number ${trackingNumber} of order ${orderNumber} could not be reported to eBay order ${marketplaceOrderId}: ${failure.message}`,
    });
    if (failure.retryable) throw failure;
    return { result: "refused", error: failure.message };
  }
  await logMarketplaceEvent(db, {
    userId: null,
    entityType: "ORDER",
    entityId: orderId,
    newState: { ...shipment, uploadedTrackingNumber: trackingNumber },
    description: `Tracking number ${trackingNumber} (${shipment.carrierCode}) of order ${orderNumber} reported to eBay order ${marketplaceOrderId}`,
  });
  return { result: "uploaded" };
}

/** The number staff know an order by (and the notification links to), or its row id should the order be gone. */
async function orderNumberOf(db: Db, orderId: number): Promise<string> {
  const [row] = await db.select({ orderNumber: order.orderNumber }).from(order).where(eq(order.id, orderId));
  return row?.orderNumber ?? String(orderId);
}

/** `marketplace-shipment-upload`: a shipped marketplace order's tracking number to the marketplace, retried while it cannot take it. */
export const shipmentUploadJob = defineJob({
  name: "marketplace-shipment-upload",
  schema: z.object({ orderId: rowId }),
  retry: uploadRetry,
  expireInSeconds: 120,
  async run({ orderId }, { db, attempt }) {
    let outcome: ShipmentUpload;
    try {
      outcome = await uploadShipment(db, getMarketplace(), orderId);
    } catch (error) {
      if (attempt > uploadRetry.limit) {
        await notifyStaff(db, { type: "EBAY_ORDER", severity: "ERROR", message: `The tracking number of order ${await orderNumberOf(db, orderId)} could not be reported to eBay after ${attempt} tries: ${errorMessage(error)}. Add it in eBay's Seller Hub.` });
      }
      throw error;
    }
    if (outcome.result === "refused") {
      await notifyStaff(db, { type: "EBAY_ORDER", severity: "WARNING", message: `eBay did not take the shipment of order ${await orderNumberOf(db, orderId)}: ${outcome.error}. Add it in eBay's Seller Hub.` });
    }
  },
});
