import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { BoxStatus, StockRecordType } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { box, configParams, inventoryCorrection, product, purchaseRecord, stockRecord } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { ExchangeRatePort } from "@/server/integrations/exchange-rate/port";
import { logChange, type LogChange } from "@/server/logbook/service";
import { requestQuantityPush } from "@/server/marketplace/quantity-push";
import { notifyStaff } from "@/server/notifications/service";
import { assertBoxEditable, boxMachine } from "./box-machine";
import { EXCHANGE_RATE_PARAM, readExchangeRate } from "./exchange-rate";
import type {
  BoxDetail,
  BoxSummary,
  ExchangeRateInfo,
  InventoryCorrectionInput,
  PurchaseCurrency,
  PurchaseRecordRow,
  ShipBoxInput,
  StockHistory,
} from "./schemas";
import { inventoryCorrectionInput } from "./schemas";

// ---------------------------------------------------------------------------------------------------------------
// The ledger
// ---------------------------------------------------------------------------------------------------------------

export type StockBooking = {
  productId: number;
  /** Signed: positive adds pieces, negative takes them away. */
  quantity: number;
  type: StockRecordType;
  purchaseRecordId?: number;
  inventoryCorrectionId?: number;
  orderItemId?: number;
  refundId?: number;
  userId: string | null;
  description: string;
};

/**
 * The one way a product's stock changes (ARCHITECTURE section 3): a ledger row, `product.stock` moved by the same
 * amount and a STOCK_CHANGE logbook entry, all in the caller's transaction. The product row is locked first, so two
 * bookings of the same product queue instead of overwriting each other, and stock never goes below zero.
 */
export async function bookStock(tx: Db, booking: StockBooking): Promise<{ stockRecordId: number; stock: number }> {
  const { productId, quantity, type, purchaseRecordId, inventoryCorrectionId, orderItemId, refundId, userId, description } = booking;
  const current = await lockExistingRow(tx, product, productId, { stock: product.stock, name: product.name }, "Product");
  const stock = current.stock + quantity;
  if (stock < 0) {
    throw new AppError("PRECONDITION_FAILED", `Product ${productId} has ${current.stock} in stock; it cannot lose ${-quantity}.`);
  }
  // What caused the movement: the one reference the booking has; the others stay null.
  const [record] = await tx
    .insert(stockRecord)
    .values({ productId, type, quantity, purchaseRecordId, inventoryCorrectionId, orderItemId, refundId })
    .returning({ id: stockRecord.id });
  await tx.update(product).set({ stock }).where(eq(product.id, productId));
  // Queued in this transaction, after the product's row is locked: the push reads the stock this change commits.
  await requestQuantityPush(tx, productId);
  // Its page, cards and counts are rendered anew from the request after this commits, on every instance.
  await catalogueChanged(tx, { productIds: [productId] });
  await logStockChange(tx, "PRODUCT", productId, {
    userId,
    previousState: { stock: current.stock },
    newState: { stock, change: quantity, type, stockRecordId: record!.id },
    description,
  });
  return { stockRecordId: record!.id, stock };
}

/**
 * Books several movements in one transaction in product id order, the order checkout locks products in too, so two
 * transactions that book the same products take their locks in the same order and never wait on each other.
 */
export async function bookStockInProductOrder(tx: Db, bookings: StockBooking[]): Promise<void> {
  for (const booking of [...bookings].sort((a, b) => a.productId - b.productId)) await bookStock(tx, booking);
}

/** A change to a product's stock, a box or a purchase in it, logged as every stock change is: a STOCK_CHANGE event on that thing. */
function logStockChange(
  tx: Db,
  entityType: "PRODUCT" | "BOX" | "PURCHASE_RECORD",
  entityId: number,
  change: Pick<LogChange, "userId" | "previousState" | "newState" | "description">,
): Promise<number> {
  return logChange(tx, { ...change, eventType: "STOCK_CHANGE", entityType, entityId });
}

// ---------------------------------------------------------------------------------------------------------------
// Exchange rate
// ---------------------------------------------------------------------------------------------------------------

