import { relations } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { money, timestamps } from "./columns";
import { product, productReference } from "./catalogue";
import { boxStatus, inventoryCorrectionReason, stockRecordType } from "./enums";
import { orderItem, refund } from "./orders";

/** A parcel of purchases on its way from abroad: OPEN while filling, SHIPPED in transit, EXPLODED once unpacked. */
export const box = pgTable(
  "box",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    status: boxStatus().notNull().default("OPEN"),
    estimatedDeliveryDate: date({ mode: "string" }),
    trackingNumber: text(),
    ...timestamps,
  },
  (t) => [index("box_status_idx").on(t.status)],
);

/** Stock bought abroad, with its cost in euro and peso; booked into stock when its box is exploded. */
export const purchaseRecord = pgTable(
  "purchase_record",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: productReference("restrict"),
    boxId: integer().references(() => box.id, { onDelete: "set null" }),
    purchaseCostEuro: money().notNull(),
    purchaseCostPhp: money().notNull(),
    purchasedStock: integer().notNull(),
    remainingStock: integer().notNull(),
    ...timestamps,
  },
  (t) => [
    index("purchase_record_product_idx").on(t.productId),
    index("purchase_record_box_idx").on(t.boxId),
    check("purchase_record_stock_non_negative", sql`${t.purchasedStock} >= 0 and ${t.remainingStock} >= 0`),
  ],
);

/** Stock written off or found: damaged, lost or otherwise corrected by hand. */
export const inventoryCorrection = pgTable(
  "inventory_correction",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: productReference("restrict"),
    quantity: integer().notNull(),
    reason: inventoryCorrectionReason().notNull(),
    comment: text(),
    ...timestamps,
  },
  (t) => [index("inventory_correction_product_idx").on(t.productId)],
);

/**
 * One row of the stock ledger: a signed quantity and the record that caused it. `product.stock` is the sum of a
 * product's rows. `productId` is kept on the row itself so the per-product history and sum need no joins.
 */
export const stockRecord = pgTable(
  "stock_record",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: productReference("restrict"),
    type: stockRecordType().notNull(),
    inventoryCorrectionId: integer().references(() => inventoryCorrection.id, { onDelete: "restrict" }),
    orderItemId: integer().references(() => orderItem.id, { onDelete: "restrict" }),
    refundId: integer().references(() => refund.id, { onDelete: "restrict" }),
    purchaseRecordId: integer().references(() => purchaseRecord.id, { onDelete: "restrict" }),
    quantity: integer().notNull(),
    ...timestamps,
  },
  (t) => [
    index("stock_record_product_idx").on(t.productId, t.createdAt),
    index("stock_record_order_item_idx").on(t.orderItemId),
    index("stock_record_purchase_record_idx").on(t.purchaseRecordId),
  ],
);

/**
 * Pieces of a product that came into stock together at one cost, the layers first bought, first sold takes from: a
 * purchase booked in (its record's unit cost in euro, at the box's rate, and in peso), or pieces found by a correction
 * (no known cost: both unit costs null). `piecesLeft` is what is still in stock of them; the lots of a product with
 * pieces left add up to its stock.
 */
export const stockLot = pgTable(
  "stock_lot",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    productId: productReference("restrict"),
    /** The ledger row that brought the pieces in; null for pieces the migration of older data found without one. */
    stockRecordId: integer().references(() => stockRecord.id, { onDelete: "restrict" }),
    purchaseRecordId: integer().references(() => purchaseRecord.id, { onDelete: "restrict" }),
    /** When the pieces came into stock: the order lots are taken in, oldest first, then by id. */
    bookedAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    pieces: integer().notNull(),
    piecesLeft: integer().notNull(),
    unitCostEuro: money(),
    unitCostPhp: money(),
    ...timestamps,
  },
  (t) => [
    // Every lot of a product, sold out or not: what it holds moves with the product to another category (stock_holding).
    index("stock_lot_product_idx").on(t.productId),
    index("stock_lot_product_left_idx").on(t.productId, t.bookedAt, t.id).where(sql`${t.piecesLeft} > 0`),
    // The aged-stock report's oldest lots first, a page at a time (reports/aged-stock.ts).
    index("stock_lot_booked_left_idx").on(t.bookedAt, t.id).where(sql`${t.piecesLeft} > 0`),
    index("stock_lot_purchase_record_idx").on(t.purchaseRecordId),
    index("stock_lot_stock_record_idx").on(t.stockRecordId),
    check("stock_lot_pieces_left", sql`${t.piecesLeft} >= 0 and ${t.piecesLeft} <= ${t.pieces}`),
  ],
);

