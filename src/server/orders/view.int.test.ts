import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateCartItem } from "@/server/cart/service";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { placeOrder } from "@/server/checkout/service";
import { paymentDetail, user } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { renderOrderConfirmationEmail } from "./order-confirmation-email";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { bookStock } from "@/server/stock/service";
import { makeProduct } from "../../../tests/helpers/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { issueOrderToken } from "./order-token";
import { getCustomerOrder, getOrderView, viewOrderConfirmation } from "./view";

/**
 * The one read model of an order, for an order placed through checkout with a coupon and an insurance surcharge:
 * its totals are the amounts checkout stored and charged, and only its customer or its token holder sees it.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const secret = "a-token-secret-of-at-least-thirty-two-characters";
let t: TestDatabase;

const address = { firstName: "Ada", lastName: "Lovelace", companyName: "Analytical Engines", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "NL" };
const input = (overrides: Partial<PlaceOrderInput>): PlaceOrderInput => ({ email: "ada@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", ...overrides });

async function stocked(name: string, price: string) {
  const row = await makeProduct(t.db, { name, price, stock: 0 });
  await bookStock(t.db, { productId: row.id, quantity: 5, type: "INVENTORY_CORRECTION", userId: null, description: "Test stock" });
  return row;
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `order-view-${process.pid}`) }), { products: 0, images: 0, now });
});

afterAll(() => t?.dispose());

describe("the order view", () => {
  it("names the totals checkout stored: items at list price, the discount, shipping, the surcharge and what is paid", async () => {
    const watch = await stocked("Seiko 5 automatic", "150.00");
    const strap = await stocked("Leather strap", "10.00");
    // €170 of items with WELCOME10's 10% off: €153 paid for items, in the 2% insurance band.
    const placed = await placeOrder(t.db, input({ items: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 2 }], couponCode: "WELCOME10" }), { userId: null }, now);
    const view = await getOrderView(t.db, placed.orderNumber);
    const [stored] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, placed.orderId));

    expect(view.items.map((item) => [item.name, item.quantity, item.paid.toFixed(2), item.discount.toFixed(2)])).toEqual([
      ["Seiko 5 automatic", 1, "135.00", "15.00"],
      ["Leather strap", 2, "18.00", "2.00"],
    ]);
    const { totals } = view;
    expect([totals.items.toFixed(2), totals.discount.toFixed(2), totals.surcharge.toFixed(2)]).toEqual(["170.00", "17.00", "3.06"]);
    expect(totals.shipping.plus(totals.surcharge)).toEqual(stored!.shippingTotal);
    expect(totals.total).toEqual(placed.total);
    expect(totals.total).toEqual(stored!.total);
    expect(totals.total).toEqual(new Decimal("153.00").plus(stored!.shippingTotal));
    expect(view.address).toEqual({ name: "Ada Lovelace", lines: ["Analytical Engines", "Dam 1", "1012 JS Amsterdam", "Netherlands"] });
    // Not shipped yet: no tracking to follow.
    expect([view.shipping.trackingNumber, view.shipping.trackingUrl, view.shippedAt, view.deliveredAt]).toEqual([null, null, null, null]);

    // The e-mail shows the same figures as the pages.
    const mail = renderOrderConfirmationEmail(view, "https://shop.example/checkout/confirmation/x", "Balance & Crown");
    expect(mail.text).toContain("Items: €170.00");
    expect(mail.text).toContain("Discount: −€17.00");
    expect(mail.text).toContain("Insurance surcharge: €3.06");
    expect(mail.text).toContain(`Total paid: €${totals.total.toFixed(2)}`);
    expect(mail.text).toContain("1 × Seiko 5 automatic: €135.00");
  });

  it("shows an order to its customer and its token holder, and NOT_FOUND to anyone else", async () => {
    const [ada] = await t.db.insert(user).values({ email: "ada-view@example.com", name: "Ada" }).returning({ id: user.id });
    const [bob] = await t.db.insert(user).values({ email: "bob-view@example.com", name: "Bob" }).returning({ id: user.id });
    const crown = await stocked("Crown", "40.00");
    await updateCartItem(t.db, ada!.id, { productId: crown.id, quantity: 1 }, { now, imageUrl: () => "", caller: null });
    const placed = await placeOrder(t.db, input({}), { userId: ada!.id }, now);

    expect((await getCustomerOrder(t.db, ada!.id, placed.orderId)).orderNumber).toBe(placed.orderNumber);
    await expect(getCustomerOrder(t.db, bob!.id, placed.orderId)).rejects.toMatchObject({ code: "NOT_FOUND", message: "That order is not in your order history." });

    const viewer = { token: null, tokenSecret: secret };
    expect((await viewOrderConfirmation(t.db, placed.orderNumber, { ...viewer, userId: ada!.id })).orderId).toBe(placed.orderId);
    await expect(viewOrderConfirmation(t.db, placed.orderNumber, { ...viewer, userId: bob!.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const token = await issueOrderToken(secret, placed.orderNumber);
    expect((await viewOrderConfirmation(t.db, placed.orderNumber, { userId: null, token, tokenSecret: secret })).orderId).toBe(placed.orderId);
  });
});