/** The rate purchases are converted at, as kept in configParams. */
async function currentExchangeRate(db: Db): Promise<{ rate: Decimal; updatedAt: Date }> {
  const row = await readExchangeRate(db);
  if (!row) {
    throw new AppError("PRECONDITION_FAILED", "No euro to peso exchange rate is set: refresh it first.");
  }
  return { rate: new Decimal(row.value), updatedAt: row.updatedAt };
}

/** The stored rate and where refreshes come from (the ECB with live integrations, the fixed rate otherwise). */
export async function exchangeRateInfo(db: Db, port: ExchangeRatePort): Promise<ExchangeRateInfo> {
  return { ...(await currentExchangeRate(db)), source: port.kind };
}

/** Asks the exchange-rate port for today's rate and stores it, logging the old and new value. */
export async function refreshExchangeRate(db: Db, port: ExchangeRatePort, userId: string | null): Promise<ExchangeRateInfo> {
  let quote;
  try {
    quote = await port.eurToPhp();
  } catch (error) {
    const message = errorMessage(error);
    await db.transaction(async (tx) => {
      await logChange(tx, {
        userId,
        eventType: "STOCK_CHANGE",
        logLevel: "WARNING",
        description: "Exchange rate refresh failed; purchases keep the last rate",
        errorData: { message },
      });
      await notifyStaff(tx, { type: "OTHER", severity: "WARNING", message: `The euro to peso rate could not be refreshed: ${message}` });
    });
    throw new AppError("PRECONDITION_FAILED", "The exchange-rate service did not answer; the last rate stays in use.", { cause: error });
  }
  return db.transaction(async (tx) => {
    const previous = await readExchangeRate(tx, { lock: true });
    const value = quote.rate.toDecimalPlaces(4).toFixed();
    const [row] = await tx
      .insert(configParams)
      .values({ param: EXCHANGE_RATE_PARAM, value })
      .onConflictDoUpdate({ target: configParams.param, set: { value, updatedAt: new Date() } })
      .returning({ updatedAt: configParams.updatedAt });
    await logChange(tx, {
      userId,
      eventType: "STOCK_CHANGE",
      description: `Euro to peso rate set to ${value} (${port.kind === "live" ? `ECB, ${quote.date}` : "fixed sandbox rate"})`,
      previousState: { [EXCHANGE_RATE_PARAM]: previous?.value ?? null },
      newState: { [EXCHANGE_RATE_PARAM]: value },
    });
    return { rate: new Decimal(value), updatedAt: row!.updatedAt, source: port.kind };
  });
}

/** Both currencies of a unit cost typed in one of them, converted at the given rate and rounded to cents. */
export function convertCost(unitCost: string, currency: PurchaseCurrency, rate: Decimal): { euro: Decimal; php: Decimal } {
  const amount = new Decimal(unitCost);
  if (rate.lte(0)) throw new AppError("PRECONDITION_FAILED", "The exchange rate must be above zero.");
  return currency === "EUR"
    ? { euro: amount.toDecimalPlaces(2), php: amount.times(rate).toDecimalPlaces(2) }
    : { euro: amount.dividedBy(rate).toDecimalPlaces(2), php: amount.toDecimalPlaces(2) };
}

// ---------------------------------------------------------------------------------------------------------------
// Boxes
// ---------------------------------------------------------------------------------------------------------------

const boxSummaryColumns = {
  id: box.id,
  status: box.status,
  trackingNumber: box.trackingNumber,
  estimatedDeliveryDate: box.estimatedDeliveryDate,
  createdAt: box.createdAt,
  updatedAt: box.updatedAt,
  records: sql<number>`count(${purchaseRecord.id})`.mapWith(Number),
  pieces: sql<number>`coalesce(sum(${purchaseRecord.purchasedStock}), 0)`.mapWith(Number),
  totalCostEuro: sql<Decimal>`coalesce(sum(${purchaseRecord.purchaseCostEuro} * ${purchaseRecord.purchasedStock}), 0)`.mapWith(
    (value: string) => new Decimal(value),
  ),
  totalCostPhp: sql<Decimal>`coalesce(sum(${purchaseRecord.purchaseCostPhp} * ${purchaseRecord.purchasedStock}), 0)`.mapWith(
    (value: string) => new Decimal(value),
  ),
};

