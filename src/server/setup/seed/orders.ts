import "server-only";
import { Decimal } from "decimal.js";
import { sql, type InferInsertModel } from "drizzle-orm";
import type { OrderStatus, ShippingMethod, Shop } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { CheckoutPaymentMethod } from "@/server/checkout/schemas";
import { orderLinesOfCart } from "@/server/checkout/service";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { country, logbook, order, orderAddress, orderDetail, orderDiscount, orderItem, paymentDetail, region, shippingSurcharge } from "@/server/db/schema";
import type { DiscountUse } from "@/server/discounts/schemas";
import { gatewayForMethod } from "@/server/integrations/payments/port";
import { toLogState } from "@/server/logbook/service";
import { orderAddressValues, paymentAmounts, type OrderAddressValues } from "@/server/orders/insert-order";
import { orderMachine } from "@/server/orders/order-machine";
import { orderTotals, type PricedOrderLine } from "@/server/orders/totals";
import { priceItemsWithUses } from "@/server/pricing/service";
import type { SurchargeBand } from "@/server/shipping/schemas";
import { estimatedDeliveryDate, nextShippingDay, shippingOptionsFor, shopDateAndHour, surchargeBandFor } from "@/server/shipping/service";
import { bookStockInProductOrder } from "@/server/stock/service";
import { bulkInsert } from "./bulk-insert";
import { DAY, HOUR, MINUTE } from "./durations";
import { countryWeights, emailWord, firstNames, lastNames, paymentHabits, places, type Place } from "./order-data";
import type { ProductDraft } from "./products";
import { createRandom, type Random } from "./random";
import { customerAddresses } from "./reference-data";

/**
 * Six months of demo orders, so that the dashboard, the order lists and the charts have something to show on a fresh
 * start. The history is planned first (who buys what, when, how they pay and how far each order got), then written
 * as the shop itself would have written it: each web shop cart priced by the pricing service with the discounts in
 * force on the day, and the discounts that took money off it recorded as checkout records them (`order_discount`, so
 * that the discounts admin shows uses and revenue), each parcel by the shipping rules, totals by `orderTotals`, every
 * status change checked against the order machine and logged as `transitionOrder` logs it, and every piece leaving
 * (and a cancelled order's coming back) through the stock ledger (`bookStockInProductOrder`), in the order it happened.
 *
 * It stays cheap enough for every first start (a few hundred orders): the orders' rows and logbook entries go in a
 * few bulk statements, and only the ledger moves one by one, through `bookStock`. Writing them in bulk makes this a
 * second writer of orders beside `insertOrder` and `transitionOrder`; `order-writer.int.test.ts` writes seeded orders
 * again through those and fails when the rows differ. Their rows are then dated to the
 * moment they describe, so the logbook, the ledger and an order's timeline read like the shop's past.
 *
 * The plan also says how many pieces of each product the orders sell, so that the catalogue's purchases include
 * them (`seed.ts`): after the orders every product has the stock the catalogue gives it, and the ledger adds up.
 */

/** How far back the demo's orders go. */
const DEMO_HISTORY_DAYS = 182;
/** Unpaid orders this young are still PENDING on a fresh start; the shop's sweep expires them after its timeout. */
const PENDING_MINUTES = [6, 21, 38];
/** Orders per weekday, Sunday first: people browse for watches on Sunday evenings. */
const WEEKDAY_FACTORS = [1.4, 1.2, 1, 0.9, 0.9, 0.8, 0.7];
/** Parcels leave on Mondays, Wednesdays and Fridays, as in the demo's shipping calendar. */
const SHIPPING_WEEKDAYS = [1, 3, 5];

/** What the plan needs to know of a demo product. */
export type DemoProduct = {
  id: number;
  price: Decimal;
  /** The stock the catalogue shows once the orders are placed. */
  stock: number;
  createdAt: Date;
  webshop: boolean;
  ebay: boolean;
};

/** A catalogue product as the plan sees it. */
export function demoProduct(draft: ProductDraft): DemoProduct {
  return { id: draft.index + 1, price: draft.price, stock: draft.stock, createdAt: draft.createdAt, webshop: draft.wsStatus === "ONLINE", ebay: draft.ebayStatus === "ONLINE" };
}

/** Who an order goes to: the address as checkout takes it, its region, and how the buyer is known. */
type Buyer = OrderAddressValues & {
  stateCode: string | null;
  email: string;
  /** The signed-in demo customer; guests otherwise. */
  signedIn: boolean;
  ebayUser: string;
};

type Cancellation = { at: Date; why: "expired" | "canceled" | "failed" };

