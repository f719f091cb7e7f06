import { Decimal } from "decimal.js";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DeliveryMethod } from "@/lib/enums";
import { checkoutQuote, placeOrder, type Buyer } from "@/server/checkout/service";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { adminNotification, cartItem, discount, order, orderItem, paymentDetail, product, stockRecord, user } from "@/server/db/schema";
import { surchargeBands } from "@/server/setup/seed/reference-data";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { queryRows } from "../../../tests/helpers/test-database";

/**
 * Placing orders (issue 5, acceptance 2 and 5): many buyers racing for the last piece, and the totals of every
 * combination of discount type, shipping method and surcharge band the seed allows. Run on PostgreSQL too with
 * TEST_DATABASE_URL set.
 */

// Wednesday 4 March 2026, 10:00 in Amsterdam: a shipping day before the cut-off.
const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });

const address = {
  firstName: "Ada",
  lastName: "Lovelace",
  street: "Keizersgracht",
  houseNumber: "1",
  postCode: "1015 CJ",
  city: "Amsterdam",
  countryCode: "NL",
};

function orderInput(overrides: Partial<PlaceOrderInput>): PlaceOrderInput {
  return { email: "buyer@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", ...overrides };
}

/** A guest placing an order through checkout at `now`. */
function guestCheckout(overrides: Partial<PlaceOrderInput>) {
  return placeOrder(t.db, orderInput(overrides), { userId: null }, now);
}

async function discountId(name: string): Promise<number> {
  const [row] = await t.db.select({ id: discount.id }).from(discount).where(eq(discount.name, name));
  return row!.id;
}

async function makeUser(email: string, discountName?: string): Promise<string> {
  const [row] = await t.db
    .insert(user)
    .values({ email, name: email, discountId: discountName ? await discountId(discountName) : null })
    .returning({ id: user.id });
  return row!.id;
}

describe("placing an order", () => {
  it("gives the last piece to exactly one of 20 buyers racing for it, and the ledger adds up to the stock", async () => {
    const last = await makeStockedProduct(t.db, { name: "Last Seiko 7S26 crown", price: "45.00", stock: 1 });
    const attempts = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => guestCheckout({ email: `racer${index}@example.com`, items: [{ productId: last.id, quantity: 1 }] })));
    const placed = attempts.filter((attempt) => attempt.status === "fulfilled");
    const refused = attempts.filter((attempt): attempt is PromiseRejectedResult => attempt.status === "rejected");
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const attempt of refused) expect(attempt.reason).toMatchObject({ code: "CONFLICT" });

    const orders = await t.db.select({ id: orderItem.orderId }).from(orderItem).where(eq(orderItem.productId, last.id));
    expect(orders).toHaveLength(1);
    const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, last.id));
    expect(row!.stock).toBe(0);
    const [ledger] = await queryRows<{ total: string | number }>(
      t.db,
      sql`select coalesce(sum(${stockRecord.quantity}), 0) as total from ${stockRecord} where ${stockRecord.productId} = ${last.id}`,
    );
    expect(Number(ledger!.total)).toBe(row!.stock);
  });

  it("creates a PENDING order with a BC number, its items, payment detail and a staff notification", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Vostok Amphibia", price: "69.00", stock: 3 });
    const strap = await makeStockedProduct(t.db, { name: "NATO strap", price: "12.50", stock: 5 });
    const placed = await guestCheckout({ items: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 2 }], shippingMethod: "UNTRACKED" });
    expect(placed.orderNumber).toMatch(/^BC-2026-\d{6}$/);
    const [created] = await t.db.select().from(order).where(eq(order.id, placed.orderId));
    expect(created!.status).toBe("PENDING");
    expect(created!.soldAt).toBeNull();
    const [payment] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, placed.orderId));
    expect(payment!.total.toFixed(2)).toBe("98.50"); // 69.00 + 2 × 12.50 + 4.50 untracked to NL
    const [stock] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, strap.id));
    expect(stock!.stock).toBe(3);
    const notes = await t.db.select({ message: adminNotification.message }).from(adminNotification).where(eq(adminNotification.type, "ORDER"));
    expect(notes.some((note) => note.message.includes(placed.orderNumber))).toBe(true);
  });

  it("refuses an empty cart, an invalid coupon and untracked post above the country's limit", async () => {
    await expect(guestCheckout({ items: [] })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "Your cart is empty" });
    const part = await makeStockedProduct(t.db, { name: "Crown tube", price: "150.00", stock: 2 });
    const items = [{ productId: part.id, quantity: 1 }];
    await expect(guestCheckout({ items, couponCode: "SUMMER24" })).rejects.toMatchObject({ message: "The code SUMMER24 is not valid." });
    await expect(guestCheckout({ items, shippingMethod: "UNTRACKED" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, part.id));
    expect(row!.stock).toBe(2);
  });
});

