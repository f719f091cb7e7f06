import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Carrier, OrderStatus } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { formatEuro } from "@/lib/money";
import { oneLine } from "@/lib/text";
import { postalLines } from "@/server/account/schemas";
import { classificationOf } from "@/server/catalog/classification";
import { classificationColumns } from "@/server/catalog/columns";
import type { Db } from "@/server/db/client";
import { order, orderDetail, orderItem, productDescription } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getCarrier } from "@/server/integrations/carriers/carriers";
import { CarrierError, type CarrierAddress, type CarrierPort, type Label, type TrackingInfo } from "@/server/integrations/carriers/port";
import { privateFolders, type PrivateStoragePort } from "@/server/integrations/storage/port";
import { getPrivateStorage } from "@/server/integrations/storage/storage";
import { logOrderChange } from "@/server/logbook/service";
import { logger } from "@/server/logger";
import { notifyStaff } from "@/server/notifications/service";
import { requestShipmentUpload } from "@/server/marketplace/shipment";
import { changeEachOrderApart } from "@/server/orders/each-order-apart";
import { lockOrderWithDetail, selectOrderWithDetails } from "@/server/orders/order-rows";
import { transitionOrder } from "@/server/orders/service";
import { shopDateAndHour } from "@/server/shipping/service";
import type { CreatedLabel, RefusedOrder, ShipmentOutcome, VoidedLabel } from "./schemas";
import { shopSeller } from "./documents/service";
import { chooseShipment, estimateParcel, type ShipmentChoice } from "./shipment-rules";
import { queueShippingEmail } from "./shipping-email";

/**
 * Fulfilment: buying a parcel's label, voiding it, handing the parcel to the carrier and following it. Carriers are
 * asked outside any transaction (a slow carrier never holds an order's lock); what they answer is written in one
 * transaction with the order's status change and its logbook entry.
 */

/** Who asks; null for the system (a job, the tracking poll). */
export type FulfilmentActor = { userId: string | null; now?: Date };

/**
 * The outside services fulfilment uses; the sandbox or live adapters unless a test hands in its own. Labels carry the
 * customer's name, address and phone number, so they go to the private storage, which has no public address.
 */
export type FulfilmentPorts = { carrierFor: (carrier: Carrier) => CarrierPort; storage: PrivateStoragePort };

function shopPorts(): FulfilmentPorts {
  return { carrierFor: getCarrier, storage: getPrivateStorage() };
}

/** The statuses in which an order waits for its label. */
const labelStatuses = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT"] as const satisfies readonly OrderStatus[];

/**
 * A label being bought is claimed by setting `labelCreatedAt` while `trackingNumber` is still empty. A claim older
 * than this was left by a process that died while asking the carrier (one try of the create-label job expires well
 * before), so another request may take it over.
 */
const LABEL_CLAIM_STALE_MS = 10 * 60_000;

/**
 * The private-storage key of a label's PDF: `labels/{year}/{orderNumber}-{trackingNumber}.pdf`. Only staff may read
 * these, through the shop (`respondToLabelDownload`).
 */
function labelKey(year: string, orderNumber: string, trackingNumber: string): string {
  return `${privateFolders.labels}${year}/${orderNumber}-${trackingNumber.replace(/[^A-Za-z0-9-]/g, "")}.pdf`;
}

type LabelState = { orderNumber: string; status: OrderStatus; trackingNumber: string | null; labelCreatedAt: Date | null };

/** Why an order cannot get a label now, or null when it can. */
function labelRefusal(state: LabelState, now: Date): string | null {
  if (state.trackingNumber) return `Order ${state.orderNumber} already has a label (tracking ${state.trackingNumber}); void it first to buy another.`;
  if (state.labelCreatedAt && now.getTime() - state.labelCreatedAt.getTime() < LABEL_CLAIM_STALE_MS) {
    return `A label for order ${state.orderNumber} is being created right now.`;
  }
  if (!(labelStatuses as readonly string[]).includes(state.status)) {
    return `Order ${state.orderNumber} is ${state.status}: only paid orders waiting to ship get a label.`;
  }
  return null;
}