type PlannedOrder = {
  /** The order number's running part; numbers follow the order the orders were placed in. */
  number: number;
  shop: Shop;
  buyer: Buyer;
  /** The products bought, each with its list price on the day. */
  items: { productId: number; quantity: number; price: Decimal }[];
  /** The method the buyer would like; tracked shipping when untracked is not allowed for the order's value. */
  method: ShippingMethod;
  payment: CheckoutPaymentMethod | "EBAY";
  couponCode: string | undefined;
  /** The payment provider's id, or eBay's order id. */
  externalPaymentId: string;
  placedAt: Date;
  paidAt: Date | null;
  cancelled: Cancellation | null;
  /** When staff moved the shipping date on at the buyer's request (PAID_FUTURE_SHIPMENT). */
  postponedAt: Date | null;
  /** When the order was packed (and, tracked, got its label): PROCESSED. */
  packedAt: Date | null;
  shippedAt: Date | null;
  /** Hours the parcel took beyond the method's delivery days. */
  deliveryDelayHours: number;
};

export type DemoOrderPlan = {
  orders: PlannedOrder[];
  /** The shipping days (shop time, YYYY-MM-DD) from before the first order to weeks ahead: Mondays, Wednesdays, Fridays. */
  calendar: string[];
  /** Pieces of each product (by id) that the orders take for good: every order but the cancelled ones. */
  sold: Map<number, number>;
};

export type DemoOrderSummary = { orders: number; byStatus: Record<OrderStatus, number>; byShop: Record<Shop, number> };

/** A shop-time date (YYYY-MM-DD) some days from another. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function weekday(day: string): number {
  return new Date(`${day}T12:00:00Z`).getUTCDay();
}

/** The moment a shop-time clock shows this day, hour and minute. */
function shopTime(day: string, hour: number, minute: number): Date {
  const [year, month, date] = day.split("-").map(Number);
  const guess = Date.UTC(year!, month! - 1, date!, hour, minute);
  const shown = shopDateAndHour(new Date(guess)).hour;
  return new Date(guess - ((shown - hour + 24) % 24) * HOUR);
}

function later(from: Date, minMinutes: number, maxMinutes: number, rng: Random): Date {
  return new Date(from.getTime() + rng.int(minMinutes * 60, maxMinutes * 60) * 1000);
}

/** Plans the demo's orders over the products; the same seed and day give the same plan. */
export function planDemoOrders(products: DemoProduct[], options: { now: Date; seed: number }): DemoOrderPlan {
  const { now } = options;
  const rng = createRandom(options.seed + 12);
  const today = shopDateAndHour(now).date;
  const calendar: string[] = [];
  for (let offset = -DEMO_HISTORY_DAYS - 7; offset <= 70; offset++) {
    const day = addDays(today, offset);
    if (SHIPPING_WEEKDAYS.includes(weekday(day))) calendar.push(day);
  }
  const guests = guestBuyers(rng, 140);
  // Pieces sold of each product by the orders that keep them, and until when a cancelled order holds one: it takes a
  // piece of the catalogue's own stock for up to an hour.
  const sales = new Map<number, number>();
  const heldUntil = new Map<number, number>();
  const orders: PlannedOrder[] = [];

  for (const placedAt of orderTimes(rng, now)) {
    const pending = now.getTime() - placedAt.getTime() < PENDING_MINUTES.at(-1)! * MINUTE + MINUTE;
    const shop: Shop = !pending && rng.chance(0.28) ? "EBAY" : "WEBSHOP";
    const signedIn = shop === "WEBSHOP" && rng.chance(0.07);
    const buyer = signedIn ? customerBuyer(rng) : guests[Math.floor(guests.length * rng.next() ** 1.6)]!;
    const payment = shop === "EBAY" ? "EBAY" : rng.weighted(paymentHabits(buyer.countryCode));
    const cancels = !pending && shop === "WEBSHOP" && payment !== "BANKTRANSFER" && rng.chance(0.07);

    const eligible = products.filter((p) => {
      if (p.createdAt.getTime() > placedAt.getTime() - HOUR || !(shop === "EBAY" ? p.ebay : p.webshop)) return false;
      if (cancels) return p.stock >= 1 && (heldUntil.get(p.id) ?? 0) < placedAt.getTime();
      return (sales.get(p.id) ?? 0) < maxSales(p);
    });
    const items = pickItems(rng, eligible, rng.weighted([[1, 65], [2, 25], [3, 10]] as const), cancels ? () => 1 : (p) => quantityFor(rng, p, sales));
    if (items.length === 0) continue;

    const cancelled: Cancellation | null = cancels
      ? rng.chance(0.5)
        ? { at: later(placedAt, 61, 75, rng), why: "expired" }
        : { at: later(placedAt, 2, 8, rng), why: rng.chance(0.7) ? "canceled" : "failed" }
      : null;
    if (cancelled) for (const item of items) heldUntil.set(item.productId, cancelled.at.getTime());
    else for (const item of items) sales.set(item.productId, (sales.get(item.productId) ?? 0) + item.quantity);

    const planned: PlannedOrder = {
      number: orders.length + 1,
      shop,
      buyer,
      items,
      method: items.every((item) => item.price.lessThan(30)) && rng.chance(0.65) ? "UNTRACKED" : rng.chance(0.4) ? "UNTRACKED" : "TNT",
      payment,
      couponCode: shop === "WEBSHOP" && !signedIn ? coupon(rng, placedAt, now) : undefined,
      externalPaymentId: paymentId(rng, payment),
      placedAt,
      paidAt: pending || cancelled ? null : paidAt(rng, placedAt, payment, now),
      cancelled,
      postponedAt: null,
      packedAt: null,
      shippedAt: null,
      deliveryDelayHours: rng.chance(0.2) ? rng.int(20, 30) : rng.int(0, 6),
    };
    if (planned.paidAt) schedule(planned, planned.paidAt, calendar, rng, now);
    orders.push(planned);
  }
  forceRecentStatuses(orders, now);
  return { orders, calendar, sold: sales };
}