/** A purchase in a box as the box's page lists it, with its product's name and stock. */
const purchaseRecordRowColumns = {
  id: purchaseRecord.id,
  productId: purchaseRecord.productId,
  productName: product.name,
  productStock: product.stock,
  purchaseCostEuro: purchaseRecord.purchaseCostEuro,
  purchaseCostPhp: purchaseRecord.purchaseCostPhp,
  purchasedStock: purchaseRecord.purchasedStock,
  remainingStock: purchaseRecord.remainingStock,
  createdAt: purchaseRecord.createdAt,
};

/** Boxes with their purchase records counted and costed, for `.where` to pick from. */
function selectBoxSummaries(db: Db) {
  return db.select(boxSummaryColumns).from(box).leftJoin(purchaseRecord, eq(purchaseRecord.boxId, box.id)).groupBy(box.id).$dynamic();
}

export async function listBoxes(db: Db, statuses: BoxStatus[]): Promise<BoxSummary[]> {
  return selectBoxSummaries(db).where(inArray(box.status, statuses)).orderBy(desc(box.updatedAt), desc(box.id));
}

export async function getBox(db: Db, boxId: number): Promise<BoxDetail> {
  const [summary] = await selectBoxSummaries(db).where(eq(box.id, boxId));
  if (!summary) throw new AppError("NOT_FOUND", `Box ${boxId} does not exist.`);
  return { ...summary, purchaseRecords: await readBoxPurchases(db, boxId) };
}

/** The purchases in a box, in the order they were added. */
function readBoxPurchases(db: Db, boxId: number): Promise<PurchaseRecordRow[]> {
  return db
    .select(purchaseRecordRowColumns)
    .from(purchaseRecord)
    .innerJoin(product, eq(product.id, purchaseRecord.productId))
    .where(eq(purchaseRecord.boxId, boxId))
    .orderBy(asc(purchaseRecord.id));
}

function lockBox(tx: Db, boxId: number) {
  return lockExistingRow(tx, box, boxId, getTableColumns(box), "Box");
}

export async function createBox(db: Db, userId: string): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(box).values({ status: "OPEN" }).returning({ id: box.id, status: box.status });
    await logStockChange(tx, "BOX", row!.id, {
      userId,
      newState: { status: row!.status },
      description: `Box ${row!.id} opened`,
    });
    return { id: row!.id };
  });
}

/** OPEN -> SHIPPED: the box leaves with a tracking number and an expected delivery date. */
export async function shipBox(db: Db, input: ShipBoxInput, userId: string): Promise<BoxDetail> {
  await db.transaction(async (tx) => {
    const current = await lockBox(tx, input.boxId);
    boxMachine.assert(current.id, current.status, "SHIPPED");
    const [records] = await tx
      .select({ value: sql<number>`count(*)`.mapWith(Number) })
      .from(purchaseRecord)
      .where(eq(purchaseRecord.boxId, current.id));
    if (!records?.value) {
      throw new AppError("PRECONDITION_FAILED", `Box ${current.id} is empty: add the purchases it holds before shipping it.`);
    }
    await tx
      .update(box)
      .set({ status: "SHIPPED", trackingNumber: input.trackingNumber, estimatedDeliveryDate: input.estimatedDeliveryDate })
      .where(eq(box.id, current.id));
    await logStockChange(tx, "BOX", current.id, {
      userId,
      previousState: { status: current.status, trackingNumber: current.trackingNumber, estimatedDeliveryDate: current.estimatedDeliveryDate },
      newState: { status: "SHIPPED", trackingNumber: input.trackingNumber, estimatedDeliveryDate: input.estimatedDeliveryDate },
      description: `Box ${current.id} shipped with tracking number ${input.trackingNumber}`,
    });
  });
  return getBox(db, input.boxId);
}

