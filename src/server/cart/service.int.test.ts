import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_CART_LINES } from "@/lib/cart";
import { hitRateLimit } from "@/server/rate-limit/service";
import { postalAddressInput } from "@/server/account/schemas";
import { cartItem, discount, user } from "@/server/db/schema";
import { insertOrder, lockStock } from "@/server/orders/insert-order";
import { transitionOrder } from "@/server/orders/service";
import { orderTotals } from "@/server/orders/totals";
import { priceItemsWithUses } from "@/server/pricing/service";
import { logger } from "@/server/logger";
import { createCaller } from "@/server/root";
import type { TRPCContext } from "@/server/trpc";
import { makeDiscount, makeProducts, makeStockedProduct } from "../../../tests/helpers/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { codeOf } from "../../../tests/helpers/refusals";

let t: TestDatabase;

/**
 * A guest's paid order of one new part with `code`, written by `insertOrder` as checkout writes it (its use recorded
 * in `order_discount`) and paid, since only paid orders use a coupon. This file's database has no shipping settings,
 * so the order ships free to a quote written out.
 */
async function orderUsing(code: string): Promise<void> {
  const part = await makeStockedProduct(t.db, { name: `Part ordered with ${code}`, price: "30.00", stock: 1 });
  const items = [{ productId: part.id, quantity: 1 }];
  const { cart, discountUses } = await priceItemsWithUses(t.db, items, { now: new Date(), imageUrl: () => "", couponCode: code, caller: null });
  expect(cart.coupon?.code).toBe(code);
  const lines = [{ ...items[0]!, totalPrice: cart.total, totalDiscountAmount: part.price.minus(cart.total) }];
  await t.db.transaction(async (tx) => {
    await lockStock(tx, lines, () => "Out of stock.");
    const { orderId } = await insertOrder(tx, {
      userId: null,
      bookedBy: null,
      lines,
      address: postalAddressInput.parse({ firstName: "Ada", lastName: "Lovelace", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "NL" }),
      email: "ada@example.com",
      shipping: { method: "UNTRACKED", estimatedDeliveryDate: null, countryCode: "NL", countryName: "Netherlands", regionCode: null, regionName: null, estimatedShippingDate: null },
      shop: "WEBSHOP",
      provider: "IDEAL",
      totals: orderTotals(lines, { shippingTotal: new Decimal(0), surcharge: new Decimal(0) }),
      discounts: discountUses,
    });
    await transitionOrder(tx, orderId, "PAID_READY_TO_SHIP", { userId: null, description: "Test: paid." });
  });
}
let userId: string;
let crown: { id: number };
let crystal: { id: number };
let lastOne: { id: number };
let onSale: { id: number };
let offline: { id: number };

function context(signedIn: boolean): TRPCContext {
  return {
    db: t.db,
    session: signedIn ? { user: { id: userId, name: "Clara", email: "clara@example.com", image: null, role: "USER" }, expires: new Date(Date.now() + 60_000) } : null,
    caller: { client: "203.0.113.9", visitorId: null },
    requestId: "test",
    log: logger,
    headers: new Headers(),
  };
}
const customer = () => createCaller(context(true));
const visitor = () => createCaller(context(false));

beforeAll(async () => {
  t = await createTestDatabase();
  const [row] = await t.db.insert(user).values({ email: "clara@example.com", name: "Clara" }).returning();
  userId = row!.id;
  crown = await makeStockedProduct(t.db, { name: "Omega crown", price: "40.00", stock: 5 });
  crystal = await makeStockedProduct(t.db, { name: "Seiko crystal", price: "25.50", stock: 10 });
  lastOne = await makeStockedProduct(t.db, { name: "Rolex dial", price: "300.00", stock: 1 });
  const sale = await makeDiscount(t.db, { value: "0.20", pricingType: "PERCENT", discountType: "PRODUCT" });
  onSale = await makeStockedProduct(t.db, { name: "Hirsch strap", price: "50.00", stock: 4, discountId: sale.id });
  offline = await makeStockedProduct(t.db, { name: "Withdrawn movement", price: "90.00", stock: 3, wsStatus: "OFFLINE" });
  await makeDiscount(t.db, { name: "WELCOME10", value: "0.10", pricingType: "PERCENT", discountType: "COUPON" });
  await makeDiscount(t.db, { name: "CROWN5", value: "5.00", pricingType: "FIXED", discountType: "COUPON" });
  await makeDiscount(t.db, { name: "SUMMER24", value: "0.15", pricingType: "PERCENT", discountType: "COUPON", expiresAt: new Date(Date.now() - 86_400_000) });
  await makeDiscount(t.db, { name: "XMAS20", value: "0.20", pricingType: "PERCENT", discountType: "COUPON", startsAt: new Date(Date.now() + 86_400_000) });
  await makeDiscount(t.db, { name: "FAIR2023", value: "7.50", pricingType: "FIXED", discountType: "COUPON", active: false });
});