/**
 * When orders come in: more of them as the catalogue grows, most on Sunday evenings and fewest on Saturdays, now and
 * then a busy day (a newsletter, a mention on a forum); the last few just now, still unpaid.
 */
function orderTimes(rng: Random, now: Date): Date[] {
  const today = shopDateAndHour(now).date;
  const latest = now.getTime() - (PENDING_MINUTES.at(-1)! + 15) * MINUTE;
  const times: Date[] = [];
  for (let back = DEMO_HISTORY_DAYS; back >= 0; back--) {
    const day = addDays(today, -back);
    const rate = (1.8 - back / DEMO_HISTORY_DAYS) * WEEKDAY_FACTORS[weekday(day)]! * (rng.chance(0.06) ? 2.5 : 1);
    const count = Math.round(rate * (0.4 + 1.2 * rng.next()));
    const dayTimes: Date[] = [];
    for (let i = 0; i < count; i++) {
      const hour = rng.weighted([[7, 1], [8, 2], [9, 3], [10, 3], [11, 3], [12, 5], [13, 4], [14, 3], [15, 3], [16, 3], [17, 3], [18, 4], [19, 6], [20, 8], [21, 8], [22, 5], [23, 2]] as const);
      const at = shopTime(day, hour, rng.int(0, 59));
      if (at.getTime() <= latest) dayTimes.push(at);
    }
    times.push(...dayTimes.sort((a, b) => a.getTime() - b.getTime()));
  }
  return [...times, ...PENDING_MINUTES.toReversed().map((minutes) => new Date(now.getTime() - minutes * MINUTE))];
}

/** A unique watch sells once, a part a few times: restocked, as the catalogue's purchases show. */
function maxSales(p: DemoProduct): number {
  if (p.price.greaterThanOrEqualTo(150)) return 1;
  return p.price.greaterThanOrEqualTo(40) ? 2 : 5;
}

function quantityFor(rng: Random, p: DemoProduct, sales: Map<number, number>): number {
  const left = maxSales(p) - (sales.get(p.id) ?? 0);
  return p.price.lessThan(20) && rng.chance(0.25) ? Math.min(left, rng.int(2, 3)) : 1;
}

/** Distinct products, cheap parts more often than watches, as a parts shop sells. */
function pickItems(rng: Random, eligible: DemoProduct[], lines: number, quantity: (p: DemoProduct) => number) {
  const pool = eligible.map((p) => [p, p.price.lessThan(25) ? 5 : p.price.lessThan(100) ? 3 : p.price.lessThan(400) ? 1.5 : 0.7] as const);
  const items: PlannedOrder["items"] = [];
  while (items.length < lines && pool.length > 0) {
    const chosen = rng.weighted(pool);
    pool.splice(pool.findIndex(([p]) => p === chosen), 1);
    items.push({ productId: chosen.id, quantity: quantity(chosen), price: chosen.price });
  }
  return items;
}

function guestBuyers(rng: Random, count: number): Buyer[] {
  const countryEntries = Object.entries(countryWeights);
  return Array.from({ length: count }, () => {
    const countryCode = rng.weighted(countryEntries);
    const home: Place = rng.pick(places.filter((p) => p.countryCode === countryCode));
    const firstName = rng.pick(firstNames);
    const lastName = rng.pick(lastNames);
    const number = rng.chance(0.3) ? String(rng.int(1, 99)) : "";
    return {
      firstName,
      lastName,
      companyName: rng.chance(0.06) ? `${lastName} Horlogerie` : null,
      street: home.street,
      houseNumber: String(rng.int(1, 180)),
      addressLine2: null,
      postCode: home.postCode,
      city: home.city,
      countryCode,
      stateCode: home.stateCode,
      phoneNumber: rng.chance(0.7) ? `${home.phoneCode} ${rng.int(10, 99)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}` : null,
      email: `${emailWord(firstName)}.${emailWord(lastName)}${number}@example.${rng.pick(["com", "net", "org"])}`,
      signedIn: false,
      ebayUser: `${emailWord(firstName)}_${emailWord(lastName).slice(0, 5)}${rng.int(10, 99)}`,
    };
  });
}