/** SHIPPED -> EXPLODED: the box is unpacked and every purchase in it is booked into stock, all or nothing. */
export async function explodeBox(db: Db, boxId: number, userId: string): Promise<BoxDetail> {
  await db.transaction(async (tx) => {
    const current = await lockBox(tx, boxId);
    boxMachine.assert(current.id, current.status, "EXPLODED");
    const purchases = await tx
      .select({ purchaseRecordId: purchaseRecord.id, productId: purchaseRecord.productId, quantity: purchaseRecord.purchasedStock })
      .from(purchaseRecord)
      .where(eq(purchaseRecord.boxId, current.id))
      .orderBy(asc(purchaseRecord.id));
    await bookStockInProductOrder(
      tx,
      purchases.map((purchase) => ({
        ...purchase,
        type: "PURCHASE_RECORD",
        userId,
        description: `${purchase.quantity} booked into stock from box ${current.id} (purchase ${purchase.purchaseRecordId})`,
      })),
    );
    await tx.update(box).set({ status: "EXPLODED" }).where(eq(box.id, current.id));
    await logStockChange(tx, "BOX", current.id, {
      userId,
      previousState: { status: current.status },
      newState: { status: "EXPLODED", purchaseRecords: purchases.length, pieces: purchases.reduce((sum, purchase) => sum + purchase.quantity, 0) },
      description: `Box ${current.id} exploded: ${purchases.length} purchases booked into stock`,
    });
  });
  return getBox(db, boxId);
}

// ---------------------------------------------------------------------------------------------------------------
// Purchase records
// ---------------------------------------------------------------------------------------------------------------

export type PurchaseDraft = { quantity: number; unitCost: string; currency: PurchaseCurrency };

/** The stored rate; purchases are converted at it when they are written. */
async function storedRate(tx: Db): Promise<Decimal> {
  return (await currentExchangeRate(tx)).rate;
}

export async function addPurchaseRecord(
  db: Db,
  input: PurchaseDraft & { boxId: number; productId: number },
  userId: string,
): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const rate = await storedRate(tx);
    const current = await lockBox(tx, input.boxId);
    assertBoxEditable(current.id, current.status);
    const [target] = await tx.select({ id: product.id, name: product.name }).from(product).where(eq(product.id, input.productId));
    if (!target) throw new AppError("NOT_FOUND", `Product ${input.productId} does not exist.`);
    const cost = convertCost(input.unitCost, input.currency, rate);
    const values = {
      productId: target.id,
      boxId: current.id,
      purchaseCostEuro: cost.euro,
      purchaseCostPhp: cost.php,
      purchasedStock: input.quantity,
      remainingStock: input.quantity,
    };
    const [row] = await tx.insert(purchaseRecord).values(values).returning({ id: purchaseRecord.id });
    await logStockChange(tx, "PURCHASE_RECORD", row!.id, {
      userId,
      newState: { ...values, exchangeRate: rate, enteredIn: input.currency },
      description: `${input.quantity} × ${target.name} added to box ${current.id}`,
    });
    return { id: row!.id };
  });
}

async function lockRecordInOpenBox(tx: Db, purchaseRecordId: number) {
  const record = await lockExistingRow(tx, purchaseRecord, purchaseRecordId, getTableColumns(purchaseRecord), "Purchase");
  if (record.boxId === null) {
    throw new AppError("PRECONDITION_FAILED", `Purchase ${purchaseRecordId} is in no box and cannot change here.`);
  }
  const current = await lockBox(tx, record.boxId);
  assertBoxEditable(current.id, current.status);
  return record;
}

export async function updatePurchaseRecord(
  db: Db,
  input: PurchaseDraft & { purchaseRecordId: number },
  userId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const rate = await storedRate(tx);
    const record = await lockRecordInOpenBox(tx, input.purchaseRecordId);
    const cost = convertCost(input.unitCost, input.currency, rate);
    const changes = { purchaseCostEuro: cost.euro, purchaseCostPhp: cost.php, purchasedStock: input.quantity, remainingStock: input.quantity };
    await tx.update(purchaseRecord).set(changes).where(eq(purchaseRecord.id, record.id));
    await logStockChange(tx, "PURCHASE_RECORD", record.id, {
      userId,
      previousState: {
        purchaseCostEuro: record.purchaseCostEuro,
        purchaseCostPhp: record.purchaseCostPhp,
        purchasedStock: record.purchasedStock,
      },
      newState: { ...changes, exchangeRate: rate, enteredIn: input.currency },
      description: `Purchase ${record.id} in box ${record.boxId} changed`,
    });
  });
}