afterAll(async () => {
  await t?.dispose();
});

beforeEach(async () => {
  await t.db.delete(cartItem).where(eq(cartItem.userId, userId));
  await t.db.update(user).set({ discountId: null }).where(eq(user.id, userId));
});

describe("shared.cart.* needs a session", () => {
  it("answers every cart procedure without a session with UNAUTHORIZED", async () => {
    expect(await codeOf(visitor().shared.cart.get())).toBe("UNAUTHORIZED");
    expect(await codeOf(visitor().shared.cart.update({ update: { productId: crown.id, quantity: 1 } }))).toBe("UNAUTHORIZED");
    expect(await codeOf(visitor().shared.cart.delete({ productId: crown.id }))).toBe("UNAUTHORIZED");
    expect(await codeOf(visitor().shared.cart.merge({ currentCart: [{ productId: crown.id, quantity: 1 }] }))).toBe("UNAUTHORIZED");
    expect(await codeOf(visitor().shared.cart.discountValidate({ code: "WELCOME10" }))).toBe("UNAUTHORIZED");
  });
});

describe("the server prices the cart", () => {
  it("ignores prices the browser sends when merging and quoting", async () => {
    const tampered = [
      { productId: crown.id, quantity: 2, price: "0.01", name: "Omega crown" },
      { productId: crystal.id, quantity: 1, price: "0.01", unitPrice: "0.01", total: "0.01" },
    ];
    await customer().shared.cart.merge({ currentCart: tampered });
    const cart = await customer().shared.cart.get();
    expect(cart.items.map((line) => [line.productId, line.unitPrice.toFixed(2), line.quantity])).toEqual([
      [crown.id, "40.00", 2],
      [crystal.id, "25.50", 1],
    ]);
    expect(cart.subtotal.toFixed(2)).toBe("105.50");
    expect(cart.total.toFixed(2)).toBe("105.50");

    const quote = await visitor().shared.pricing.quote({ items: tampered });
    expect(quote.total.toFixed(2)).toBe("105.50");
  });

  it("applies a product's sale price to its line", async () => {
    const { cart } = await customer().shared.cart.update({ update: { productId: onSale.id, quantity: 2 } });
    expect(cart.items[0]).toMatchObject({ discountLabel: "-20%" });
    expect(cart.items[0]!.unitPrice.toFixed(2)).toBe("40.00");
    expect(cart.subtotal.toFixed(2)).toBe("80.00");
  });

  it("leaves out products the shop no longer sells", async () => {
    const quote = await visitor().shared.pricing.quote({ items: [{ productId: offline.id, quantity: 1 }, { productId: crown.id, quantity: 1 }] });
    expect(quote.items.map((line) => line.productId)).toEqual([crown.id]);
    expect(quote.unavailableProductIds).toEqual([offline.id]);
    expect(await codeOf(customer().shared.cart.update({ update: { productId: offline.id, quantity: 1 } }))).toBe("NOT_FOUND");
  });
});

describe("quantities", () => {
  it("changes a line by a delta and removes it at zero", async () => {
    await customer().shared.cart.update({ update: { productId: crown.id, quantity: 3 } });
    let { cart } = await customer().shared.cart.update({ update: { productId: crown.id, quantity: -1 } });
    expect(cart.items[0]?.quantity).toBe(2);
    ({ cart } = await customer().shared.cart.update({ update: { productId: crown.id, quantity: -2 } }));
    expect(cart.items).toEqual([]);
  });

  it("never holds more than the stock and says so", async () => {
    const result = await customer().shared.cart.update({ update: { productId: lastOne.id, quantity: 3 } });
    expect(result.cart.items[0]?.quantity).toBe(1);
    expect(result.notice).toBe('Only 1 of "Rolex dial" in stock: your cart holds 1.');
  });

  it("adds merged quantities to the saved ones, held to the stock", async () => {
    await customer().shared.cart.update({ update: { productId: crown.id, quantity: 4 } });
    await customer().shared.cart.merge({ currentCart: [{ productId: crown.id, quantity: 3 }, { productId: offline.id, quantity: 1 }] });
    const cart = await customer().shared.cart.get();
    expect(cart.items.map((line) => [line.productId, line.quantity])).toEqual([[crown.id, 5]]);
  });

  it("deletes a line", async () => {
    await customer().shared.cart.update({ update: { productId: crown.id, quantity: 1 } });
    await customer().shared.cart.update({ update: { productId: crystal.id, quantity: 1 } });
    const cart = await customer().shared.cart.delete({ productId: crown.id });
    expect(cart.items.map((line) => line.productId)).toEqual([crystal.id]);
  });
});

