import { Decimal } from "decimal.js";
import { and, asc, eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getManyProducts } from "@/server/catalog/service";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { checkoutQuote, placeOrder } from "@/server/checkout/service";
import { adminNotification, discount, logbook, order, orderDiscount, orderItem, paymentDetail, product, user } from "@/server/db/schema";
import { applyPaymentUpdate, transitionOrder } from "@/server/orders/service";
import { priceItems } from "@/server/pricing/service";
import { makeCategory, makeDiscount, makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { discountFormInput, discountTargetPreviewInput, updateDiscountInput, type DiscountFormInput } from "./admin-schemas";
import { createDiscount, getDiscount, listDiscounts, setDiscountActive, updateDiscount } from "./admin-service";
import { previewDiscountTargets } from "./discount-targets";

/**
 * The admin's discounts (issue "Refunds, discounts and shipping costs"): discounts created and changed through the
 * admin service, then used as customers use them, through the real checkout (`placeOrder`) and the storefront's
 * listing. Run on PostgreSQL too with TEST_DATABASE_URL set, where the race for a coupon's last use is a real one.
 */

// Wednesday 4 March 2026, 10:00 in Amsterdam: a shipping day before the cut-off.
const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });

const address = { firstName: "Ada", lastName: "Lovelace", street: "Keizersgracht", houseNumber: "1", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

async function adminId(): Promise<string> {
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.role, "ADMIN")).limit(1);
  return row!.id;
}

/** A discount as the admin's form sends it: the fields left out are the form's blanks. */
function form(fields: Partial<DiscountFormInput> & Pick<DiscountFormInput, "name" | "discountType" | "pricingType" | "value">): DiscountFormInput {
  return { active: true, startsAt: "", expiresAt: "", ...fields };
}

async function create(fields: Parameters<typeof form>[0]): Promise<number> {
  const { id } = await createDiscount(t.db, discountFormInput.parse(form(fields)), await adminId());
  return id;
}

let orderCount = 0;
/** A guest's order of one new watch at `price`, placed through checkout at `at`. */
async function orderWatch(price: string, couponCode: string | undefined, at: Date = now) {
  orderCount += 1;
  const watch = await makeStockedProduct(t.db, { name: `Discount test watch ${orderCount}`, price, stock: 1 });
  const input: PlaceOrderInput = {
    email: `buyer${orderCount}@example.com`,
    address,
    shippingMethod: "TNT",
    paymentMethod: "IDEAL",
    items: [{ productId: watch.id, quantity: 1 }],
    couponCode,
  };
  return placeOrder(t.db, input, { userId: null }, at);
}

/** Pays a placed order as its provider's webhook does (`applyPaymentUpdate`), for the amount it costs. */
async function pay(placed: { orderId: number; total: Decimal }, at: Date = now) {
  const externalPaymentId = `tr_discount_test_${placed.orderId}`;
  await t.db.update(paymentDetail).set({ externalPaymentId }).where(eq(paymentDetail.orderId, placed.orderId));
  await t.db.transaction((tx) => applyPaymentUpdate(tx, { provider: "mollie", externalPaymentId, status: "paid", amount: placed.total, method: "IDEAL", orderId: placed.orderId }, at));
}

