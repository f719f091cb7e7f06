import "server-only";
import { Decimal } from "decimal.js";
import { asc, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { BoxStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { box, product, purchaseRecord } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { assertBoxEditable, boxMachine } from "./box-machine";
import type { BoxDetail, BoxSummary, PurchaseCurrency, PurchaseRecordRow, ShipBoxInput } from "./schemas";
import { convertCost, currentExchangeRate } from "./exchange-rate";
import { bookStockInProductOrder, logStockChange } from "./service";

/**
 * Boxes of purchases on their way from the Philippines, and the purchase records in them: opened, filled while OPEN
 * (each record's cost typed in euros or pesos and stored in both at the exchange rate), shipped with a tracking number,
 * and exploded on arrival, when every record's pieces go into stock through the ledger.
 */

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