/**
 * What a ledger row took from the lots or gave back to them, recorded when the row is written: a sale's line takes the
 * oldest pieces (negative `pieces`), a refund or a cancellation puts the line's pieces back into the lots they came
 * from, a write-off takes pieces like a sale. The cost of a line is the sum of its rows here: what the pieces it still
 * holds cost when they left stock, never worked out again.
 */
export const stockRecordCost = pgTable(
  "stock_record_cost",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    stockRecordId: integer()
      .notNull()
      .references(() => stockRecord.id, { onDelete: "restrict" }),
    lotId: integer()
      .notNull()
      .references(() => stockLot.id, { onDelete: "restrict" }),
    /** The order line the pieces belong to, copied from the ledger row, so that a line's cost is one index read. */
    orderItemId: integer().references(() => orderItem.id, { onDelete: "restrict" }),
    /** Signed as the ledger row: negative taken from the lot, positive given back to it. */
    pieces: integer().notNull(),
    /** The pieces at the lot's unit costs, signed as `pieces`; null when the lot's cost is unknown. */
    costEuro: money(),
    costPhp: money(),
    ...timestamps,
  },
  (t) => [
    index("stock_record_cost_order_item_idx").on(t.orderItemId),
    index("stock_record_cost_stock_record_idx").on(t.stockRecordId),
    index("stock_record_cost_lot_idx").on(t.lotId),
  ],
);

/**
 * What the lots add up to per category of their product and box of their purchase (0: none): the stock valuation and
 * the sell-through read a few hundred rows here, not every lot. Each change to a lot, made by stock/holdings.ts in the
 * transaction that makes, takes or gives back its pieces (or moves its product to another category), is a row of
 * `stock_holding_change`, which the `stock-holding-fold` job adds into these every minute; a reader adds both up.
 */
export const stockHolding = pgTable(
  "stock_holding",
  {
    categoryId: integer().notNull(),
    boxId: integer().notNull(),
    /** Every piece its lots brought in (the sell-through's "received"). */
    piecesBought: integer().notNull().default(0),
    piecesLeft: integer().notNull().default(0),
    /** The pieces left at their lots' unit costs; pieces of unknown cost are counted apart and add nothing. */
    costLeftEuro: money().notNull().default(sql`0`),
    costLeftPhp: money().notNull().default(sql`0`),
    unknownCostPiecesLeft: integer().notNull().default(0),
    /** Pieces an inventory correction took: lost, damaged, miscounted. */
    piecesWrittenOff: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.boxId] })],
);

/**
 * One change to what the lots hold in a category and box, as the transaction that moved the lots wrote it: inserted,
 * never updated, so that two changes of the same category and box never wait for each other (nor, touching several,
 * in a circle), until the fold adds them into `stock_holding`.
 */
export const stockHoldingChange = pgTable("stock_holding_change", {
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  categoryId: integer().notNull(),
  boxId: integer().notNull(),
  piecesBought: integer().notNull(),
  piecesLeft: integer().notNull(),
  costLeftEuro: money().notNull(),
  costLeftPhp: money().notNull(),
  unknownCostPiecesLeft: integer().notNull(),
  piecesWrittenOff: integer().notNull(),
  ...timestamps,
});

export const boxRelations = relations(box, ({ many }) => ({
  purchaseRecords: many(purchaseRecord),
}));

export const purchaseRecordRelations = relations(purchaseRecord, ({ one }) => ({
  product: one(product, { fields: [purchaseRecord.productId], references: [product.id] }),
  box: one(box, { fields: [purchaseRecord.boxId], references: [box.id] }),
}));

export const inventoryCorrectionRelations = relations(inventoryCorrection, ({ one }) => ({
  product: one(product, { fields: [inventoryCorrection.productId], references: [product.id] }),
}));

export const stockRecordRelations = relations(stockRecord, ({ one }) => ({
  product: one(product, { fields: [stockRecord.productId], references: [product.id] }),
  inventoryCorrection: one(inventoryCorrection, {
    fields: [stockRecord.inventoryCorrectionId],
    references: [inventoryCorrection.id],
  }),
  orderItem: one(orderItem, { fields: [stockRecord.orderItemId], references: [orderItem.id] }),
  refund: one(refund, { fields: [stockRecord.refundId], references: [refund.id] }),
  purchaseRecord: one(purchaseRecord, { fields: [stockRecord.purchaseRecordId], references: [purchaseRecord.id] }),
}));
