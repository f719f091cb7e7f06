import { Decimal } from "decimal.js";
import { and, eq, gte, inArray, lt, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Shop } from "@/lib/enums";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { box, inventoryCorrection, order, orderDetail, orderItem, purchaseRecord, refund, stockRecord } from "@/server/db/schema";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { fifoCosts, keptPieces, type FifoCost, type FifoLot, type FifoOutflow } from "@/server/margins/fifo";

/*
 * Today's figures before issue 29, kept as the oracle the one-time backfill (src/server/margins/cost-layers-backfill.ts)
 * is held against: the purchase cost of what paid orders sold, first bought first sold (the rule of
 * src/server/margins/fifo.ts) worked out from the whole history when asked, as the shop did until each piece's cost was
 * recorded when it moved. Only the exact path remains: per product, the pieces that left its pool before a range
 * summed from its earlier sales and write-offs.
 */


/** Orders that are sales: paid, and not cancelled since (cancelling gave their pieces back). */
const soldOrder: SQL = inArray(order.status, [...paidOrderStatuses]);

/** From `from` (inclusive) to `to` (exclusive). */
type MarginRange = { from: Date; to: Date };
type Range = MarginRange;


const paidIn = (range: Range): SQL => and(soldOrder, gte(order.soldAt, range.from), lt(order.soldAt, range.to))!;

/** Ids as one array parameter: a range can name more orders or products than a query may have parameters. */
const idArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(",")}}`}::int[]`;

/** The product is one of these. */
const anyProduct = (column: AnyColumn, productIds: readonly number[]): SQL => sql`${column} = any(${idArray(productIds)})`;

/**
 * Pieces of each order line that refunds put back in stock, as the ledger has them: the refunds' REFUND rows (booked
 * when the money went back, taken out again when a provider later refused it). Found from the few restocking refunds
 * through each product's ledger index, never by reading the whole ledger.
 */
function restockedPerLine(db: Db) {
  return db
    .select({ orderItemId: refund.refundedOrderItemId, pieces: sql<string>`sum(${stockRecord.quantity})`.as("restocked_pieces") })
    .from(refund)
    .innerJoin(orderItem, eq(orderItem.id, refund.refundedOrderItemId))
    .innerJoin(
      stockRecord,
      and(eq(stockRecord.productId, orderItem.productId), eq(stockRecord.refundId, refund.id), eq(stockRecord.type, "REFUND")),
    )
    .where(eq(refund.restockedProduct, true))
    .groupBy(refund.refundedOrderItemId)
    .as("restocked");
}

/** The month of a moment in shop time, "2026-03". */
const shopMonth = (column: AnyColumn) => sql<string>`to_char(${column} at time zone ${SHOP_TIME_ZONE}, 'YYYY-MM')`;

/**
 * The lines of the orders paid in the range (of the given products only, when given): what was paid for them, what
 * came back, and the order's month (shop time) and channel. A dashboard's range holds tens of thousands of lines, so
 * the orders are found first (by when they were paid) and their lines by the orders' ids, which the planner reads
 * through the lines' order index instead of scanning every line; both are read as the driver returns them, without
 * the query builder's mapping of each field.
 */
export async function salesIn(db: Db, range: Range, productIds?: readonly number[]) {
  const orders = await rawRows<{ id: number; soldAt: Date | string; month: string }>(
    db,
    sql`select ${order.id} as "id", ${order.soldAt} as "soldAt", ${shopMonth(order.soldAt)} as "month" from ${order} where ${paidIn(range)}`,
  );
  if (orders.length === 0) return [];
  const paid = new Map(orders.map((row) => [row.id, { soldAt: new Date(row.soldAt), month: row.month }]));
  const restocked = restockedPerLine(db);
  const lines = await rawRows<{ orderItemId: number; orderId: number; productId: number; shop: Shop; quantity: number; restockedPieces: number; totalPrice: string }>(
    db,
    sql`select ${orderItem.id} as "orderItemId", ${orderItem.orderId} as "orderId", ${orderItem.productId} as "productId", ${orderDetail.shop} as "shop",
          ${orderItem.quantity} as "quantity", coalesce(${restocked.pieces}, 0)::int as "restockedPieces", ${orderItem.totalPrice} as "totalPrice"
        from ${orderItem}
        inner join ${orderDetail} on ${orderDetail.orderId} = ${orderItem.orderId}
        left join ${restocked} on ${restocked.orderItemId} = ${orderItem.id}
        where ${orderItem.orderId} = any(${idArray([...paid.keys()])})${productIds ? sql` and ${orderItem.productId} = any(${idArray(productIds)})` : sql``}`,
  );
  return lines.map((line) => ({ ...line, ...paid.get(line.orderId)!, totalPrice: new Decimal(line.totalPrice) }));
}

type SaleRow = Awaited<ReturnType<typeof salesIn>>[number];

/** The kept pieces of these sales per product. */
function keptPerProduct(sales: readonly Pick<SaleRow, "productId" | "quantity" | "restockedPieces">[]): Map<number, number> {
  const kept = new Map<number, number>();
  for (const sale of sales) kept.set(sale.productId, (kept.get(sale.productId) ?? 0) + keptPieces({ pieces: sale.quantity, restockedPieces: sale.restockedPieces }));
  return kept;
}

