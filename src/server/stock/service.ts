import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { BoxStatus, StockRecordType } from "@/lib/enums";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { box, inventoryCorrection, product, purchaseRecord, stockRecord } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange, type LogChange } from "@/server/logbook/service";
import { requestQuantityPush } from "@/server/marketplace/quantity-push";
import type { InventoryCorrectionInput, StockHistory } from "./schemas";
import { inventoryCorrectionInput } from "./schemas";
import { recordCostLayers } from "./cost-layers";
import { receiveRestockOnArrival } from "./restock-arrival";

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
 * amount, the pieces' cost layers (`recordCostLayers`: a lot in, or which lots the pieces left or went back to) and a
 * STOCK_CHANGE logbook entry, all in the caller's transaction; pieces bought or found in close the
 * product's approved restock request (`receiveRestockOnArrival`). The product row is locked first, so two
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
  await recordCostLayers(tx, { stockRecordId: record!.id, productId, type, quantity, purchaseRecordId, orderItemId });
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
  await receiveRestockOnArrival(tx, { productId, quantity, type, stockRecordId: record!.id, userId, description });
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
export function logStockChange(
  tx: Db,
  entityType: "PRODUCT" | "BOX" | "PURCHASE_RECORD",
  entityId: number,
  change: Pick<LogChange, "userId" | "previousState" | "newState" | "description">,
): Promise<number> {
  return logChange(tx, { ...change, eventType: "STOCK_CHANGE", entityType, entityId });
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