describe("the checkout's quote", () => {
  it("prices the cart before a destination is chosen, then adds each method's cost and dates for it", async () => {
    const part = await makeStockedProduct(t.db, { name: "Balance staff", price: "60.00", stock: 3 });
    const items = [{ productId: part.id, quantity: 2 }];
    const bare = await checkoutQuote(t.db, { items, couponCode: "WELCOME10" }, { userId: null }, { now });
    expect(bare.shipping).toBeNull();
    expect(bare.cart.coupon?.code).toBe("WELCOME10");
    expect(bare.cart.total.toFixed(2)).toBe("108.00");
    expect(bare.totals).toEqual([]);

    const nl = await checkoutQuote(t.db, { items, countryCode: "NL", couponCode: "WELCOME10" }, { userId: null }, { now });
    const [untracked, tnt] = nl.shipping!.options;
    // €108 is above the Netherlands' untracked limit of €100, and in the 2% band.
    expect(untracked).toMatchObject({ method: "UNTRACKED", available: false });
    expect(untracked!.unavailableReason).toContain("€100.00");
    expect(tnt).toMatchObject({ method: "TNT", available: true });
    expect(tnt!.surcharge.toFixed(2)).toBe("2.16");
    expect(tnt!.cost.toFixed(2)).toBe("11.11");
    expect(tnt!.estimatedDeliveryDate).not.toBeNull();
    // The order's totals with each method it allows, which the summary shows as they are.
    const money = (totals: Record<string, Decimal>) => Object.fromEntries(Object.entries(totals).map(([name, amount]) => [name, amount.toFixed(2)]));
    expect(nl.totals.map((entry) => ({ method: entry.method, totals: money(entry.totals) }))).toEqual([
      { method: "TNT", totals: { items: "120.00", discount: "12.00", shipping: "8.95", surcharge: "2.16", total: "119.11" } },
    ]);
  });

  it("asks for a state or province where the country has them, and says that an expired code does not apply, as it says of any code that does not (N-L5)", async () => {
    const part = await makeStockedProduct(t.db, { name: "Mainspring", price: "20.00", stock: 3 });
    const items = [{ productId: part.id, quantity: 1 }];
    await expect(checkoutQuote(t.db, { items, countryCode: "US" }, { userId: null }, { now })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("state or province") });
    const quote = await checkoutQuote(t.db, { items, countryCode: "US", stateCode: "NY", couponCode: "SUMMER24" }, { userId: null }, { now });
    expect(quote.shipping?.regionName).toBe("New York");
    expect(quote.cart.coupon).toBeNull();
    expect(quote.cart.couponMessage).toBe("The code SUMMER24 is not valid.");
  });
});