describe("coupons and the cart discount (docs/pricing.md)", () => {
  beforeEach(async () => {
    await customer().shared.cart.update({ update: { productId: crown.id, quantity: 2 } });
    await customer().shared.cart.update({ update: { productId: crystal.id, quantity: 1 } });
  });

  it("validates a code and prices the cart with it", async () => {
    const { coupon, cart } = await customer().shared.cart.discountValidate({ code: " welcome10 " });
    expect(coupon).toMatchObject({ code: "WELCOME10", pricingType: "PERCENT", label: "-10%" });
    expect(cart.discount).toMatchObject({ source: "COUPON", name: "WELCOME10" });
    expect(cart.discount!.amount.toFixed(2)).toBe("10.55");
    expect(cart.total.toFixed(2)).toBe("94.95");
    const again = await customer().shared.cart.get({ couponCode: "WELCOME10" });
    expect(again.total.toFixed(2)).toBe("94.95");
    const without = await customer().shared.cart.get();
    expect(without.total.toFixed(2)).toBe("105.50");
  });

  it("answers unknown, switched-off, expired, not-yet-valid and used-up codes alike, so that trying codes tells a real one from none (N-L5)", async () => {
    const used = await makeDiscount(t.db, { name: "USEDUP5", value: "5.00", pricingType: "FIXED", discountType: "COUPON" });
    await t.db.update(discount).set({ usageLimit: 1 }).where(eq(discount.id, used.id));
    await orderUsing("USEDUP5");
    const messageOf = async (code: string) => {
      try {
        await customer().shared.cart.discountValidate({ code });
        return "valid";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(await messageOf("NOPE")).toBe("The code NOPE is not valid.");
    expect(await messageOf("FAIR2023")).toBe("The code FAIR2023 is not valid.");
    expect(await messageOf("SUMMER24")).toBe("The code SUMMER24 is not valid.");
    expect(await messageOf("XMAS20")).toBe("The code XMAS20 is not valid.");
    expect(await messageOf("USEDUP5")).toBe("The code USEDUP5 is not valid.");
  });

  it("applies only the better of the customer's own discount and a coupon", async () => {
    const loyal = await makeDiscount(t.db, { name: "Loyal collector", value: "0.15", pricingType: "PERCENT", discountType: "USER" });
    await t.db.update(user).set({ discountId: loyal.id }).where(eq(user.id, userId));
    const withPersonal = await customer().shared.cart.get();
    expect(withPersonal.discount).toMatchObject({ source: "USER", name: "Loyal collector", label: "-15%" });
    expect(withPersonal.total.toFixed(2)).toBe("89.68");

    const weaker = await customer().shared.cart.get({ couponCode: "WELCOME10" });
    expect(weaker.discount?.source).toBe("USER");
    expect(weaker.total.toFixed(2)).toBe("89.68");
    expect(weaker.couponMessage).toBe("Your Loyal collector discount takes more off than WELCOME10, so it stays.");

    await t.db.update(user).set({ discountId: null }).where(eq(user.id, userId));
    const fixed = await customer().shared.cart.get({ couponCode: "CROWN5" });
    expect(fixed.discount).toMatchObject({ source: "COUPON", label: "-€5.00" });
    expect(fixed.total.toFixed(2)).toBe("100.50");
  });

  it("refuses a code the cart is below the minimum order value of, counted after product discounts, with the reason", async () => {
    const from150 = await makeDiscount(t.db, { name: "FROM150", value: "15.00", pricingType: "FIXED", discountType: "COUPON" });
    await t.db.update(discount).set({ minOrderValue: new Decimal("150.00") }).where(eq(discount.id, from150.id));
    // €105.50, and the strap's €50 list price is €40 on sale: €145.50 after product discounts, €155.50 before.
    await customer().shared.cart.update({ update: { productId: onSale.id, quantity: 1 } });
    await expect(customer().shared.cart.discountValidate({ code: "from150" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "FROM150 applies to orders from €150.00.",
    });
    const below = await customer().shared.cart.get({ couponCode: "FROM150" });
    expect([below.coupon, below.discount, below.couponMessage]).toEqual([null, null, "FROM150 applies to orders from €150.00."]);

    await customer().shared.cart.update({ update: { productId: crystal.id, quantity: 1 } });
    const { coupon, cart } = await customer().shared.cart.discountValidate({ code: "from150" });
    expect(coupon.code).toBe("FROM150");
    expect(cart.subtotal.toFixed(2)).toBe("171.00");
    expect(cart.total.toFixed(2)).toBe("156.00");
    expect(cart.couponMessage).toBeNull();
  });

  it("refuses a code whose usage limit is reached, and still accepts a weaker code beside the customer's own discount", async () => {
    const once = await makeDiscount(t.db, { name: "ONCE5", value: "5.00", pricingType: "FIXED", discountType: "COUPON" });
    await t.db.update(discount).set({ usageLimit: 1 }).where(eq(discount.id, once.id));
    expect((await customer().shared.cart.discountValidate({ code: "ONCE5" })).cart.total.toFixed(2)).toBe("100.50");
    await orderUsing("ONCE5");
    await expect(customer().shared.cart.discountValidate({ code: "ONCE5" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: "The code ONCE5 is not valid." });

    // A code that applies but loses to the customer's own discount is not refused: the cart tells which one stays.
    const loyal = await makeDiscount(t.db, { name: "Loyal collector", value: "0.15", pricingType: "PERCENT", discountType: "USER" });
    await t.db.update(user).set({ discountId: loyal.id }).where(eq(user.id, userId));
    const { cart } = await customer().shared.cart.discountValidate({ code: "WELCOME10" });
    expect(cart.discount?.source).toBe("USER");
    expect(cart.couponMessage).toBe("Your Loyal collector discount takes more off than WELCOME10, so it stays.");
  });

  it("refuses a code on an empty cart", async () => {
    await t.db.delete(cartItem).where(eq(cartItem.userId, userId));
    await expect(customer().shared.cart.discountValidate({ code: "WELCOME10" })).rejects.toThrow("Add something to your cart before using a code.");
  });
});

describe("the saved cart holds at most MAX_CART_LINES products", () => {
  const full = async () => {
    const products = await makeProducts(t.db, Array.from({ length: MAX_CART_LINES + 2 }, (_, n) => ({ name: `Spare crystal ${n}`, stock: 5 })));
    await customer().shared.cart.merge({ currentCart: products.slice(0, MAX_CART_LINES).map((row) => ({ productId: row.id, quantity: 1 })) });
    return products;
  };
  const lineCount = async () => (await t.db.select().from(cartItem).where(eq(cartItem.userId, userId))).length;

  it("refuses a new product in a full cart with a sentence the customer can act on, and still changes its lines", async () => {
    const products = await full();
    expect(await lineCount()).toBe(MAX_CART_LINES);
    await expect(customer().shared.cart.update({ update: { productId: products[MAX_CART_LINES]!.id, quantity: 1 } })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `Your cart already holds ${MAX_CART_LINES} different products, the most it can. Remove one, or check out first, to add another.`,
    });
    const { cart } = await customer().shared.cart.update({ update: { productId: products[0]!.id, quantity: 1 } });
    expect(cart.items.find((line) => line.productId === products[0]!.id)?.quantity).toBe(2);
    await customer().shared.cart.delete({ productId: products[0]!.id });
    await customer().shared.cart.update({ update: { productId: products[MAX_CART_LINES]!.id, quantity: 1 } });
    expect(await lineCount()).toBe(MAX_CART_LINES);
  });

  it("lets only one of two tabs take the last free line", async () => {
    const products = await full();
    await customer().shared.cart.delete({ productId: products[0]!.id });
    const tabs = await Promise.all(
      [products[MAX_CART_LINES]!, products[MAX_CART_LINES + 1]!].map((row) => codeOf(customer().shared.cart.update({ update: { productId: row.id, quantity: 1 } }))),
    );
    expect(tabs.sort()).toEqual(["CONFLICT", "OK"]);
    expect(await lineCount()).toBe(MAX_CART_LINES);
  });

  it("leaves new products out when a sign-in merge would pass the limit, and still adds to the lines it has", async () => {
    const products = await full();
    await customer().shared.cart.merge({
      currentCart: [{ productId: products[MAX_CART_LINES]!.id, quantity: 1 }, { productId: products[1]!.id, quantity: 2 }],
    });
    expect(await lineCount()).toBe(MAX_CART_LINES);
    const cart = await customer().shared.cart.get();
    expect(cart.items.some((line) => line.productId === products[MAX_CART_LINES]!.id)).toBe(false);
    expect(cart.items.find((line) => line.productId === products[1]!.id)?.quantity).toBe(3);
  });
});

describe("rate limit counters", () => {
  it("let exactly the limit through when hits arrive at once", async () => {
    const rule = { limit: 3, windowMs: 60_000 };
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 8 }, () => hitRateLimit(t.db, "burst", rule, now)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    const later = await hitRateLimit(t.db, "burst", rule, new Date(now.getTime() + 60_001));
    expect(later).toMatchObject({ allowed: true, hits: 1 });
  });
});