function customerBuyer(rng: Random): Buyer {
  const address = rng.pick(customerAddresses);
  return {
    firstName: address.firstName, lastName: address.lastName, companyName: address.companyName, street: address.street,
    houseNumber: address.houseNumber, addressLine2: address.addressLine2, postCode: address.postCode, city: address.city,
    countryCode: address.countryCode, stateCode: address.stateCode, phoneNumber: address.phoneNumber, email: address.email,
    signedIn: true, ebayUser: "",
  };
}

/** Now and then a coupon: the welcome code any time, the €5 code while it runs (the last 30 days). */
function coupon(rng: Random, placedAt: Date, now: Date): string | undefined {
  if (rng.chance(0.1)) return "WELCOME10";
  if (placedAt.getTime() > now.getTime() - 29 * DAY && rng.chance(0.12)) return "CROWN5";
  return undefined;
}

function randomText(rng: Random, alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[rng.int(0, alphabet.length - 1)]).join("");
}

function paymentId(rng: Random, payment: CheckoutPaymentMethod | "EBAY"): string {
  if (payment === "EBAY") return `${rng.int(10, 29)}-${rng.int(10000, 99999)}-${rng.int(10000, 99999)}`;
  if (payment === "PAYPAL") return randomText(rng, "0123456789ABCDEFGHJKLMNPRSTUVWXY", 17);
  return `tr_${randomText(rng, "0123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ", 10)}`;
}

/** Cards and wallets are paid within minutes, eBay orders arrive paid, a bank transfer takes a day or three. */
function paidAt(rng: Random, placedAt: Date, payment: CheckoutPaymentMethod | "EBAY", now: Date): Date {
  const paid = payment === "BANKTRANSFER" ? later(placedAt, 20 * 60, 3 * 24 * 60, rng) : later(placedAt, 1, payment === "EBAY" ? 15 : 6, rng);
  return paid.getTime() < now.getTime() - 10 * MINUTE ? paid : new Date((placedAt.getTime() + now.getTime()) / 2);
}

/**
 * The order's natural course: packed on the morning of the next shipping day after it was paid (the cut-off is
 * 14:00) and handed to the carrier that afternoon, as far as that lies before now.
 */
function schedule(planned: PlannedOrder, paid: Date, calendar: string[], rng: Random, now: Date): void {
  const day = nextShippingDay(calendar, paid);
  if (!day) return;
  const packed = new Date(Math.max(shopTime(day, rng.int(9, 11), rng.int(0, 59)).getTime(), paid.getTime() + 20 * MINUTE));
  const shipped = new Date(Math.max(shopTime(day, rng.int(15, 16), rng.int(0, 59)).getTime(), packed.getTime() + 30 * MINUTE));
  if (packed < now) planned.packedAt = packed;
  if (shipped < now) planned.shippedAt = shipped;
}

/**
 * Whatever the day of the week, the newest paid orders show every open status: two waiting for the next shipping
 * day, two the buyer asked to have sent later, two packed and not yet handed over.
 */
function forceRecentStatuses(orders: PlannedOrder[], now: Date): void {
  const newest = orders.filter((o) => o.paidAt && !o.cancelled).sort((a, b) => b.paidAt!.getTime() - a.paidAt!.getTime());
  newest.slice(0, 6).forEach((o, index) => {
    const paid = o.paidAt!.getTime();
    o.shippedAt = null;
    if (index < 4) o.packedAt = null;
    if (index >= 2 && index < 4) o.postponedAt = new Date(paid + Math.min(90 * MINUTE, (now.getTime() - paid) / 2));
    if (index >= 4 && !o.packedAt) o.packedAt = new Date(paid + (now.getTime() - paid) / 2);
  });
}


// ---------------------------------------------------------------------------------------------------------------
// Writing the plan
// ---------------------------------------------------------------------------------------------------------------

type Rows = {
  orders: InferInsertModel<typeof order>[];
  items: InferInsertModel<typeof orderItem>[];
  addresses: InferInsertModel<typeof orderAddress>[];
  details: InferInsertModel<typeof orderDetail>[];
  payments: InferInsertModel<typeof paymentDetail>[];
  /** The discounts each web shop order used, as checkout records them (`insertOrder`'s `discounts`). */
  discounts: InferInsertModel<typeof orderDiscount>[];
  log: InferInsertModel<typeof logbook>[];
};

/** A stock move of the ledger: an order's pieces taken when it is placed, or given back when it is cancelled. */
type Move = { at: Date; orderNumber: string; shop: Shop; items: { id: number; productId: number; quantity: number }[]; back: boolean; userId: string | null };

type ShippingRules = {
  destinations: Map<string, Parameters<typeof shippingOptionsFor>[0] & { countryCode: string; regionCode: string | null; regionName: string | null; eu: boolean }>;
  bands: SurchargeBand[];
};