describe("a coupon created in the admin", () => {
  it("stores 15 typed as the fraction 0.15, shows as -15% and takes 15% off at checkout", async () => {
    const id = await create({ name: " spring15 ", discountType: "COUPON", pricingType: "PERCENT", value: "15" });
    const [stored] = await t.db.select().from(discount).where(eq(discount.id, id));
    expect(stored!.name).toBe("SPRING15");
    expect(stored!.value.toFixed(4)).toBe("0.1500");

    const watch = await makeStockedProduct(t.db, { name: "Seiko 5 for a coupon", price: "120.00", stock: 2 });
    const cart = await priceItems(t.db, [{ productId: watch.id, quantity: 1 }], { now, imageUrl: () => "", couponCode: "Spring15", caller: null });
    expect(cart.coupon).toMatchObject({ code: "SPRING15", label: "-15%" });
    expect(cart.discount).toMatchObject({ source: "COUPON", label: "-15%" });
    expect(cart.discount!.amount.toFixed(2)).toBe("18.00");
    expect(cart.total.toFixed(2)).toBe("102.00");

    const placed = await orderWatch("120.00", "spring15");
    await pay(placed);
    const recorded = await t.db.select().from(orderDiscount).where(eq(orderDiscount.orderId, placed.orderId));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ discountId: id, discountType: "COUPON", name: "SPRING15" });
    expect(recorded[0]!.amount.toFixed(2)).toBe("18.00");

    const row = (await listDiscounts(t.db, { type: "COUPON" }, now)).find((entry) => entry.id === id)!;
    expect(row).toMatchObject({ label: "-15%", status: "running", uses: 1, targets: null });
    expect(row.revenue.toFixed(2)).toBe("102.00");
  });

  it("works inside its dates, typed in the shop's time zone, and is refused before and after them", async () => {
    // 10 March 00:00 until 20 March 00:00 in Amsterdam (UTC+1 in March).
    const id = await create({ name: "MARCH10", discountType: "COUPON", pricingType: "FIXED", value: "10", startsAt: "2026-03-10T00:00", expiresAt: "2026-03-20T00:00" });
    const [stored] = await t.db.select().from(discount).where(eq(discount.id, id));
    expect(stored!.startsAt!.toISOString()).toBe("2026-03-09T23:00:00.000Z");
    expect(stored!.expiresAt!.toISOString()).toBe("2026-03-19T23:00:00.000Z");
    expect((await getDiscount(t.db, id, now)).status).toBe("scheduled");

    await expect(orderWatch("80.00", "MARCH10", new Date("2026-03-09T22:59:00Z"))).rejects.toMatchObject({ message: "The code MARCH10 is not valid." });
    const first = await orderWatch("80.00", "MARCH10", new Date("2026-03-09T23:00:00Z"));
    expect(first.total.toFixed(2)).toBe(new Decimal("70.00").plus("8.95").toFixed(2));
    await orderWatch("80.00", "MARCH10", new Date("2026-03-19T22:59:00Z"));
    await expect(orderWatch("80.00", "MARCH10", new Date("2026-03-19T23:00:00Z"))).rejects.toMatchObject({ message: "The code MARCH10 is not valid." });
    expect((await getDiscount(t.db, id, new Date("2026-03-19T23:00:00Z"))).status).toBe("expired");
  });

  it("is refused once its usage limit is reached, and a cancelled order gives its use back", async () => {
    const id = await create({ name: "ONCE", discountType: "COUPON", pricingType: "FIXED", value: "5", usageLimit: "1" });
    const first = await orderWatch("40.00", "ONCE");
    await pay(first);
    await expect(orderWatch("40.00", "ONCE")).rejects.toMatchObject({ message: "The code ONCE is not valid." });
    expect((await getDiscount(t.db, id, now)).uses).toBe(1);

    await t.db.transaction((tx) => transitionOrder(tx, first.orderId, "CANCELLED", { userId: null, description: "Test: cancelled.", now }));
    expect((await getDiscount(t.db, id, now)).uses).toBe(0);
    await orderWatch("40.00", "ONCE");
  });

  it("is not used up by orders nobody pays (N-L4): the unpaid ones hold no use, and one paid beyond the limit is put before staff", async () => {
    const id = await create({ name: "FEWUSES", discountType: "COUPON", pricingType: "FIXED", value: "5", usageLimit: "2" });
    const unpaid = [await orderWatch("40.00", "FEWUSES"), await orderWatch("40.00", "FEWUSES"), await orderWatch("40.00", "FEWUSES")];
    expect((await getDiscount(t.db, id, now)).uses).toBe(0);

    await pay(unpaid[0]!);
    await pay(unpaid[1]!);
    expect((await getDiscount(t.db, id, now)).uses).toBe(2);
    await expect(orderWatch("40.00", "FEWUSES")).rejects.toMatchObject({ code: "BAD_REQUEST", message: "The code FEWUSES is not valid." });
    expect(await t.db.$count(adminNotification, like(adminNotification.message, "%FEWUSES%"))).toBe(0);

    // The third was placed while a use was left; its money is taken and the order stands, and staff are told.
    await pay(unpaid[2]!);
    const [third] = await t.db.select({ status: order.status }).from(order).where(eq(order.id, unpaid[2]!.orderId));
    expect(third!.status).toBe("PAID_READY_TO_SHIP");
    const told = `Order ${unpaid[2]!.orderNumber} was paid with code FEWUSES, now used by 3 paid orders against its limit of 2; the order stands with its discount`;
    const alerts = await t.db.select({ message: adminNotification.message, severity: adminNotification.severity }).from(adminNotification).where(like(adminNotification.message, "%FEWUSES%"));
    expect(alerts).toEqual([{ message: told, severity: "WARNING" }]);
    const logged = await t.db.select({ level: logbook.logLevel }).from(logbook).where(and(eq(logbook.entityId, String(unpaid[2]!.orderId)), eq(logbook.description, told)));
    expect(logged).toEqual([{ level: "WARNING" }]);
  });

  it("puts before staff all but one of several orders paid at once for its last use", async () => {
    await create({ name: "LASTONE", discountType: "COUPON", pricingType: "PERCENT", value: "10", usageLimit: "2" });
    await pay(await orderWatch("30.00", "LASTONE"));
    const racers = [];
    for (let index = 0; index < 6; index++) racers.push(await orderWatch("30.00", "lastone"));
    await Promise.all(racers.map((placed) => pay(placed)));

    const alerts = await t.db.select({ message: adminNotification.message }).from(adminNotification).where(like(adminNotification.message, "%code LASTONE%"));
    const flagged = racers.filter((placed) => alerts.some((alert) => alert.message.startsWith(`Order ${placed.orderNumber} was paid with code LASTONE`)));
    expect(flagged).toHaveLength(5);
    expect(alerts.map((alert) => /now used by (\d+) paid orders/.exec(alert.message)![1]).sort()).toEqual(["3", "4", "5", "6", "7"]);
    const statuses = await t.db.select({ status: order.status }).from(order).where(inArray(order.id, racers.map((placed) => placed.orderId)));
    expect(statuses.every((row) => row.status === "PAID_READY_TO_SHIP")).toBe(true);
  });

  it("applies only from its minimum order value, counted after product discounts", async () => {
    await create({ name: "FROM50", discountType: "COUPON", pricingType: "FIXED", value: "7.50", minOrderValue: "50" });
    await expect(orderWatch("49.99", "FROM50")).rejects.toMatchObject({ message: "FROM50 applies to orders from €50.00." });

    const onSale = await create({ name: "Sale for the minimum", discountType: "PRODUCT", pricingType: "PERCENT", value: "20" });
    const watch = await makeStockedProduct(t.db, { name: "Watch on sale", price: "60.00", stock: 1, discountId: onSale });
    const quote = await checkoutQuote(t.db, { items: [{ productId: watch.id, quantity: 1 }], couponCode: "from50" }, { userId: null }, { now });
    expect(quote.cart.subtotal.toFixed(2)).toBe("48.00");
    expect(quote.cart.coupon).toBeNull();
    expect(quote.cart.couponMessage).toBe("FROM50 applies to orders from €50.00.");

    const placed = await orderWatch("50.00", "FROM50");
    expect(placed.total.toFixed(2)).toBe(new Decimal("42.50").plus("8.95").toFixed(2));
  });
});

