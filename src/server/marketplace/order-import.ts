import "server-only";
import { Decimal } from "decimal.js";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { logbook, order, orderDetail, product } from "@/server/db/schema";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import type { MarketplaceOrder, MarketplaceOrderLine, MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { logOrderChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import { insertOrder, lockProducts } from "@/server/orders/insert-order";
import { transitionOrder } from "@/server/orders/service";
import { orderTotals } from "@/server/orders/totals";
import { ORDER_FEES_FIRST_DELAY_SECONDS, orderFeesJob } from "./fees";
import { hasMarketplaceOrderEntry, logMarketplaceWarning } from "./logbook";
import { addressOf, oneLineShipTo, placeOf } from "./ship-to";

/*
 * Orders sold on the marketplace become the shop's own orders (shop EBAY, paid through EBAY), each exactly once: a
 * notification queues the import of one order at once, and a poll every minute asks for every order modified since
 * the last poll (with an overlap) as the safety net. Importing takes the pieces' stock through the ledger under the
 * products' row locks, the same locks checkout takes, so of a web order and an eBay sale racing for the last piece
 * exactly one gets it; the other is refused at checkout, or, coming from eBay, already paid there, imported with
 * the piece marked oversold and the refund proposed to staff. The buyer's address is taken in by ship-to.ts; the poll
 * is order-poll.ts.
 */

/** The marketplace account whose import watermark `marketplace_sync` keeps. */
export const MARKETPLACE_SYNC_ID = "EBAY";
/** How far back the very first poll looks. */
export const FIRST_POLL_WINDOW_MS = 24 * 60 * 60_000;

/** The product id of a SKU the shop gave (`BC-<productId>`, see offer-record.ts's productSku); null for any other. */
function productIdOfSku(sku: string | null): number | null {
  const match = sku ? /^BC-(\d{1,10})$/.exec(sku) : null;
  const id = match ? Number(match[1]) : null;
  return id !== null && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** What became of one marketplace order. */
export type MarketplaceImport =
  | { result: "imported"; orderId: number; orderNumber: string; oversold: boolean }
  | { result: "already imported"; orderId: number; orderNumber: string }
  /** Cancelled on the marketplace before the shop imported it: nothing to ship. */
  | { result: "cancelled" }
  /** The buyer has not paid yet; it comes again once the payment changes the order. */
  | { result: "awaiting payment" }
  /** None of its lines is a product of the shop (listed outside the shop): staff were told. */
  | { result: "not ours" }
  /** Its amounts are not in euro, the shop's currency: not imported, staff were told. */
  | { result: "other currency"; currencies: string[] };

/** The shop's currency: the one its orders, books and margins are in. */
const SHOP_CURRENCY = "EUR";

async function findImported(db: Db, marketplaceOrderId: string) {
  const [found] = await db
    .select({ orderId: order.id, orderNumber: order.orderNumber, status: order.status })
    .from(orderDetail)
    .innerJoin(order, eq(order.id, orderDetail.orderId))
    .where(eq(orderDetail.marketplaceOrderId, marketplaceOrderId));
  return found ?? null;
}

/** Imports of one marketplace order take turns until their transactions end. */
async function lockMarketplaceOrder(tx: Db, marketplaceOrderId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`marketplace-order/${marketplaceOrderId}`}, 0))`);
}

/** Whether the error is the unique index on `order_detail.marketplaceOrderId` refusing a second import. */
function isDuplicateImport(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as { code?: string; constraint?: string };
    if (code === "23505" && constraint === "order_detail_marketplace_order_unique") return true;
  }
  return false;
}

type MatchedLine = MarketplaceOrderLine & { productId: number; name: string };

/** The marketplace order's lines that are the shop's products, and the ones that are not. */
async function matchLines(db: Db, lines: readonly MarketplaceOrderLine[]): Promise<{ matched: MatchedLine[]; unknown: MarketplaceOrderLine[] }> {
  const ids = [...new Set(lines.map((line) => productIdOfSku(line.sku)).filter((id) => id !== null))];
  const products = ids.length > 0 ? await db.select({ id: product.id, name: product.name }).from(product).where(inArray(product.id, ids)) : [];
  const names = new Map(products.map((row) => [row.id, row.name]));
  const matched: MatchedLine[] = [];
  const unknown: MarketplaceOrderLine[] = [];
  for (const line of lines) {
    const productId = productIdOfSku(line.sku);
    const name = productId === null ? undefined : names.get(productId);
    if (productId !== null && name !== undefined && line.quantity > 0) matched.push({ ...line, productId, name });
    else unknown.push(line);
  }
  return { matched, unknown };
}

const describeLine = (line: MarketplaceOrderLine) => `"${line.title}" (SKU ${line.sku ?? "none"}, line ${line.lineItemId})`;

/**
 * Tells staff, once, about a marketplace order the shop cannot take: the logbook entry and the notification are
 * written the first time, and remembered in the logbook (recent EBAY_API entries whose state names the order under
 * `key`), which the poll's overlap and the import's retries would otherwise repeat every minute.
 */
async function reportOnce(db: Db, marketplaceOrderId: string, now: Date, key: string, report: { newState: Record<string, unknown>; description: string; message: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await lockMarketplaceOrder(tx, marketplaceOrderId);
    const [told] = await tx
      .select({ id: logbook.id })
      .from(logbook)
      .where(and(gt(logbook.createdAt, new Date(now.getTime() - 3 * FIRST_POLL_WINDOW_MS)), eq(logbook.eventType, "EBAY_API"), sql`${logbook.newState}->>${key} = ${marketplaceOrderId}`))
      .limit(1);
    if (told) return;
    await logMarketplaceWarning(tx, { newState: { [key]: marketplaceOrderId, ...report.newState }, description: report.description });
    await notifyStaff(tx, { type: "OTHER", severity: "WARNING", message: report.message });
  });
}

/** A marketplace order none of whose lines is one of the shop's products: it cannot become an order of the shop (an order line needs a product), so staff handle it on the marketplace. */
async function reportForeignOrder(db: Db, marketplaceOrder: MarketplaceOrder, now: Date): Promise<void> {
  const lines = marketplaceOrder.lines.map(describeLine).join(", ");
  await reportOnce(db, marketplaceOrder.orderId, now, "foreignMarketplaceOrderId", {
    newState: { buyer: marketplaceOrder.buyerUsername, lines: marketplaceOrder.lines },
    description: `eBay order ${marketplaceOrder.orderId} was not imported: none of its lines is a product of the shop (${lines})`,
    message: `eBay order ${marketplaceOrder.orderId} from ${marketplaceOrder.buyerUsername} is for listings the shop did not make (${lines}); handle it on eBay.`,
  });
}

/**
 * A marketplace order whose amounts are in another currency than the euro: taking its figures as euro would put a
 * wrong amount in the books, so it is not imported, and staff handle it on eBay (the listing's marketplace or the
 * seller account's currency is set wrong).
 */
async function reportOtherCurrency(db: Db, marketplaceOrder: MarketplaceOrder, now: Date): Promise<void> {
  const currencies = marketplaceOrder.currencies.join(", ");
  await reportOnce(db, marketplaceOrder.orderId, now, "otherCurrencyMarketplaceOrderId", {
    newState: { currencies: marketplaceOrder.currencies, total: marketplaceOrder.total.toFixed(2), lines: marketplaceOrder.lines.map((line) => line.lineItemId) },
    description: `eBay order ${marketplaceOrder.orderId} was not imported: its amounts are in ${currencies}, not in euro (total ${marketplaceOrder.total.toFixed(2)} ${currencies})`,
    message: `eBay order ${marketplaceOrder.orderId} was not imported: its amounts are in ${currencies}, not in euro. Handle it on eBay, and check the listing's marketplace and the account's currency.`,
  });
}

/**
 * An order the marketplace reports cancelled after the shop imported it: left as it is (the buyer's cancellation
 * may still be refused on eBay, and cancelling here gives the stock back), and staff told once while it has not
 * shipped.
 */
async function noteCancelledAfterImport(db: Db, imported: { orderId: number; orderNumber: string }, marketplaceOrderId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select({ status: order.status }).from(order).where(eq(order.id, imported.orderId)).for("update");
    if (!current || current.status === "SHIPPED" || current.status === "CANCELLED") return;
    if (await hasMarketplaceOrderEntry(tx, imported.orderId, "cancelledOnMarketplace", "true")) return;
    await logMarketplaceWarning(tx, {
      entityType: "ORDER",
      entityId: imported.orderId,
      newState: { cancelledOnMarketplace: true, marketplaceOrderId },
      description: `eBay reports order ${marketplaceOrderId} cancelled; order ${imported.orderNumber} (${current.status}) is left for staff to cancel`,
    });
    await notifyStaff(tx, {
      type: "EBAY_ORDER",
      severity: "WARNING",
      message: `eBay order ${marketplaceOrderId} was cancelled on eBay: do not ship order ${imported.orderNumber}; cancel it here so its stock comes back.`,
    });
  });
}

/**
 * Imports one marketplace order, exactly once: an order with shop EBAY, payment provider EBAY (`ebay:<orderId>`),
 * PAID_READY_TO_SHIP as of its sale on the marketplace, the ship-to address, the lines that are the shop's products
 * (others are left out and staff told), item totals from the lines' costs and shipping from the delivery cost.
 * Each line takes what is in stock through the ledger; pieces no longer in stock (sold on the web shop first) are
 * the line's `oversoldQuantity`, the order gets `oversoldAt` and staff are told to refund them. Every import raises
 * an EBAY_ORDER notification. A second import of the same order, also at the same moment, changes nothing.
 */
export async function importMarketplaceOrder(db: Db, marketplaceOrder: MarketplaceOrder, now: Date = new Date()): Promise<MarketplaceImport> {
  const existing = await findImported(db, marketplaceOrder.orderId);
  if (existing) {
    if (marketplaceOrder.cancelled) await noteCancelledAfterImport(db, existing, marketplaceOrder.orderId);
    return { result: "already imported", orderId: existing.orderId, orderNumber: existing.orderNumber };
  }
  if (marketplaceOrder.cancelled) return { result: "cancelled" };
  if (marketplaceOrder.paymentStatus === "PENDING" || marketplaceOrder.paymentStatus === "FAILED") return { result: "awaiting payment" };
  if (marketplaceOrder.currencies.some((currency) => currency !== SHOP_CURRENCY)) {
    await reportOtherCurrency(db, marketplaceOrder, now);
    return { result: "other currency", currencies: marketplaceOrder.currencies };
  }

  const { matched, unknown } = await matchLines(db, marketplaceOrder.lines);
  if (matched.length === 0) {
    await reportForeignOrder(db, marketplaceOrder, now);
    return { result: "not ours" };
  }
  try {
    return await db.transaction((tx) => insertMarketplaceOrder(tx, marketplaceOrder, matched, unknown, now));
  } catch (error) {
    if (!isDuplicateImport(error)) throw error;
    const imported = await findImported(db, marketplaceOrder.orderId);
    if (!imported) throw error;
    return { result: "already imported", orderId: imported.orderId, orderNumber: imported.orderNumber };
  }
}

async function insertMarketplaceOrder(
  tx: Db,
  marketplaceOrder: MarketplaceOrder,
  matched: MatchedLine[],
  unknown: MarketplaceOrderLine[],
  now: Date,
): Promise<MarketplaceImport> {
  await lockMarketplaceOrder(tx, marketplaceOrder.orderId);
  const again = await findImported(tx, marketplaceOrder.orderId);
  if (again) return { result: "already imported", orderId: again.orderId, orderNumber: again.orderNumber };

  // Locked as checkout locks them: the stock read here is the stock the ledger then takes from.
  const locked = await lockProducts(tx, matched.map((line) => line.productId));
  const left = new Map([...locked].map(([id, row]) => [id, row.stock]));
  const lines = matched.map((line) => {
    const inStock = Math.min(left.get(line.productId) ?? 0, line.quantity);
    left.set(line.productId, (left.get(line.productId) ?? 0) - inStock);
    return { ...line, booked: inStock, oversold: line.quantity - inStock };
  });
  const oversoldLines = lines.filter((line) => line.oversold > 0);

  const priced = lines.map((line) => ({ totalPrice: line.lineItemCost, totalDiscountAmount: new Decimal(0) }));
  const totals = orderTotals(priced, { shippingTotal: marketplaceOrder.deliveryCost, surcharge: new Decimal(0) });
  const shipTo = oneLineShipTo(marketplaceOrder.shipTo);
  const { place, shipping } = await placeOf(tx, shipTo, now);
  const email = shipTo.email ?? "";

  const { orderId, orderNumber } = await insertOrder(tx, {
    userId: null,
    bookedBy: null,
    lines: lines.map((line) => ({
      productId: line.productId,
      quantity: line.quantity,
      totalPrice: line.lineItemCost,
      totalDiscountAmount: new Decimal(0),
      marketplaceLineItemId: line.lineItemId,
      oversoldQuantity: line.oversold,
    })),
    address: addressOf(shipTo),
    email,
    shipping: { ...shipping, ...place },
    shop: "EBAY",
    provider: "EBAY",
    totals,
    externalPaymentId: `ebay:${marketplaceOrder.orderId}`,
    marketplace: { orderId: marketplaceOrder.orderId, buyer: marketplaceOrder.buyerUsername, oversoldAt: oversoldLines.length > 0 ? now : null },
  });

  const oversoldAmount = (line: (typeof lines)[number]) => line.lineItemCost.times(line.oversold).dividedBy(line.quantity).toDecimalPlaces(2);
  await logOrderChange(tx, orderId, {
    userId: null,
    logLevel: oversoldLines.length > 0 ? "WARNING" : "INFO",
    newState: {
      orderNumber,
      status: "PENDING",
      shop: "EBAY",
      marketplaceOrderId: marketplaceOrder.orderId,
      buyer: marketplaceOrder.buyerUsername,
      email,
      items: lines.map((line) => ({ productId: line.productId, quantity: line.quantity, lineTotal: line.lineItemCost, marketplaceLineItemId: line.lineItemId, oversold: line.oversold })),
      leftOut: unknown.map((line) => ({ lineItemId: line.lineItemId, sku: line.sku, title: line.title, quantity: line.quantity })),
      shipping: { method: shipping.method, cost: totals.shipping, countryCode: place.countryCode, regionCode: place.regionCode },
      paymentMethod: "EBAY",
      total: totals.total,
    },
    description: `Order ${orderNumber} imported from eBay order ${marketplaceOrder.orderId} (buyer ${marketplaceOrder.buyerUsername}) for ${formatEuro(totals.total)}${oversoldLines.length > 0 ? ", with pieces already sold on the web shop" : ""}`,
  });
  await transitionOrder(tx, orderId, "PAID_READY_TO_SHIP", { userId: null, description: `Paid on eBay (order ${marketplaceOrder.orderId}).`, now: marketplaceOrder.createdAt });
  // eBay books the sale's fees a little after the payment: read them then (fees.ts), and again until they are there.
  await enqueueJob(tx, orderFeesJob, { orderId }, { singletonKey: String(orderId), startAfter: new Date(Date.now() + ORDER_FEES_FIRST_DELAY_SECONDS * 1000) });

  const pieces = lines.reduce((sum, line) => sum + line.quantity, 0);
  await notifyStaff(tx, {
    type: "EBAY_ORDER",
    message: `New eBay order ${orderNumber} (eBay ${marketplaceOrder.orderId}) from ${marketplaceOrder.buyerUsername}: ${pieces} item${pieces === 1 ? "" : "s"} for ${formatEuro(totals.total)} to ${place.countryName}`,
  });
  if (oversoldLines.length > 0) {
    const refund = oversoldLines.map((line) => `${line.oversold} × ${line.name} (${formatEuro(oversoldAmount(line))})`).join(", ");
    await notifyStaff(tx, {
      type: "EBAY_ORDER",
      severity: "WARNING",
      message: `Order ${orderNumber} from eBay came in for pieces already sold on the web shop: refund ${refund} to the buyer; the refund is proposed on the order's page.`,
    });
  }
  if (unknown.length > 0) {
    await notifyStaff(tx, {
      type: "OTHER",
      severity: "WARNING",
      message: `Order ${orderNumber} from eBay has lines that are not products of the shop, left out of the order: ${unknown.map(describeLine).join(", ")}. Handle them on eBay.`,
    });
  }
  return { result: "imported", orderId, orderNumber, oversold: oversoldLines.length > 0 };
}

/** Imports the marketplace's orders with these ids (a notification names one). */
export async function importMarketplaceOrdersById(db: Db, port: MarketplacePort, orderIds: string[]): Promise<MarketplaceImport[]> {
  const orders = await port.getOrders({ orderIds });
  const outcomes: MarketplaceImport[] = [];
  for (const found of orders) outcomes.push(await importMarketplaceOrder(db, found));
  return outcomes;
}

/**
 * `marketplace-order-import`: the order a notification named. The marketplace may not give an order it just
 * announced yet, so one not found is asked for again a little later (and the poll finds it anyway).
 */
export const orderImportJob = defineJob({
  name: "marketplace-order-import",
  schema: z.object({ orderId: z.string().min(1).max(100) }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 120,
  async run({ orderId }, { db }) {
    const outcomes = await importMarketplaceOrdersById(db, getMarketplace(), [orderId]);
    if (outcomes.length === 0) throw new Error(`eBay does not give order ${orderId} yet; asked again later`);
  },
});
