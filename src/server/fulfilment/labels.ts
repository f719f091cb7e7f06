import "server-only";
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { OrderStatus, ShippingMethod } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, orderDetail } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { CarrierError, type CarrierPort, type CustomsDeclaration, type Label } from "@/server/integrations/carriers/port";
import { privateFolders, type PrivateStoragePort } from "@/server/integrations/storage/port";
import { logOrderChange } from "@/server/logbook/service";
import { logger } from "@/server/logger";
import { notifyStaff } from "@/server/notifications/service";
import { transitionOrder } from "@/server/orders/service";
import { shopDateAndHour } from "@/server/shipping/service";
import type { CreatedLabel, RefusedOrder, VoidedLabel } from "./schemas";
import { lockShippingState, planShipment, readShippingOrder, receiverAddress, shopAddress, type ShippingOrder } from "./parcel";
import { shopPorts, type FulfilmentActor, type FulfilmentPorts } from "./ports";
import { collectedRefusal } from "./shipment-rules";
import { recordSalesShare } from "@/server/orders/sales-rollup";
import { renderCustomsDeclaration } from "./documents/customs-declaration";
import { mergeLabelPdfs } from "./documents/labels";
import { shopSeller } from "./documents/service";
import { readCustomsDeclaration } from "./parcel-customs";

/*
 * A parcel's label: which orders may get one, buying it, voiding it until the parcel has shipped, and its PDF, kept
 * in the private storage and read back only for staff. Carriers are asked outside any transaction (a slow carrier
 * never holds an order's lock); what they answer is written in one transaction with the order's status change and
 * its logbook entry.
 */

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

type LabelState = { orderNumber: string; status: OrderStatus; shippingMethod: ShippingMethod; trackingNumber: string | null; labelCreatedAt: Date | null };

/** Why an order cannot get a label now, or null when it can. */
function labelRefusal(state: LabelState, now: Date): string | null {
  if (state.shippingMethod === "COLLECTED") return collectedRefusal(state.orderNumber, "label");
  if (state.trackingNumber) return `Order ${state.orderNumber} already has a label (tracking ${state.trackingNumber}); void it first to buy another.`;
  if (state.labelCreatedAt && now.getTime() - state.labelCreatedAt.getTime() < LABEL_CLAIM_STALE_MS) {
    return `A label for order ${state.orderNumber} is being created right now.`;
  }
  if (!(labelStatuses as readonly string[]).includes(state.status)) {
    return `Order ${state.orderNumber} is ${state.status}: only paid orders waiting to ship get a label.`;
  }
  return null;
}

/** Orders to label, and why the others cannot be; for the bulk action to answer before it queues anything. */
export async function checkLabelRequests(
  db: Db,
  orderIds: readonly number[],
  now: Date = new Date(),
): Promise<{ ready: { orderId: number; orderNumber: string }[]; refused: RefusedOrder[] }> {
  const rows = await db
    .select({ orderId: order.id, orderNumber: order.orderNumber, status: order.status, shippingMethod: orderDetail.shippingMethod, trackingNumber: orderDetail.trackingNumber, labelCreatedAt: orderDetail.labelCreatedAt })
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
  // Read before anything is claimed or bought: a piece customs cannot be told about refuses the label here.
  const customs = await readCustomsDeclaration(db, row);

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
      customs,
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
    const pdf = customs ? await withDeclaration(label, customs, { orderNumber, receiver: row.address, grossWeightGrams: plan.weightGrams, carrierName: plan.choice.name, date: now }) : label.pdf;
    await ports.storage.put(key, pdf, "application/pdf");
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
      await recordSalesShare(tx, orderId);
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

/**
 * The label with its customs declaration after it, in one PDF: staff print the parcel's papers in one go, and a
 * batch of labels carries each parcel's declaration behind its label.
 */
async function withDeclaration(
  label: Label,
  declaration: CustomsDeclaration,
  parcel: { orderNumber: string; receiver: ShippingOrder["address"]; grossWeightGrams: number; carrierName: string; date: Date },
): Promise<Buffer> {
  const seller = shopSeller();
  const pages = await renderCustomsDeclaration({
    declaration,
    sender: seller,
    receiver: receiverAddress(parcel.receiver),
    orderNumber: parcel.orderNumber,
    trackingNumber: label.trackingNumber,
    carrierName: parcel.carrierName,
    grossWeightGrams: parcel.grossWeightGrams,
    date: parcel.date,
  });
  const papers = [label.pdf, pages].map((pdf) => ({ orderNumber: parcel.orderNumber, pdf }));
  return mergeLabelPdfs(papers, { title: `Label ${label.trackingNumber} with customs declaration`, producer: seller.name });
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
    await recordSalesShare(tx, orderId);
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

function voidRefusal(state: Omit<LabelState, "shippingMethod"> & { shippedAt: Date | null }, now: Date): string | null {
  if (state.status === "SHIPPED" || state.shippedAt) return `Order ${state.orderNumber} has shipped: its label can no longer be voided.`;
  if (state.trackingNumber) return null;
  const beingCreated = state.labelCreatedAt && now.getTime() - state.labelCreatedAt.getTime() < LABEL_CLAIM_STALE_MS;
  return beingCreated ? `A label for order ${state.orderNumber} is being created right now; void it when it is done.` : `Order ${state.orderNumber} has no label to void.`;
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