/**
 * The purchases of the products that are in stock's pool: those in EXPLODED boxes, which `explodeBox` booked into
 * stock, all of a box's purchases at once, at the moment the box's row last changed (an exploded box never changes
 * again). Read through the boxes rather than the ledger's PURCHASE_RECORD rows: the same pieces and moment, at a
 * third of the cost for a dashboard's tens of thousands of products.
 */
async function lotsOf(db: Db, productIds: readonly number[]): Promise<Map<number, FifoLot[]>> {
  const rows = await rawRows<{ productId: number; purchaseRecordId: number; bookedAt: Date | string; pieces: number; unitCostEuro: string; unitCostPhp: string }>(
    db,
    sql`select ${purchaseRecord.productId} as "productId", ${purchaseRecord.id} as "purchaseRecordId", ${box.updatedAt} as "bookedAt",
          ${purchaseRecord.purchasedStock} as "pieces", ${purchaseRecord.purchaseCostEuro} as "unitCostEuro", ${purchaseRecord.purchaseCostPhp} as "unitCostPhp"
        from ${purchaseRecord}
        inner join ${box} on ${box.id} = ${purchaseRecord.boxId}
        where ${box.status} = 'EXPLODED' and ${anyProduct(purchaseRecord.productId, productIds)}`,
  );
  return groupBy(
    rows.map((row) => ({
      productId: row.productId,
      purchaseRecordId: row.purchaseRecordId,
      bookedAt: new Date(row.bookedAt),
      pieces: row.pieces,
      unitCostEuro: new Decimal(row.unitCostEuro),
      unitCostPhp: new Decimal(row.unitCostPhp),
    })),
    (row) => row.productId,
  );
}

/** The inventory corrections of the products, both ways: up (pieces found) and down (written off: damaged, lost). */
async function correctionsOf(db: Db, productIds: readonly number[]) {
  const rows = await db
    .select({ id: inventoryCorrection.id, productId: inventoryCorrection.productId, at: inventoryCorrection.createdAt, quantity: inventoryCorrection.quantity })
    .from(inventoryCorrection)
    .where(anyProduct(inventoryCorrection.productId, productIds));
  return groupBy(rows, (row) => row.productId);
}

type Corrections = Awaited<ReturnType<typeof correctionsOf>>;

const writtenOff = (corrections: Corrections, productId: number, keep: (at: Date) => boolean) =>
  (corrections.get(productId) ?? []).reduce((pieces, row) => pieces + (row.quantity < 0 && keep(row.at) ? -row.quantity : 0), 0);

/** Per product, the pieces that left its pool before `before`, summed from its earlier sales and write-offs. */
async function consumedBeforeFromHistory(db: Db, before: Date, productIds: readonly number[], corrections: Corrections): Promise<Map<number, number>> {
  const restocked = restockedPerLine(db);
  const rows = await db
    .select({
      productId: orderItem.productId,
      quantity: sql<number>`sum(${orderItem.quantity})`.mapWith(Number),
      restockedPieces: sql<number>`coalesce(sum(${restocked.pieces}), 0)`.mapWith(Number),
    })
    .from(orderItem)
    .innerJoin(order, eq(order.id, orderItem.orderId))
    .leftJoin(restocked, eq(restocked.orderItemId, orderItem.id))
    .where(and(soldOrder, lt(order.soldAt, before), anyProduct(orderItem.productId, productIds)))
    .groupBy(orderItem.productId);
  const sold = keptPerProduct(rows);
  return new Map(productIds.map((productId) => [productId, (sold.get(productId) ?? 0) + writtenOff(corrections, productId, (at) => at < before)]));
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * The FIFO cost of each sale in `sales`, which must hold every line paid in the range of the products it names.
 */
export async function costSales(db: Db, range: Range, sales: readonly SaleRow[]): Promise<Map<number, FifoCost>> {
  const productIds = [...new Set(sales.map((sale) => sale.productId))];
  if (productIds.length === 0) return new Map();
  const [lots, corrections] = await Promise.all([lotsOf(db, productIds), correctionsOf(db, productIds)]);
  const before = await consumedBeforeFromHistory(db, range.from, productIds, corrections);
  const costs = new Map<number, FifoCost>();
  for (const [productId, productSales] of groupBy(sales, (sale) => sale.productId)) {
    const outflows: FifoOutflow[] = productSales.map((sale) => ({
      kind: "SALE",
      id: sale.orderItemId,
      at: sale.soldAt,
      pieces: sale.quantity,
      restockedPieces: sale.restockedPieces,
    }));
    for (const correction of corrections.get(productId) ?? []) {
      if (correction.quantity < 0 && correction.at >= range.from && correction.at < range.to) {
        outflows.push({ kind: "WRITE_OFF", id: correction.id, at: correction.at, pieces: -correction.quantity });
      }
    }
    for (const cost of fifoCosts(lots.get(productId) ?? [], outflows, { consumedBefore: before.get(productId) ?? 0 })) {
      if (cost.kind === "SALE") costs.set(cost.id, cost);
    }
  }
  return costs;
}
