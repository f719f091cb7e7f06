import "server-only";
import { Decimal } from "decimal.js";
import type { OrderStatus, ShippingMethod, Shop } from "@/lib/enums";
import type { CheckoutPaymentMethod } from "@/server/checkout/schemas";
import type { OrderAddressValues } from "@/server/orders/insert-order";
import { nextShippingDay, shopDateAndHour } from "@/server/shipping/service";
import { DAY, HOUR, MINUTE } from "./durations";
import { countryWeights, emailWord, firstNames, lastNames, paymentHabits, places, type Place } from "./order-data";
import type { ProductDraft } from "./products";
import { createRandom, type Random } from "./random";
import { customerAddresses } from "./reference-data";

/**
 * The plan of the demo's orders (`orders.ts` writes it): who buys what and when, how they pay and how far each order
 * got, from a seeded random source, so the same seed and day give the same history. The plan also says how many
 * pieces of each product the orders sell, so that the catalogue's purchases include them (`seed.ts`): after the
 * orders every product has the stock the catalogue gives it, and the ledger adds up.
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

export type PlannedOrder = {
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