/**
 * Writes the planned orders in the caller's transaction: each priced and quoted, its rows written as they stand
 * today, its stock taken (and a cancelled one's given back) through the ledger in the order it happened, and its
 * history in the logbook. `orderNumberBase` is how many orders were numbered before (a history written first); the
 * demo's orders take the ids and numbers after it.
 */
export async function placeDemoOrders(
  tx: Db,
  plan: DemoOrderPlan,
  options: { now: Date; customerId: string; adminId: string; orderNumberBase?: number },
): Promise<DemoOrderSummary> {
  const base = options.orderNumberBase ?? 0;
  const summary: DemoOrderSummary = {
    orders: plan.orders.length,
    byStatus: { PENDING: 0, PAID_READY_TO_SHIP: 0, PAID_FUTURE_SHIPMENT: 0, PROCESSED: 0, SHIPPED: 0, CANCELLED: 0 },
    byShop: { WEBSHOP: 0, EBAY: 0 },
  };
  if (plan.orders.length === 0) return summary;

  const [marks] = await rawRows<{ item: number; ledger: number; logbook: number }>(
    tx,
    sql`select (select coalesce(max(id), 0) from order_item)::int as item, (select coalesce(max(id), 0) from stock_record)::int as ledger,
      (select coalesce(max(id), 0) from logbook)::int as logbook`,
  );
  const rules = await shippingRules(tx);
  const rows: Rows = { orders: [], items: [], addresses: [], details: [], payments: [], discounts: [], log: [] };
  const moves: Move[] = [];
  let itemId = marks!.item;
  for (const planned of plan.orders) {
    const written = await orderRows(tx, planned, { ...options, base, plan, rules, nextItemId: () => ++itemId });
    for (const key of Object.keys(rows) as (keyof Rows)[]) (rows[key] as unknown[]).push(...written.rows[key]);
    moves.push(...written.moves);
    summary.byStatus[written.status]++;
    summary.byShop[planned.shop]++;
  }
  await bulkInsert(tx, order, rows.orders);
  await bulkInsert(tx, orderItem, rows.items);
  await bulkInsert(tx, orderAddress, rows.addresses);
  await bulkInsert(tx, orderDetail, rows.details);
  await bulkInsert(tx, paymentDetail, rows.payments);
  await bulkInsert(tx, orderDiscount, rows.discounts);

  for (const move of moves.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    await bookStockInProductOrder(
      tx,
      move.items.map((item) => ({
        productId: item.productId,
        quantity: move.back ? item.quantity : -item.quantity,
        type: "ORDER_ITEM" as const,
        orderItemId: item.id,
        userId: move.userId,
        description: move.back ? `Order ${move.orderNumber} was cancelled: ${item.quantity} back in stock` : `Sold ${item.quantity}${move.shop === "EBAY" ? " on eBay" : ""} in order ${move.orderNumber}`,
      })),
    );
  }
  await dateLedger(tx, marks!.ledger, marks!.logbook);
  await bulkInsert(tx, logbook, rows.log);
  await tx.execute(sql`select setval('order_number_seq', ${base + plan.orders.length})`);
  // Staff have read what happened before yesterday; what is newer waits in the logbook as unread.
  await tx.execute(sql`
    insert into logbook_read_by_user (logbook_id, user_id, created_at, updated_at)
    select id, ${options.adminId}, created_at, created_at from logbook
    where id > ${marks!.logbook} and created_at < ${new Date(options.now.getTime() - DAY).toISOString()}::timestamptz`);
  return summary;
}

/**
 * The ledger rows `bookStock` just wrote carry the moment of seeding (the database's clock in the seed's one
 * transaction): date each to when its order was placed, or cancelled for a return, and its logbook entry and its
 * product's last change with it.
 */
async function dateLedger(tx: Db, ledgerMark: number, logbookMark: number): Promise<void> {
  await tx.execute(sql`
    update stock_record r set created_at = d.at, updated_at = d.at
    from (
      select s.id, case when s.quantity < 0 then o.created_at else o.updated_at end as at
      from stock_record s join order_item i on i.id = s.order_item_id join "order" o on o.id = i.order_id
      where s.id > ${ledgerMark}
    ) d
    where r.id = d.id`);
  await tx.execute(sql`
    update logbook l set created_at = r.created_at, updated_at = r.created_at
    from stock_record r
    where l.id > ${logbookMark} and l.event_type = 'STOCK_CHANGE' and r.id = (l.new_state ->> 'stockRecordId')::int`);
  await tx.execute(sql`
    update product p set updated_at = greatest(p.created_at, d.at)
    from (select product_id, max(created_at) as at from stock_record where id > ${ledgerMark} group by product_id) d
    where p.id = d.product_id`);
}