// The seed's discounts in force (GLOBAL ones are all expired, future or paused there), and what each takes off a
// one-piece cart at price P.
type DiscountCase = { type: string; productDiscount?: string; userDiscount?: string; coupon?: string; value: (price: Decimal) => Decimal };
const discountCases: DiscountCase[] = [
  { type: "none", value: (p) => p },
  { type: "PRODUCT percent", productDiscount: "Spring clear-out 15%", value: (p) => p.times("0.85") },
  { type: "PRODUCT fixed", productDiscount: "€5 off selected parts", value: (p) => p.minus(5) },
  { type: "USER percent", userDiscount: "Loyal collector 10%", value: (p) => p.times("0.9") },
  { type: "USER fixed", userDiscount: "Watchmaker trade €20", value: (p) => p.minus(20) },
  { type: "COUPON percent", coupon: "WELCOME10", value: (p) => p.times("0.9") },
  { type: "COUPON fixed", coupon: "crown5", value: (p) => p.minus(5) },
];
// The seed's surcharge bands, for the Netherlands (untracked €4.50, TNT €8.95, untracked up to €100), each with a
// price that stays inside the band after any of the discounts above.
const priceInBandFrom: Record<string, string> = { "0.00": "50.00", "100.00": "180.00", "250.00": "400.00", "500.00": "800.00" };
const bands = surchargeBands.map((band) => ({
  band: `from €${band.minPrice} (${new Decimal(band.percentage).times(100).toString()}%)`,
  price: priceInBandFrom[band.minPrice]!,
  rate: band.percentage,
}));
const methods: { method: DeliveryMethod; cost: string }[] = [
  { method: "UNTRACKED", cost: "4.50" },
  { method: "TNT", cost: "8.95" },
];
const combinations = discountCases.flatMap((d) => bands.flatMap((b) => methods.map((m) => ({ ...d, ...b, ...m }))));

describe("order totals for every discount type, shipping method and surcharge band", () => {
  it.each(combinations)("$type, $band, $method", async (combination) => {
    const item = await makeStockedProduct(t.db, {
      name: `${combination.type} ${combination.band} ${combination.method}`,
      price: combination.price,
      stock: 1,
      discountId: combination.productDiscount ? await discountId(combination.productDiscount) : undefined,
    });
    let buyer: Buyer = { userId: null };
    let items = [{ productId: item.id, quantity: 1 }];
    if (combination.userDiscount) {
      buyer = { userId: await makeUser(`${item.id}@example.com`, combination.userDiscount) };
      await t.db.insert(cartItem).values({ userId: buyer.userId!, productId: item.id, quantity: 1 });
      items = [];
    }
    const value = combination.value(new Decimal(combination.price)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const attempt = placeOrder(t.db, orderInput({ items, shippingMethod: combination.method, couponCode: combination.coupon }), buyer, now);
    if (combination.method === "UNTRACKED" && value.greaterThan(100)) {
      await expect(attempt).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("please choose a tracked parcel") });
      return;
    }
    const placed = await attempt;
    const shipping = new Decimal(combination.cost).plus(value.times(combination.rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
    expect(placed.total.toFixed(2)).toBe(value.plus(shipping).toFixed(2));

    const [payment] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, placed.orderId));
    expect(payment!.itemTotal.toFixed(2)).toBe(combination.price);
    expect(payment!.itemTotalDiscountAmount.toFixed(2)).toBe(new Decimal(combination.price).minus(value).toFixed(2));
    expect(payment!.shippingTotal.toFixed(2)).toBe(shipping.toFixed(2));
    expect(payment!.total.toFixed(2)).toBe(placed.total.toFixed(2));
    const lines = await t.db.select({ totalPrice: orderItem.totalPrice }).from(orderItem).where(eq(orderItem.orderId, placed.orderId));
    expect(lines.reduce((sum, line) => sum.plus(line.totalPrice), new Decimal(0)).toFixed(2)).toBe(value.toFixed(2));
    if (buyer.userId) expect(await t.db.select().from(cartItem).where(eq(cartItem.userId, buyer.userId))).toHaveLength(0);
  });
});
