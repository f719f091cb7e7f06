import "server-only";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { order, orderDetail } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { TrackingInfo } from "@/server/integrations/carriers/port";
import { logOrderChange } from "@/server/logbook/service";
import { requestShipmentUpload } from "@/server/marketplace/shipment";
import { changeEachOrderApart } from "@/server/orders/each-order-apart";
import { transitionOrder } from "@/server/orders/service";
import type { ShipmentOutcome } from "./schemas";
import { lockShippingState } from "./parcel";
import { shopPorts, type FulfilmentActor, type FulfilmentPorts } from "./ports";
import { queueShippingEmail } from "./shipping-email";

/*
 * A labelled parcel from the shop to the door: staff mark packed orders shipped, and the tracking poll asks the
 * carrier about parcels on their way, ships an order whose parcel is moving and records its delivery. Either way the
 * order ships in one transaction with its shipping e-mail (and a marketplace order's tracking upload). The carrier is
 * asked outside any transaction.
 */

/**
 * Hands a PROCESSED order with a label to the carrier, in the caller's transaction: SHIPPED from `shippedAt` on, and
 * the shipping e-mail written (and, for a marketplace order, the upload of its tracking number queued) in the same transaction,
 * so they go exactly when the order really shipped.
 */
async function shipOrder(tx: Db, orderId: number, orderNumber: string, actor: { userId: string | null; description: string; now: Date }): Promise<void> {
  await tx.update(orderDetail).set({ shippedAt: actor.now }).where(eq(orderDetail.orderId, orderId));
  await transitionOrder(tx, orderId, "SHIPPED", actor);
  await queueShippingEmail(tx, orderNumber);
  // An order sold on the marketplace is marked shipped there too, with its tracking number.
  await requestShipmentUpload(tx, orderId);
}

/** Marks packed orders (PROCESSED, with a label) as handed to the carrier; each order on its own, each refusal with its reason. */
export async function markShipped(db: Db, orderIds: readonly number[], actor: FulfilmentActor): Promise<ShipmentOutcome> {
  const now = actor.now ?? new Date();
  const { done, refused } = await changeEachOrderApart(db, orderIds, async (tx, orderId, found) => {
    const current = await lockShippingState(tx, orderId);
    if (!current) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
    found(current.orderNumber);
    if (current.status !== "PROCESSED") throw new AppError("CONFLICT", `Order ${current.orderNumber} is ${current.status}: only packed orders (PROCESSED) can be marked shipped.`);
    if (!current.trackingNumber) throw new AppError("CONFLICT", `Order ${current.orderNumber} has no label yet: create one first.`);
    await shipOrder(tx, orderId, current.orderNumber, { userId: actor.userId, description: "Marked shipped by staff.", now });
  });
  return { shipped: done, refused };
}

/**
 * How many parcels one run of the tracking poll asks about, how often one parcel is asked and for how long after its
 * label, and how long one run may keep asking: a carrier that times out on every parcel must not outlive the job.
 */
const trackingPollLimits = { batchSize: 50, minIntervalMs: 3 * 60 * 60_000, giveUpAfterMs: 45 * 24 * 60 * 60_000, runBudgetMs: 4 * 60_000 };

export type TrackingPoll = {
  checked: number;
  shipped: string[];
  delivered: string[];
  failed: { orderNumber: string; error: string }[];
};

/**
 * One run of the tracking poll: asks the carrier about parcels on their way (PROCESSED or SHIPPED, with a tracking
 * number, not delivered), the ones asked longest ago first, each at most every few hours and for at most 45 days
 * after its label (PostNL asks for sensible intervals, not a poll per parcel per minute). A parcel the carrier has
 * moving ships its PROCESSED order (and the shipping e-mail goes); a delivered one records `deliveredAt`. The carrier's
 * words are kept in `trackingStatus`.
 */
export async function pollTracking(db: Db, options: { now?: Date; ports?: FulfilmentPorts } = {}): Promise<TrackingPoll> {
  const now = options.now ?? new Date();
  const ports = options.ports ?? shopPorts();
  const due = await db
    .select({ orderId: order.id, orderNumber: order.orderNumber, carrier: orderDetail.carrier, trackingNumber: orderDetail.trackingNumber })
    .from(order)
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(
      and(
        inArray(order.status, ["PROCESSED", "SHIPPED"]),
        isNotNull(orderDetail.trackingNumber),
        isNotNull(orderDetail.carrier),
        isNull(orderDetail.deliveredAt),
        gt(orderDetail.labelCreatedAt, new Date(now.getTime() - trackingPollLimits.giveUpAfterMs)),
        or(isNull(orderDetail.trackingCheckedAt), lt(orderDetail.trackingCheckedAt, new Date(now.getTime() - trackingPollLimits.minIntervalMs))),
      ),
    )
    .orderBy(sql`${orderDetail.trackingCheckedAt} asc nulls first`, asc(order.id))
    .limit(trackingPollLimits.batchSize);

  const poll: TrackingPoll = { checked: 0, shipped: [], delivered: [], failed: [] };
  const stopAt = Date.now() + trackingPollLimits.runBudgetMs;
  for (const parcel of due) {
    // What is left waits for the next run, asked-longest-ago first as always.
    if (Date.now() > stopAt) break;
    const trackingNumber = parcel.trackingNumber!;
    let info: TrackingInfo;
    try {
      info = await ports.carrierFor(parcel.carrier!).track(trackingNumber);
    } catch (error) {
      poll.failed.push({ orderNumber: parcel.orderNumber, error: errorMessage(error) });
      // Asked again after the interval like any other parcel, not on the next run.
      await db.update(orderDetail).set({ trackingCheckedAt: now }).where(and(eq(orderDetail.orderId, parcel.orderId), eq(orderDetail.trackingNumber, trackingNumber)));
      continue;
    }
    poll.checked += 1;
    const change = await applyTracking(db, parcel.orderId, trackingNumber, info, now);
    if (change.shipped) poll.shipped.push(parcel.orderNumber);
    if (change.delivered) poll.delivered.push(parcel.orderNumber);
  }
  return poll;
}

/** Records what the carrier said about one parcel, under its order's lock; a label voided meanwhile is left alone. */
async function applyTracking(db: Db, orderId: number, trackingNumber: string, info: TrackingInfo, now: Date): Promise<{ shipped: boolean; delivered: boolean }> {
  return db.transaction(async (tx) => {
    const current = await lockShippingState(tx, orderId);
    if (!current || current.trackingNumber !== trackingNumber) return { shipped: false, delivered: false };
    const moving = info.status === "in_transit" || info.status === "delivered";
    const shipped = moving && current.status === "PROCESSED";
    if (shipped) {
      await shipOrder(tx, orderId, current.orderNumber, { userId: null, description: `${info.description} (carrier tracking).`, now });
    }
    const delivered = info.status === "delivered" && !current.deliveredAt;
    const deliveredAt = delivered ? (info.deliveredAt ?? now) : current.deliveredAt;
    await tx.update(orderDetail).set({ trackingStatus: info.description, trackingCheckedAt: now, deliveredAt }).where(eq(orderDetail.orderId, orderId));
    if (delivered) {
      await logOrderChange(tx, orderId, {
        userId: null,
        newState: { deliveredAt, trackingStatus: info.description },
        description: `Order ${current.orderNumber} was delivered (${trackingNumber})`,
      });
    }
    return { shipped, delivered };
  });
}