/** The shop's shipping settings, read once: the rules (`shippingOptionsFor`) then price every order's parcel. */
async function shippingRules(tx: Db): Promise<ShippingRules> {
  // One after the other: a transaction is one connection.
  const countryRows = await tx.select().from(country);
  const regionRows = await tx.select().from(region);
  const bands = await tx.select({ minPrice: shippingSurcharge.minPrice, maxPrice: shippingSurcharge.maxPrice, percentage: shippingSurcharge.percentage }).from(shippingSurcharge);
  const destinations: ShippingRules["destinations"] = new Map();
  for (const c of countryRows) {
    const destination = {
      countryCode: c.code, countryName: c.name, regionCode: null, regionName: null, eu: c.eu, untrackedCost: c.untrackedCost,
      tntCost: c.tntCost, untrackedEtaDays: c.untrackedEtaDays, tntEtaDays: c.tntEtaDays, maxOrderUntracked: c.maxOrderUntracked,
    };
    destinations.set(c.code, destination);
    for (const r of regionRows.filter((candidate) => candidate.countryId === c.id)) {
      destinations.set(`${c.code}:${r.code}`, { ...destination, regionCode: r.code, regionName: r.name, maxOrderUntracked: r.maxOrderUntracked ?? c.maxOrderUntracked });
    }
  }
  return { destinations, bands };
}

type OrderContext = {
  now: Date;
  customerId: string;
  adminId: string;
  base: number;
  plan: DemoOrderPlan;
  rules: ShippingRules;
  nextItemId: () => number;
};

/**
 * One planned order as the shop would hold it today: priced on the day it was placed (web shop: product, global,
 * personal and coupon discounts through the pricing service; eBay: the listing price), its parcel quoted by the
 * shipping rules, its totals from `orderTotals`, each status change checked against the order machine, and the
 * logbook entries its steps write.
 */