/** The order and its shipping details as fulfilment reads them; NOT_FOUND for an unknown order. */
async function readShippingOrder(db: Db, orderId: number) {
  const [row] = await selectOrderWithDetails(db).where(eq(order.id, orderId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
  return row;
}

type ShippingOrder = Awaited<ReturnType<typeof readShippingOrder>>;

/** Orders to label, and why the others cannot be; for the bulk action to answer before it queues anything. */
export async function checkLabelRequests(
  db: Db,
  orderIds: readonly number[],
  now: Date = new Date(),
): Promise<{ ready: { orderId: number; orderNumber: string }[]; refused: RefusedOrder[] }> {
  const rows = await db
    .select({ orderId: order.id, orderNumber: order.orderNumber, status: order.status, trackingNumber: orderDetail.trackingNumber, labelCreatedAt: orderDetail.labelCreatedAt })
    .from(order)
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(inArray(order.id, [...orderIds]));
  const byId = new Map(rows.map((row) => [row.orderId, row]));
  const answer: Awaited<ReturnType<typeof checkLabelRequests>> = { ready: [], refused: [] };
  for (const orderId of new Set(orderIds)) {
    const row = byId.get(orderId);
    const reason = row ? labelRefusal(row, now) : `Order ${orderId} does not exist.`;
    if (reason) answer.refused.push({ orderId, orderNumber: row?.orderNumber ?? null, reason });
    else answer.ready.push({ orderId, orderNumber: row!.orderNumber });
  }
  return answer;
}

/** The parcel's weight (stored, or estimated from what is in it) and the carrier and product it goes with. */
async function planShipment(db: Db, row: ShippingOrder): Promise<{ weightGrams: number; choice: ShipmentChoice; declaredValue: Decimal }> {
  const lines = await db
    .select({ ...classificationColumns, quantity: orderItem.quantity, paid: orderItem.totalPrice })
    .from(orderItem)
    .leftJoin(productDescription, eq(productDescription.productId, orderItem.productId))
    .where(eq(orderItem.orderId, row.order.id));
  const estimate = estimateParcel(lines.map((line) => ({ itemType: classificationOf(line).itemType, quantity: line.quantity })));
  const weightGrams = row.detail.totalWeight ?? estimate.weightGrams;
  const choice = chooseShipment({
    countryCode: row.address.countryCode,
    eu: row.destination?.eu ?? false,
    method: row.detail.shippingMethod,
    weightGrams,
    fitsLetterbox: estimate.fitsLetterbox,
  });
  return { weightGrams, choice, declaredValue: lines.reduce((sum, line) => sum.plus(line.paid), new Decimal(0)) };
}

/** The shop as the label's sender: the same details its documents print (`shopSeller`). */
function shopAddress(): CarrierAddress {
  const { name, street, houseNumber, postCode, city, countryCode, email, phone } = shopSeller();
  return { name, companyName: name, street, houseNumber, postCode, city, countryCode, email, phoneNumber: phone };
}

/**
 * The order's address as the carrier is given it, each field on one line, also for an address stored before line
 * breaks were refused: the carrier prints every field as a line of the label (SECURITY-REVIEW N-M5).
 */
function receiverAddress(address: ShippingOrder["address"]): CarrierAddress {
  const lines = postalLines(address);
  return {
    name: oneLine(`${address.firstName} ${address.lastName}`),
    companyName: oneLine(lines.companyName),
    street: oneLine(lines.street),
    houseNumber: oneLine(lines.houseNumber),
    addressLine2: oneLine(lines.addressLine2),
    postCode: oneLine(lines.postCode),
    city: oneLine(lines.city),
    stateCode: oneLine(address.stateCode),
    countryCode: address.countryCode,
    email: address.email,
    phoneNumber: oneLine(address.phoneNumber),
  };
}

/**
 * Buys the label of a paid order that has none, stores its PDF and moves the order to PROCESSED.
 *
 * The label is claimed first with one conditional update (`labelCreatedAt` set, no tracking number yet), so of two
 * requests at once only one asks the carrier; the other gets CONFLICT. The carrier is asked outside any transaction,
 * the PDF stored under `labelKey`, and then one transaction writes the label's fields, moves the order to PROCESSED
 * and logs it. When anything after the purchase fails (the order was cancelled meanwhile, storage is down) the label
 * is voided at the carrier again and the claim given back, so no label is paid for that no order carries.
 */
export async function createLabel(db: Db, orderId: number, actor: FulfilmentActor, ports: FulfilmentPorts = shopPorts()): Promise<CreatedLabel> {
  const now = actor.now ?? new Date();
  const row = await readShippingOrder(db, orderId);
  const { orderNumber } = row.order;
  const refusal = labelRefusal({ ...row.order, ...row.detail }, now);
  if (refusal) throw new AppError("CONFLICT", refusal);
  const plan = await planShipment(db, row);

  const claimed = await db
    .update(orderDetail)
    .set({ labelCreatedAt: now })
    .where(
      and(
        eq(orderDetail.orderId, orderId),
        isNull(orderDetail.trackingNumber),
        or(isNull(orderDetail.labelCreatedAt), lt(orderDetail.labelCreatedAt, new Date(now.getTime() - LABEL_CLAIM_STALE_MS))),
        sql`exists (select 1 from ${order} where ${order.id} = ${orderId} and ${inArray(order.status, [...labelStatuses])})`,
      ),
    )
    .returning({ id: orderDetail.id });
  if (claimed.length === 0) {
    const latest = await readShippingOrder(db, orderId);
    throw new AppError("CONFLICT", labelRefusal({ ...latest.order, ...latest.detail }, now) ?? `A label for order ${orderNumber} is being created right now.`);
  }
  const releaseClaim = () =>
    db
      .update(orderDetail)
      .set({ labelCreatedAt: null })
      .where(and(eq(orderDetail.orderId, orderId), isNull(orderDetail.trackingNumber), eq(orderDetail.labelCreatedAt, now)));

  const carrier = ports.carrierFor(plan.choice.carrier);
  let label: Label;
  try {
    label = await carrier.createLabel({
      reference: orderNumber,
      sender: shopAddress(),
      receiver: receiverAddress(row.address),
      weightGrams: Math.max(1, plan.weightGrams),
      product: plan.choice.product,
      declaredValue: plan.declaredValue,
      // One key per claim: the adapter's own retries of this request never buy a second label.
      idempotencyKey: `${orderNumber}-${now.getTime()}`,
    });
  } catch (error) {
    await releaseClaim();
    await logOrderChange(db, orderId, {
      userId: actor.userId,
      logLevel: "ERROR",
      errorData: { message: errorMessage(error) },
      description: `${plan.choice.name} refused the label of order ${orderNumber}: ${errorMessage(error)}`,
    });
    throw error;
  }

  const key = labelKey(shopDateAndHour(now).date.slice(0, 4), orderNumber, label.trackingNumber);
  try {
    await ports.storage.put(key, label.pdf, "application/pdf");
    await db.transaction(async (tx) => {
      const [mine] = await tx
        .select({ id: orderDetail.id })
        .from(orderDetail)
        .where(and(eq(orderDetail.orderId, orderId), isNull(orderDetail.trackingNumber), eq(orderDetail.labelCreatedAt, now)))
        .for("update");
      if (!mine) throw new AppError("CONFLICT", `Another request took over the label of order ${orderNumber}.`);
      const fields = {
        carrier: plan.choice.carrier,
        carrierProduct: plan.choice.product,
        trackingNumber: label.trackingNumber,
        carrierShipmentId: label.shipmentId,
        labelCost: label.cost,
        labelCreatedAt: now,
        gcsLabelFilename: key,
        totalWeight: plan.weightGrams,
      };
      await tx.update(orderDetail).set(fields).where(eq(orderDetail.orderId, orderId));
      await transitionOrder(tx, orderId, "PROCESSED", { userId: actor.userId, description: `Label ${label.trackingNumber} created (${plan.choice.name}).`, now });
      await logOrderChange(tx, orderId, {
        userId: actor.userId,
        newState: fields,
        description: `Label for order ${orderNumber}: ${plan.choice.name}, tracking ${label.trackingNumber}${label.cost ? `, ${formatEuro(label.cost)}` : ""}`,
      });
    });
  } catch (error) {
    await undoPurchase(db, ports.storage, { orderId, orderNumber, carrier, label, key, actor, error });
    await releaseClaim();
    throw error;
  }
  return { orderNumber, carrier: plan.choice.carrier, product: plan.choice.product, trackingNumber: label.trackingNumber, labelKey: key };
}

/** Voids a label just bought that no order will carry and removes its PDF, logging it; what fails here is put before staff. */
async function undoPurchase(
  db: Db,
  storage: PrivateStoragePort,
  failed: { orderId: number; orderNumber: string; carrier: CarrierPort; label: Label; key: string; actor: FulfilmentActor; error: unknown },
): Promise<void> {
  let voided = true;
  try {
    await failed.carrier.voidLabel(failed.label.shipmentId);
    await storage.delete(failed.key);
  } catch (undoError) {
    voided = false;
    logger.error({ event: "LABEL", orderNumber: failed.orderNumber, err: undoError }, "a label bought for nothing could not be voided");
  }
  const message = voided
    ? `The label ${failed.label.trackingNumber} of order ${failed.orderNumber} was voided again: ${errorMessage(failed.error)}`
    : `The label ${failed.label.trackingNumber} of order ${failed.orderNumber} was bought but could not be kept or voided: void it at ${failed.carrier.carrier} by hand. ${errorMessage(failed.error)}`;
  await db.transaction(async (tx) => {
    await logOrderChange(tx, failed.orderId, {
      userId: failed.actor.userId,
      logLevel: voided ? "WARNING" : "ERROR",
      errorData: { message: errorMessage(failed.error) },
      description: message,
    });
    if (!voided) await notifyStaff(tx, { type: "ORDER", severity: "ERROR", message });
  });
}

/**
 * Voids an order's label until the parcel has shipped: the carrier cancels it first (outside any transaction; voiding
 * twice is no error there), then one transaction clears the label's fields, moves a PROCESSED order back to
 * PAID_READY_TO_SHIP and logs it; the stored PDF is removed last. A cancelled order's label can be voided too (its
 * status stays).
 */
export async function voidLabel(db: Db, orderId: number, actor: FulfilmentActor, ports: FulfilmentPorts = shopPorts()): Promise<VoidedLabel> {
  const now = actor.now ?? new Date();
  const row = await readShippingOrder(db, orderId);
  const { orderNumber } = row.order;
  const { trackingNumber, carrier, gcsLabelFilename } = row.detail;
  const refusal = voidRefusal({ ...row.order, ...row.detail }, now);
  if (refusal || !trackingNumber || !carrier) throw new AppError("CONFLICT", refusal ?? `Order ${orderNumber} has no label to void.`);
  try {
    await ports.carrierFor(carrier).voidLabel(row.detail.carrierShipmentId ?? trackingNumber);
  } catch (error) {
    const why = error instanceof CarrierError ? `it answered: ${error.message}` : "it did not answer; try again in a moment";
    throw new AppError("PRECONDITION_FAILED", `${carrier} did not void label ${trackingNumber} of order ${orderNumber}: ${why}`, { cause: error });
  }

  const status = await db.transaction(async (tx) => {
    const current = await lockShippingState(tx, orderId);
    if (!current || current.trackingNumber !== trackingNumber) throw new AppError("CONFLICT", `The label of order ${orderNumber} changed meanwhile; look again.`);
    const changed = voidRefusal(current, now);
    if (changed) throw new AppError("CONFLICT", changed);
    const previousState = {
      carrier,
      carrierProduct: row.detail.carrierProduct,
      trackingNumber,
      carrierShipmentId: row.detail.carrierShipmentId,
      labelCost: row.detail.labelCost,
      labelCreatedAt: row.detail.labelCreatedAt,
      gcsLabelFilename,
    };
    const cleared = {
      carrier: null,
      carrierProduct: null,
      trackingNumber: null,
      carrierShipmentId: null,
      labelCost: null,
      labelCreatedAt: null,
      gcsLabelFilename: null,
      trackingStatus: null,
      trackingCheckedAt: null,
    };
    await tx.update(orderDetail).set(cleared).where(eq(orderDetail.orderId, orderId));
    await logOrderChange(tx, orderId, {
      userId: actor.userId,
      previousState,
      newState: cleared,
      description: `Label ${trackingNumber} of order ${orderNumber} voided at ${carrier}`,
    });
    if (current.status !== "PROCESSED") return current.status;
    await transitionOrder(tx, orderId, "PAID_READY_TO_SHIP", { userId: actor.userId, description: `Its label ${trackingNumber} was voided.`, now });
    return "PAID_READY_TO_SHIP" as const;
  });

  if (gcsLabelFilename) {
    try {
      await ports.storage.delete(gcsLabelFilename);
    } catch (error) {
      // The order no longer names the file, so nobody is served it; only the bucket keeps a stray PDF.
      logger.warn({ event: "LABEL", orderNumber, key: gcsLabelFilename, err: error }, "the PDF of a voided label could not be removed");
    }
  }
  return { orderNumber, status };
}

function voidRefusal(state: LabelState & { shippedAt: Date | null }, now: Date): string | null {
  if (state.status === "SHIPPED" || state.shippedAt) return `Order ${state.orderNumber} has shipped: its label can no longer be voided.`;
  if (state.trackingNumber) return null;
  const beingCreated = state.labelCreatedAt && now.getTime() - state.labelCreatedAt.getTime() < LABEL_CLAIM_STALE_MS;
  return beingCreated ? `A label for order ${state.orderNumber} is being created right now; void it when it is done.` : `Order ${state.orderNumber} has no label to void.`;
}

/** An order's status and label state, its row locked for the caller's transaction; null for an unknown order. */
async function lockShippingState(tx: Db, orderId: number) {
  return lockOrderWithDetail(tx, orderId, {
    orderNumber: order.orderNumber,
    status: order.status,
    trackingNumber: orderDetail.trackingNumber,
    labelCreatedAt: orderDetail.labelCreatedAt,
    shippedAt: orderDetail.shippedAt,
    deliveredAt: orderDetail.deliveredAt,
  });
}

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

/** An order's label PDF as stored, with the file name staff download it under; null when the order has none. */
export async function readLabelPdf(db: Db, storage: PrivateStoragePort, orderNumber: string): Promise<{ filename: string; body: Buffer } | null> {
  const [row] = await db
    .select({ key: orderDetail.gcsLabelFilename })
    .from(order)
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(eq(order.orderNumber, orderNumber))
    .limit(1);
  if (!row?.key) return null;
  const stored = await storage.get(row.key);
  return stored ? { filename: row.key.slice(row.key.lastIndexOf("/") + 1), body: stored.body } : null;
}