export async function removePurchaseRecord(db: Db, purchaseRecordId: number, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const record = await lockRecordInOpenBox(tx, purchaseRecordId);
    await tx.delete(purchaseRecord).where(eq(purchaseRecord.id, record.id));
    await logStockChange(tx, "PURCHASE_RECORD", record.id, {
      userId,
      previousState: record,
      description: `Purchase ${record.id} removed from box ${record.boxId}`,
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Inventory corrections and history
// ---------------------------------------------------------------------------------------------------------------

/** Damaged, lost or otherwise corrected stock: a correction row and its ledger row, together. */
export async function correctInventory(db: Db, raw: InventoryCorrectionInput, userId: string): Promise<{ id: number; stock: number }> {
  const input = inventoryCorrectionInput.parse(raw);
  return db.transaction(async (tx) => {
    // The correction row names the product, so a missing one is refused before it is written (bookStock checks too late).
    const [target] = await tx.select({ id: product.id }).from(product).where(eq(product.id, input.productId));
    if (!target) throw new AppError("NOT_FOUND", `Product ${input.productId} does not exist.`);
    const [correction] = await tx
      .insert(inventoryCorrection)
      .values({ productId: input.productId, quantity: input.quantity, reason: input.reason, comment: input.comment || null })
      .returning({ id: inventoryCorrection.id });
    const booked = await bookStock(tx, {
      productId: input.productId,
      quantity: input.quantity,
      type: "INVENTORY_CORRECTION",
      inventoryCorrectionId: correction!.id,
      userId,
      description: `Inventory correction (${input.reason.toLowerCase()}): ${input.quantity > 0 ? "+" : ""}${input.quantity}${input.comment ? ` — ${input.comment}` : ""}`,
    });
    return { id: correction!.id, stock: booked.stock };
  });
}

/** Every ledger row of a product, oldest first, with a running balance and what caused it. */
export async function stockHistory(db: Db, productId: number): Promise<StockHistory> {
  const [target] = await db.select({ id: product.id, name: product.name, stock: product.stock }).from(product).where(eq(product.id, productId));
  if (!target) throw new AppError("NOT_FOUND", `Product ${productId} does not exist.`);
  const rows = await db
    .select({
      id: stockRecord.id,
      createdAt: stockRecord.createdAt,
      type: stockRecord.type,
      quantity: stockRecord.quantity,
      boxId: purchaseRecord.boxId,
      purchaseRecordId: stockRecord.purchaseRecordId,
      unitCostEuro: purchaseRecord.purchaseCostEuro,
      correctionReason: inventoryCorrection.reason,
      correctionComment: inventoryCorrection.comment,
      orderItemId: stockRecord.orderItemId,
      refundId: stockRecord.refundId,
    })
    .from(stockRecord)
    .leftJoin(purchaseRecord, eq(purchaseRecord.id, stockRecord.purchaseRecordId))
    .leftJoin(inventoryCorrection, eq(inventoryCorrection.id, stockRecord.inventoryCorrectionId))
    .where(eq(stockRecord.productId, productId))
    .orderBy(asc(stockRecord.createdAt), asc(stockRecord.id));
  let balance = 0;
  const withBalance = rows.map((row) => {
    balance += row.quantity;
    return { ...row, balance };
  });
  return { productId: target.id, productName: target.name, stock: target.stock, ledgerSum: balance, rows: withBalance };
}

/** Boxes whose purchases are on their way: bought, not yet booked into stock. */
const incomingBoxStatuses = ["OPEN", "SHIPPED"] as const satisfies readonly BoxStatus[];

/** Pieces of the query's product (`product.id`) on their way in OPEN or SHIPPED boxes, for a select column. */
export const incomingPieces = sql<number>`coalesce((
  select sum(${purchaseRecord.purchasedStock}) from ${purchaseRecord} join ${box} on ${box.id} = ${purchaseRecord.boxId}
  where ${purchaseRecord.productId} = ${product.id} and ${inArray(box.status, [...incomingBoxStatuses])}), 0)`.mapWith(Number);

/** Purchases of a product still travelling in OPEN or SHIPPED boxes: stock that is on its way. */
export async function incomingStock(db: Db, productId: number) {
  return db
    .select({ boxId: box.id, status: box.status, pieces: purchaseRecord.purchasedStock, estimatedDeliveryDate: box.estimatedDeliveryDate })
    .from(purchaseRecord)
    .innerJoin(box, eq(box.id, purchaseRecord.boxId))
    .where(and(eq(purchaseRecord.productId, productId), inArray(box.status, [...incomingBoxStatuses])))
    .orderBy(asc(box.id));
}