async function orderRows(tx: Db, planned: PlannedOrder, context: OrderContext): Promise<{ rows: Rows; moves: Move[]; status: OrderStatus }> {
  const { buyer, placedAt } = planned;
  const orderId = context.base + planned.number;
  const orderNumber = `BC-${shopDateAndHour(placedAt).date.slice(0, 4)}-${String(orderId).padStart(6, "0")}`;
  const userId = buyer.signedIn ? context.customerId : null;
  const priced = planned.shop === "WEBSHOP" ? await webshopLines(tx, planned, userId) : ebayLines(planned);
  const lines = priced.lines.map((line) => ({ ...line, id: context.nextItemId() }));

  const destination = context.rules.destinations.get(buyer.stateCode ? `${buyer.countryCode}:${buyer.stateCode}` : buyer.countryCode);
  if (!destination) throw new Error(`Demo order ${planned.number}: the shop has no shipping settings for ${buyer.countryCode}`);
  const value = lines.reduce((sum, line) => sum.plus(line.totalPrice), new Decimal(0));
  let shippingDate = nextShippingDay(context.plan.calendar, placedAt);
  const options = shippingOptionsFor(destination, value, surchargeBandFor(context.rules.bands, value), shippingDate);
  const quote = options.find((option) => option.method === planned.method && option.available) ?? options.find((option) => option.method === "TNT")!;
  const totals = orderTotals(lines, { shippingTotal: quote.cost, surcharge: quote.surcharge });
  const eu = destination.eu;

  const log: Rows["log"] = [];
  // Every entry names every column: the rows are written together (`bulkInsert`), which takes no defaults.
  const entry = (at: Date, values: Omit<InferInsertModel<typeof logbook>, "createdAt" | "updatedAt">) =>
    log.push({ previousState: null, newState: null, errorData: null, logLevel: "INFO", ...values, createdAt: at, updatedAt: at });
  const how = planned.shop === "EBAY" ? `imported from eBay (order ${planned.externalPaymentId}, buyer ${buyer.ebayUser})` : `placed by ${userId ? "a customer" : "a guest"} (${buyer.email})`;
  entry(placedAt, {
    userId, eventType: "ORDER", entityType: "ORDER", entityId: String(orderId),
    newState: toLogState({
      orderNumber, status: "PENDING", shop: planned.shop, email: buyer.email,
      items: lines.map((line) => ({ productId: line.productId, quantity: line.quantity, paid: line.totalPrice })),
      discount: priced.discount, shipping: { method: quote.method, cost: quote.cost, surcharge: quote.surcharge, countryCode: destination.countryCode, regionCode: destination.regionCode },
      paymentMethod: planned.payment, total: totals.total,
    }),
    description: `Order ${orderNumber} ${how} for ${formatEuro(totals.total)}, awaiting payment`,
  });
  if (planned.payment !== "EBAY") {
    entry(placedAt, {
      userId: null, eventType: "ORDER", entityType: "PAYMENT_DETAIL", entityId: String(orderId),
      newState: toLogState({ provider: gatewayForMethod(planned.payment), externalPaymentId: planned.externalPaymentId, status: "open" }),
      description: `Payment ${planned.externalPaymentId} started for order ${orderNumber} (${planned.payment})`,
    });
  }

  // The order's course, each step as the order machine allows it and logs it.
  let status: OrderStatus = "PENDING";
  let lastChange = placedAt;
  const move = (to: OrderStatus, at: Date, by: string | null, reason: string) => {
    orderMachine.assert(orderNumber, status, to);
    // Paying sets soldAt; an unpaid order that is cancelled never had one.
    const unpaid = status === "PENDING" && to === "CANCELLED";
    entry(at, {
      userId: by, eventType: "ORDER", entityType: "ORDER", entityId: String(orderId),
      previousState: toLogState({ status, soldAt: status === "PENDING" ? null : planned.paidAt }),
      newState: toLogState({ status: to, soldAt: unpaid ? null : planned.paidAt }),
      description: `Order ${orderNumber}: ${status} → ${to}. ${reason}`,
    });
    status = to;
    lastChange = at;
  };
  const mail = (at: Date, what: string, state: Record<string, unknown>) =>
    entry(at, { userId: null, eventType: "EMAIL", entityType: "ORDER", entityId: String(orderId), newState: toLogState({ ...state, to: buyer.email }), description: `${what} of ${orderNumber} sent to ${buyer.email}` });

  const moves: Move[] = [{ at: placedAt, orderNumber, shop: planned.shop, items: lines, back: false, userId }];
  if (planned.cancelled) {
    move("CANCELLED", planned.cancelled.at, null, cancellationReason(planned));
    moves.push({ at: planned.cancelled.at, orderNumber, shop: planned.shop, items: lines, back: true, userId: null });
  }
  const webshop = planned.shop === "WEBSHOP";
  if (planned.paidAt) {
    move("PAID_READY_TO_SHIP", planned.paidAt, null, planned.payment === "EBAY" ? `eBay order ${planned.externalPaymentId} is paid.` : `${gatewayForMethod(planned.payment)} payment ${planned.externalPaymentId} is paid.`);
    // eBay tells its buyers itself; the web shop sends its confirmation e-mail.
    if (webshop) mail(planned.paidAt, "Order confirmation e-mail", { orderEmailSent: true });
  }
  if (planned.postponedAt) {
    shippingDate = context.plan.calendar.find((day) => day >= shopDateAndHour(new Date(context.now.getTime() + 8 * DAY)).date) ?? shippingDate;
    move("PAID_FUTURE_SHIPMENT", planned.postponedAt, context.adminId, `Shipping moved to ${shippingDate}: the buyer is away until then.`);
  }
  const label = planned.packedAt && quote.method === "TNT" ? shippingLabel(destination.countryCode, eu, orderId) : null;
  if (planned.packedAt) {
    move("PROCESSED", planned.packedAt, context.adminId, label ? `${label.carrier === "UPS" ? "UPS" : "PostNL"} label ${label.trackingNumber} created.` : "Packed for untracked letter post.");
  }
  const tracked = quote.method === "TNT";
  const due = planned.shippedAt && new Date(planned.shippedAt.getTime() + quote.etaDays * DAY + planned.deliveryDelayHours * HOUR);
  const delivered = tracked && due && due.getTime() < context.now.getTime() - HOUR ? due : null;
  if (planned.shippedAt) {
    move("SHIPPED", planned.shippedAt, context.adminId, tracked ? "Handed to the carrier." : "Posted as an untracked letter.");
    if (webshop) mail(planned.shippedAt, "Shipping e-mail", { shippingEmailSent: true });
  }

  const stamp = { createdAt: placedAt, updatedAt: lastChange };
  const shipped = planned.shippedAt !== null;
  const rows: Rows = {
    orders: [{ id: orderId, orderNumber, userId, status, soldAt: planned.paidAt, ...stamp }],
    items: lines.map((line) => ({ id: line.id, orderId, productId: line.productId, quantity: line.quantity, totalPrice: line.totalPrice, totalDiscountAmount: line.totalDiscountAmount, priceOverrideReason: null, createdAt: placedAt, updatedAt: placedAt })),
    addresses: [{ orderId, ...orderAddressValues(buyer, buyer.email, destination), referenceLine: null, ...stamp }],
    details: [{
      orderId, shippingMethod: quote.method, shop: planned.shop, estimatedShippingDate: shippingDate,
      estimatedDeliveryDate: shippingDate && estimatedDeliveryDate(shippingDate, quote.etaDays),
      trackingNumber: label?.trackingNumber ?? null, labelCost: label?.labelCost ?? null, totalWeight: planned.packedAt ? priced.weight : null,
      orderEmailSent: webshop && planned.paidAt !== null, shippingEmailSent: webshop && shipped, carrier: label?.carrier ?? null,
      gcsLabelFilename: null, carrierProduct: label?.carrierProduct ?? null, carrierShipmentId: label?.trackingNumber ?? null,
      labelCreatedAt: label ? planned.packedAt : null, shippedAt: planned.shippedAt,
      trackingStatus: shipped && tracked ? (delivered ? "Delivered" : "In transit") : null,
      trackingCheckedAt: shipped && tracked ? (delivered ?? new Date(context.now.getTime() - 2 * HOUR)) : null,
      deliveredAt: delivered, invoiceNumber: null, ...stamp,
    }],
    payments: [{
      orderId, externalPaymentId: planned.externalPaymentId, provider: planned.payment, ...paymentAmounts(totals),
      providerFees: planned.paidAt ? providerFee(planned.payment, totals.total, eu) : null, ...stamp,
    }],
    // Recorded when the order was placed; a cancelled order keeps its rows (it no longer counts as a use).
    discounts: priced.discountUses.map(({ discountId, discountType, name, amount }) => ({ orderId, discountId, discountType, name, amount, createdAt: placedAt, updatedAt: placedAt })),
    log,
  };
  return { rows, moves, status };
}