describe("product and customer discounts", () => {
  it("gives a category's products (its child categories too) the discount, shows it in the shop at once and records it on orders", async () => {
    const watches = await makeCategory(t.db, "Discount test watches");
    const divers = await makeCategory(t.db, "Discount test divers", watches.id);
    const other = await makeCategory(t.db, "Discount test straps");
    const older = await makeDiscount(t.db, { name: "Older sale", value: "0.05", pricingType: "PERCENT", discountType: "PRODUCT" });
    const diver = await makeStockedProduct(t.db, { name: "Doxa diver", price: "200.00", stock: 3, category: divers, discountId: older.id });
    const dress = await makeStockedProduct(t.db, { name: "Dress watch", price: "100.00", stock: 3, category: watches });
    const strap = await makeStockedProduct(t.db, { name: "Leather strap", price: "20.00", stock: 3, category: other });

    const targets = { productIds: [], categoryIds: [watches.id], manufacturerIds: [], customerIds: [], allVips: false };
    expect(await previewDiscountTargets(t.db, discountTargetPreviewInput.parse({ discountType: "PRODUCT", ...targets }))).toEqual({
      total: 2,
      moved: 1,
      movedFrom: [{ discountId: older.id, name: "Older sale", count: 1 }],
      released: 0,
    });
    const id = await create({ name: "Watches 20%", discountType: "PRODUCT", pricingType: "PERCENT", value: "20", ...targets });

    const page = await getManyProducts(t.db, { categoryId: [watches.id], page: 1, facets: false }, { imageUrl: () => "", now });
    const cards = new Map(page.products.map((card) => [card.id, card]));
    expect(cards.get(diver.id)!.discount).toMatchObject({ value: "-20%" });
    expect(cards.get(diver.id)!.discount!.discountedPrice.toFixed(2)).toBe("160.00");
    expect(cards.get(dress.id)!.discount!.discountedPrice.toFixed(2)).toBe("80.00");
    const [strapRow] = await t.db.select({ discountId: product.discountId }).from(product).where(eq(product.id, strap.id));
    expect(strapRow!.discountId).toBeNull();

    const placed = await placeOrder(
      t.db,
      { email: "collector@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: diver.id, quantity: 2 }, { productId: strap.id, quantity: 1 }] },
      { userId: null },
      now,
    );
    await pay(placed);
    const [recorded] = await t.db.select().from(orderDiscount).where(eq(orderDiscount.orderId, placed.orderId));
    expect(recorded).toMatchObject({ discountId: id, discountType: "PRODUCT", name: "Watches 20%" });
    expect(recorded!.amount.toFixed(2)).toBe("80.00");
    const detail = await getDiscount(t.db, id, now);
    expect(detail).toMatchObject({ targets: 2, uses: 1, label: "-20%" });
    expect(detail.revenue.toFixed(2)).toBe("340.00");
    expect(detail.products.map((entry) => entry.id).sort()).toEqual([diver.id, dress.id].sort());

    // Saved without the diver: it loses the discount, and the shop shows its full price again.
    const kept = updateDiscountInput.parse({ id, ...form({ name: "Watches 20%", discountType: "PRODUCT", pricingType: "PERCENT", value: "20", productIds: [dress.id] }) });
    expect(await previewDiscountTargets(t.db, discountTargetPreviewInput.parse({ id, discountType: "PRODUCT", productIds: [dress.id] }))).toMatchObject({ total: 1, moved: 0, released: 1 });
    const { id: _id, ...values } = kept;
    await updateDiscount(t.db, id, values, await adminId(), now);
    const after = await getManyProducts(t.db, { categoryId: [watches.id], page: 1, facets: false }, { imageUrl: () => "", now });
    expect(after.products.find((card) => card.id === diver.id)!.discount).toBeNull();

    const entries = await t.db.select().from(logbook).where(and(eq(logbook.eventType, "DISCOUNT"), eq(logbook.entityId, String(id)))).orderBy(asc(logbook.id));
    expect(entries.map((entry) => entry.description)).toEqual([
      `Discount ${id} "Watches 20%" created: PRODUCT -20%, without an end; held by 2 products, 1 taken from other discounts`,
      `Discount ${id} "Watches 20%" changed: targets; held by 1 product, 1 product no longer`,
    ]);
    expect(entries[1]!.previousState).toMatchObject({ targets: [diver.id, dress.id].sort((a, b) => a - b), value: "0.2" });
    expect(entries[1]!.newState).toMatchObject({ targets: [dress.id] });
    expect(entries[0]!.entityType).toBe("DISCOUNT");
  });

  it("gives every VIP the customer discount, and the switch takes it away", async () => {
    const [vip] = await t.db.insert(user).values({ email: "vip-discount@example.com", name: "Vera VIP", role: "VIP" }).returning({ id: user.id });
    const [plain] = await t.db.insert(user).values({ email: "plain-discount@example.com", name: "Paul Plain" }).returning({ id: user.id });
    const id = await create({ name: "VIP 12%", discountType: "USER", pricingType: "PERCENT", value: "12", allVips: true });
    const watch = await makeStockedProduct(t.db, { name: "VIP watch", price: "100.00", stock: 2 });
    const items = [{ productId: watch.id, quantity: 1 }];
    const options = { now, imageUrl: () => "", caller: null };
    expect((await priceItems(t.db, items, { ...options, userId: vip!.id })).discount).toMatchObject({ source: "USER", name: "VIP 12%", label: "-12%" });
    expect((await priceItems(t.db, items, { ...options, userId: plain!.id })).discount).toBeNull();
    expect((await getDiscount(t.db, id, now)).customers.map((customer) => customer.email)).toContain("vip-discount@example.com");

    const switched = await setDiscountActive(t.db, id, false, await adminId(), now);
    expect(switched.status).toBe("inactive");
    expect((await priceItems(t.db, items, { ...options, userId: vip!.id })).discount).toBeNull();
    expect((await listDiscounts(t.db, { status: "inactive" }, now)).map((row) => row.id)).toContain(id);
    expect((await listDiscounts(t.db, { status: "running" }, now)).map((row) => row.id)).not.toContain(id);
  });
});

describe("what the admin refuses", () => {
  const refusal = (fields: Parameters<typeof form>[0]) => {
    const parsed = discountFormInput.safeParse(form(fields));
    return parsed.success ? null : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("refuses values and windows out of range, in the form's words", () => {
    expect(refusal({ name: "Nothing", discountType: "GLOBAL", pricingType: "PERCENT", value: "0" })).toEqual(["value: must be more than 0 and at most 100"]);
    expect(refusal({ name: "Too much", discountType: "GLOBAL", pricingType: "PERCENT", value: "101" })).toEqual(["value: must be more than 0 and at most 100"]);
    expect(refusal({ name: "Free", discountType: "GLOBAL", pricingType: "FIXED", value: "0" })).toEqual(["value: must be more than €0.00"]);
    expect(refusal({ name: "Backwards", discountType: "GLOBAL", pricingType: "FIXED", value: "5", startsAt: "2026-05-02T00:00", expiresAt: "2026-05-01T00:00" })).toEqual([
      "expiresAt: must be after the start",
    ]);
    expect(refusal({ name: "BAD CODE", discountType: "COUPON", pricingType: "FIXED", value: "5" })).toEqual(["name: A code is 3 to 32 letters, digits, - or _, without spaces"]);
    expect(refusal({ name: "Feb", discountType: "GLOBAL", pricingType: "FIXED", value: "5", startsAt: "2026-02-30T10:00" })).toEqual(["startsAt: must be a date and time, like 4 May 2026 09:00"]);
    expect(discountFormInput.parse(form({ name: "Half", discountType: "GLOBAL", pricingType: "PERCENT", value: "7,5" })).value.toString()).toBe("0.075");
  });

  it("refuses a code another coupon uses in an overlapping window, and a change of kind", async () => {
    await create({ name: "YEARLY", discountType: "COUPON", pricingType: "FIXED", value: "5", startsAt: "2026-06-01T00:00", expiresAt: "2026-07-01T00:00" });
    await expect(create({ name: "yearly", discountType: "COUPON", pricingType: "FIXED", value: "5", startsAt: "2026-06-30T00:00" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("The code YEARLY is already used by discount"),
    });
    const next = await create({ name: "yearly", discountType: "COUPON", pricingType: "FIXED", value: "5", startsAt: "2027-06-01T00:00", expiresAt: "2027-07-01T00:00" });
    const { id: _id, ...asGlobal } = updateDiscountInput.parse({ id: next, ...form({ name: "Yearly", discountType: "GLOBAL", pricingType: "FIXED", value: "5" }) });
    await expect(updateDiscount(t.db, next, asGlobal, await adminId(), now)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("an order's recorded discounts", () => {
  it("records a line's PRODUCT discount and the cart's coupon, each with what it took off", async () => {
    const sale = await create({ name: "Parts €3 off", discountType: "PRODUCT", pricingType: "FIXED", value: "3" });
    const coupon = await create({ name: "BOTH10", discountType: "COUPON", pricingType: "PERCENT", value: "10" });
    const part = await makeStockedProduct(t.db, { name: "Crown for both", price: "23.00", stock: 5, discountId: sale });
    const placed = await placeOrder(
      t.db,
      { email: "both@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: part.id, quantity: 3 }], couponCode: "BOTH10" },
      { userId: null },
      now,
    );
    const recorded = await t.db.select().from(orderDiscount).where(eq(orderDiscount.orderId, placed.orderId));
    const amounts = Object.fromEntries(recorded.map((row) => [row.discountId!, row.amount.toFixed(2)]));
    expect(amounts).toEqual({ [sale]: "9.00", [coupon]: "6.00" });
    const [line] = await t.db.select().from(orderItem).where(eq(orderItem.orderId, placed.orderId));
    expect(line!.totalPrice.toFixed(2)).toBe("54.00");
    expect(line!.totalDiscountAmount.toFixed(2)).toBe("15.00");
  });
});