function cancellationReason(planned: PlannedOrder): string {
  const { cancelled, payment, externalPaymentId } = planned;
  if (cancelled?.why === "expired" || payment === "EBAY") return "Not paid in time: the shop cancelled the payment and the order expired.";
  return `${gatewayForMethod(payment)} payment ${externalPaymentId} is ${cancelled?.why ?? "canceled"}.`;
}

type PricedLines = { lines: (PricedOrderLine & { productId: number; quantity: number })[]; discount: unknown; discountUses: DiscountUse[]; weight: number };

/** Packed weight in grams: a box, and per piece what a watch or a part weighs. */
function packedWeight(pieces: { price: Decimal; quantity: number }[]): number {
  return 150 + pieces.reduce((grams, piece) => grams + piece.quantity * (piece.price.greaterThanOrEqualTo(100) ? 180 : 40), 0);
}

/**
 * The web shop's lines as checkout writes them: each line's share of the cart discount taken off its total; and the
 * discounts that took money off the order, to record.
 */
async function webshopLines(tx: Db, planned: PlannedOrder, userId: string | null): Promise<PricedLines> {
  const { cart, discountUses } = await priceItemsWithUses(tx, planned.items, { now: planned.placedAt, imageUrl: () => "", userId: userId ?? undefined, couponCode: planned.couponCode, caller: null });
  if (cart.unavailableProductIds.length > 0) throw new Error(`Demo order ${planned.number}: products ${cart.unavailableProductIds.join(", ")} are not sold in the web shop`);
  return { lines: orderLinesOfCart(cart), discount: cart.discount, discountUses, weight: packedWeight(cart.items) };
}

/** eBay sells at the listing price, the product's price; the shop's own discounts do not apply there. */
function ebayLines(planned: PlannedOrder): PricedLines {
  return {
    lines: planned.items.map((item) => ({ productId: item.productId, quantity: item.quantity, totalPrice: item.price.times(item.quantity), totalDiscountAmount: new Decimal(0) })),
    discount: null,
    discountUses: [],
    weight: packedWeight(planned.items),
  };
}

/** What the provider keeps of a payment, roughly at its published rates. */
function providerFee(payment: CheckoutPaymentMethod | "EBAY", total: Decimal, eu: boolean): Decimal {
  const rate = (percent: string, fixed: string) => total.times(percent).dividedBy(100).plus(fixed).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  switch (payment) {
    case "IDEAL":
    case "EPS":
      return new Decimal("0.29");
    case "BANCONTACT":
      return new Decimal("0.39");
    case "KBC":
    case "BELFIUS":
    case "BANKTRANSFER":
      return new Decimal("0.25");
    case "PAYPAL":
      return eu ? rate("2.49", "0.35") : rate("3.49", "0.39");
    case "KLARNAPAYNOW":
    case "KLARNASLICEIT":
      return rate("2.99", "0.35");
    case "EBAY":
      return rate("12.9", "0.35");
    default:
      return eu ? rate("1.8", "0.25") : rate("2.9", "0.25");
  }
}

/**
 * The label a tracked parcel gets: PostNL at home and in the EU (3085 standard parcel, 4907 EU parcel), UPS beyond
 * (11 Standard to Europe, 65 Saver overseas). Numbers are made up in the carriers' formats; no label file is stored.
 */
function shippingLabel(countryCode: string, eu: boolean, orderId: number) {
  const serial = String((orderId * 7_919) % 1_000_000_000).padStart(9, "0");
  if (eu) {
    const home = countryCode === "NL";
    return { carrier: "POSTNL" as const, carrierProduct: home ? "3085" : "4907", trackingNumber: `3SDEVC${serial}`, labelCost: new Decimal(home ? "6.95" : "13.25") };
  }
  const overseas = !["GB", "CH", "NO"].includes(countryCode);
  const service = overseas ? "65" : "11";
  return { carrier: "UPS" as const, carrierProduct: service, trackingNumber: `1Z8E4W17${service}${serial.slice(1)}`, labelCost: new Decimal(overseas ? "38.90" : "24.50") };
}
