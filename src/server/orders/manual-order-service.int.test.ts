import { and, asc, eq, ilike, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { listOrders } from "@/server/account/service";
import { placeOrder } from "@/server/checkout/service";
import { logbook, order, orderDetail, orderDiscount, orderItem, paymentDetail, product, stockRecord } from "@/server/db/schema";
import { getDiscount } from "@/server/discounts/admin-service";
import { createRefundInput } from "@/server/refunds/schemas";
import { createRefund, getRefundProposal } from "@/server/refunds/service";
import { createCaller } from "@/server/root";
import { reconcileStock } from "@/server/stock/reconciliation";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeDiscount, makeStockedProduct, placeOneWatchOrder } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { createManualOrderInput, updateManualOrderInput, type CreateManualOrderInput, type UpdateManualOrderInput } from "./manual-order-schemas";
import { getEditableOrder } from "./editable-order";
import { quoteManualOrder } from "./manual-order-pricing";
import { createManualOrder, markManualOrderPaid, updateManualOrder } from "./manual-order-service";
import { expireUnpaidOrders, transitionOrder } from "./service";
import { getCustomerOrder, getOrderView } from "./view";

/**
 * Manual orders: staff enter a phone or counter sale for a customer, and edit orders not yet shipped. The stock
 * moves through the ledger, the totals through `orderTotals`, and the customer finds the order in their history.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
let staff: { id: string };

const address = { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

function orderInput(overrides: Partial<CreateManualOrderInput> & Pick<CreateManualOrderInput, "lines">): CreateManualOrderInput {
  return { userId: null, address, email: "grace@example.com", shippingMethod: "TNT", paymentMethod: "BANKTRANSFER", paid: true, ...overrides };
}

/** Not paid yet: its edits may make it cost more (a paid order's may not, see N-L9 below). */
const onAccount = { paymentMethod: "ACCOUNT", paid: false } as const;

function newOrder(overrides: Partial<CreateManualOrderInput> & Pick<CreateManualOrderInput, "lines">) {
  return createManualOrderInput.parse(orderInput(overrides));
}

function edit(orderNumber: string, overrides: Partial<UpdateManualOrderInput> & Pick<UpdateManualOrderInput, "lines">) {
  return updateManualOrderInput.parse({ orderNumber, address, email: "grace@example.com", shippingMethod: "TNT", ...overrides });
}

async function stockOf(productId: number) {
  const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId));
  return row!.stock;
}

/** The discounts an order records (`order_discount`), as [name, type, amount]. */
async function recordedDiscounts(orderId: number) {
  const rows = await t.db.select().from(orderDiscount).where(eq(orderDiscount.orderId, orderId)).orderBy(asc(orderDiscount.id));
  return rows.map((row) => [row.name, row.discountType, row.amount.toFixed(2)]);
}

/** The ledger rows that name an order's items, by product. */
async function orderLedger(orderId: number) {
  const items = t.db.select({ id: orderItem.id }).from(orderItem).where(eq(orderItem.orderId, orderId));
  return t.db.select({ productId: stockRecord.productId, type: stockRecord.type, quantity: stockRecord.quantity }).from(stockRecord).where(inArray(stockRecord.orderItemId, items)).orderBy(asc(stockRecord.id));
}

beforeAll(async () => {
  staff = await makeUser(t.db, "ADMIN", "Staff member");
});

describe("a manual order", () => {
  it("for an existing customer takes stock through the ledger and appears in their order history", async () => {
    const customer = await makeUser(t.db, "USER", "Grace Hopper");
    const watch = await makeStockedProduct(t.db, { name: "Omega Seamaster 1968", price: "150.00", stock: 3 });
    const strap = await makeStockedProduct(t.db, { name: "NATO strap", price: "10.00", stock: 5 });
    const admin = createCaller(contextFor(t.db, { ...staff, name: "Staff member", email: "staff@example.com", role: "ADMIN" }));

    const saved = await admin.admin.manualOrder.create({
      userId: customer.id,
      address,
      email: customer.email,
      lines: [
        { productId: watch.id, quantity: 2 },
        { productId: strap.id, quantity: 1, priceOverride: "5.00", priceOverrideReason: "Scratched buckle" },
      ],
      shippingMethod: "TNT",
      paymentMethod: "BANKTRANSFER",
      paid: true,
    });

    expect(saved.status).toBe("PAID_READY_TO_SHIP");
    // €300 + €5 paid, in the 3.5% insurance band (€10.68), TNT to the Netherlands €8.95.
    expect(saved.total.toFixed(2)).toBe("324.63");
    expect([await stockOf(watch.id), await stockOf(strap.id)]).toEqual([1, 4]);
    expect(await orderLedger(saved.orderId)).toEqual([
      { productId: watch.id, type: "ORDER_ITEM", quantity: -2 },
      { productId: strap.id, type: "ORDER_ITEM", quantity: -1 },
    ]);

    const history = await listOrders(t.db, customer.id);
    expect(history.map((entry) => [entry.orderNumber, entry.status, entry.itemCount, entry.total?.toFixed(2)])).toEqual([[saved.orderNumber, "PAID_READY_TO_SHIP", 3, "324.63"]]);
    const view = await getCustomerOrder(t.db, customer.id, saved.orderId);
    expect(view.items.map((item) => [item.name, item.quantity, item.paid.toFixed(2), item.discount.toFixed(2)])).toEqual([
      ["Omega Seamaster 1968", 2, "300.00", "0.00"],
      ["NATO strap", 1, "5.00", "5.00"],
    ]);
    expect([view.totals.items, view.totals.discount, view.totals.shipping, view.totals.surcharge, view.totals.total].map((amount) => amount.toFixed(2))).toEqual([
      "310.00", "5.00", "8.95", "10.68", "324.63",
    ]);
    expect(view.paymentMethod).toBe("BANKTRANSFER");

    const items = await t.db.select({ productId: orderItem.productId, reason: orderItem.priceOverrideReason }).from(orderItem).where(eq(orderItem.orderId, saved.orderId));
    expect(items.find((item) => item.productId === strap.id)?.reason).toBe("Scratched buckle");
    const [stored] = await t.db.select({ soldAt: order.soldAt, userId: order.userId }).from(order).where(eq(order.id, saved.orderId));
    expect(stored).toEqual({ soldAt: expect.any(Date), userId: customer.id });
    const [payment] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, saved.orderId));
    expect(payment).toMatchObject({ provider: "BANKTRANSFER", externalPaymentId: null });

    const log = await t.db.select({ userId: logbook.userId, description: logbook.description }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(saved.orderId)))).orderBy(asc(logbook.id));
    expect(log.map((entry) => entry.description)).toEqual([
      `Manual order ${saved.orderNumber} entered by staff for ${customer.email}: €324.63 by BANKTRANSFER`,
      `Order ${saved.orderNumber}: PENDING → PAID_READY_TO_SHIP. Marked paid by staff (BANKTRANSFER).`,
    ]);
    expect(log.every((entry) => entry.userId === staff.id)).toBe(true);
  });

  it("prices a line at the shop's price in force, and the live preview shows what saving stores", async () => {
    const sale = await makeDiscount(t.db, { name: "Test sale 10%", value: "0.10", pricingType: "PERCENT", discountType: "PRODUCT" });
    const watch = await makeStockedProduct(t.db, { name: "Tissot PR 516", price: "80.00", stock: 2, discountId: sale.id });
    const lines = [{ productId: watch.id, quantity: 1 }];

    const quote = await quoteManualOrder(t.db, { lines, countryCode: "NL", shippingMethod: "UNTRACKED", waiveShipping: false, paid: true }, now);
    expect(quote.problems).toEqual([]);
    expect(quote.lines.map((line) => [line.pricing, line.listPrice.toFixed(2), line.totalPrice.toFixed(2), line.totalDiscountAmount.toFixed(2), line.available])).toEqual([["SHOP", "80.00", "72.00", "8.00", 2]]);
    expect(quote.shipping).toMatchObject({ method: "UNTRACKED", destination: "Netherlands", estimatedShippingDate: "2026-03-04", waived: false });
    expect(quote.totals.total.toFixed(2)).toBe("76.50"); // €72 + €4.50 untracked, no surcharge below €100
    expect(quote.status).toBe("PAID_READY_TO_SHIP");

    const saved = await createManualOrder(t.db, newOrder({ lines, shippingMethod: "UNTRACKED" }), { userId: staff.id, now });
    expect(saved.total).toEqual(quote.totals.total);
    expect((await getOrderView(t.db, saved.orderNumber)).totals).toEqual(quote.totals);
  });

  it("records the discount of a line sold at the shop's price, and none for a line at an override", async () => {
    const sale = await makeDiscount(t.db, { name: "Manual test sale 25%", value: "0.25", pricingType: "PERCENT", discountType: "PRODUCT" });
    const watch = await makeStockedProduct(t.db, { name: "Oris Big Crown", price: "100.00", stock: 3, discountId: sale.id });
    const bracelet = await makeStockedProduct(t.db, { name: "Oris bracelet", price: "40.00", stock: 3, discountId: sale.id });

    const saved = await createManualOrder(
      t.db,
      newOrder({ lines: [{ productId: watch.id, quantity: 2 }, { productId: bracelet.id, quantity: 1, priceOverride: "25.00", priceOverrideReason: "Display piece" }] }),
      { userId: staff.id, now },
    );
    // Two watches at €75 instead of €100: the sale took €50 off; the bracelet's €15 off was staff's override.
    expect(await recordedDiscounts(saved.orderId)).toEqual([["Manual test sale 25%", "PRODUCT", "50.00"]]);
    const [row] = await t.db.select({ discountId: orderDiscount.discountId }).from(orderDiscount).where(eq(orderDiscount.orderId, saved.orderId));
    expect(row!.discountId).toBe(sale.id);
    expect((await getDiscount(t.db, sale.id, now)).uses).toBe(1);

    const overridden = await createManualOrder(
      t.db,
      newOrder({ lines: [{ productId: bracelet.id, quantity: 1, priceOverride: "35.00", priceOverrideReason: "Price matched" }] }),
      { userId: staff.id, now },
    );
    expect(await recordedDiscounts(overridden.orderId)).toEqual([]);
    expect((await getDiscount(t.db, sale.id, now)).uses).toBe(1);
  });

  it("needs a reason for a price override", async () => {
    const parsed = createManualOrderInput.safeParse(orderInput({ lines: [{ productId: 1, quantity: 1, priceOverride: "5.00" }] }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([expect.objectContaining({ path: ["lines", 0, "priceOverrideReason"], message: "A price override needs a reason" })]);
  });

  it("refuses more than is in stock, with a clear message, and takes nothing", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Seiko 6139 chronograph", price: "200.00", stock: 2 });
    await expect(createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 3 }] }), { userId: staff.id, now })).rejects.toMatchObject({
      code: "CONFLICT",
      message: 'Only 2 of "Seiko 6139 chronograph" available; the order asks for 3.',
    });
    expect(await stockOf(watch.id)).toBe(2);
    const quote = await quoteManualOrder(t.db, { lines: [{ productId: watch.id, quantity: 3 }], countryCode: "NL", shippingMethod: "TNT", waiveShipping: false, paid: false }, now);
    expect(quote.problems).toEqual(['Only 2 of "Seiko 6139 chronograph" available; the order asks for 3.']);
  });

  it("charges no shipping for a counter sale, and waits as a future shipment when the customer wants it later", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Longines Conquest", price: "300.00", stock: 2 });
    const counter = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], paymentMethod: "ACCOUNT", waiveShipping: true }), { userId: staff.id, now });
    expect(counter).toMatchObject({ status: "PAID_READY_TO_SHIP" });
    expect(counter.total.toFixed(2)).toBe("300.00");

    // Monday 16 March is a shipping day after the next one (today): the parcel waits until then.
    const later = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], shipOn: "2026-03-15" }), { userId: staff.id, now });
    expect(later.status).toBe("PAID_FUTURE_SHIPMENT");
    expect((await getOrderView(t.db, later.orderNumber)).shipping).toMatchObject({ estimatedShippingDate: "2026-03-16", estimatedDeliveryDate: "2026-03-17" });
  });

  it("waits PENDING on account until staff mark it paid; a bank transfer still to come is taken on account", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Zenith El Primero", price: "900.00", stock: 1 });
    expect(createManualOrderInput.safeParse(orderInput({ lines: [{ productId: watch.id, quantity: 1 }], paid: false })).error?.issues[0]?.message).toBe(
      "An order still to be paid is taken on account (ACCOUNT); mark it paid when the money arrives",
    );
    const unpaid = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], paymentMethod: "ACCOUNT", paid: false }), { userId: staff.id, now });
    expect(unpaid.status).toBe("PENDING");
    expect(await stockOf(watch.id)).toBe(0);

    const paid = await markManualOrderPaid(t.db, { orderNumber: unpaid.orderNumber, paymentMethod: "BANKTRANSFER" }, { userId: staff.id, now });
    expect(paid.status).toBe("PAID_READY_TO_SHIP");
    expect((await getOrderView(t.db, unpaid.orderNumber)).paymentMethod).toBe("BANKTRANSFER");
    await expect(markManualOrderPaid(t.db, { orderNumber: unpaid.orderNumber, paymentMethod: "ACCOUNT" }, { userId: staff.id, now })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("editing an order", () => {
  it("books the differences through the ledger, recomputes the totals and logs the previous and new state", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Heuer Carrera", price: "150.00", stock: 3 });
    const strap = await makeStockedProduct(t.db, { name: "Leather strap", price: "10.00", stock: 5 });
    const box = await makeStockedProduct(t.db, { name: "Watch box", price: "20.00", stock: 4 });
    const saved = await createManualOrder(
      t.db,
      newOrder({ lines: [{ productId: watch.id, quantity: 2, priceOverride: "280.00", priceOverrideReason: "Regular customer" }, { productId: strap.id, quantity: 1 }] }),
      { userId: staff.id, now },
    );

    const updated = await updateManualOrder(
      t.db,
      edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 1 }, { productId: box.id, quantity: 2 }], address: { ...address, city: "Haarlem", postCode: "2011 AB" } }),
      { userId: staff.id, now },
    );

    // One watch at the price it was sold at (€140), two boxes at €20; the strap is gone. €180 paid: 2% band (€3.60).
    expect([await stockOf(watch.id), await stockOf(strap.id), await stockOf(box.id)]).toEqual([2, 5, 2]);
    const view = await getOrderView(t.db, saved.orderNumber);
    expect(view.items.map((item) => [item.name, item.quantity, item.paid.toFixed(2), item.discount.toFixed(2)])).toEqual([
      ["Heuer Carrera", 1, "140.00", "10.00"],
      ["Watch box", 2, "40.00", "0.00"],
    ]);
    expect(view.totals.total.toFixed(2)).toBe("192.55"); // €180 + €8.95 + €3.60
    expect(updated).toMatchObject({ status: "PAID_READY_TO_SHIP" });
    expect(updated.total).toEqual(view.totals.total);
    expect(updated.previousTotal?.toFixed(2)).toBe("309.10"); // €290 + €8.95 + 3.5% of €290 (€10.15)
    const [payment] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, saved.orderId));
    expect([payment!.itemTotal, payment!.itemTotalDiscountAmount, payment!.shippingTotal, payment!.additionalShippingFees, payment!.total].map((amount) => amount?.toFixed(2))).toEqual([
      "190.00", "10.00", "12.55", "3.60", "309.10",
    ]); // the charges follow the edit; the payment's total stays what was paid
    expect(view.address.lines).toContain("2011 AB Haarlem");
    const [line] = await t.db.select({ reason: orderItem.priceOverrideReason }).from(orderItem).where(and(eq(orderItem.orderId, saved.orderId), eq(orderItem.productId, watch.id)));
    expect(line!.reason).toBe("Regular customer");

    // The ledger: every piece out and back is a row; the strap's line is gone, its rows stay, the stock adds up.
    expect(await orderLedger(saved.orderId)).toEqual([
      { productId: watch.id, type: "ORDER_ITEM", quantity: -2 },
      { productId: watch.id, type: "ORDER_ITEM", quantity: 1 },
      { productId: box.id, type: "ORDER_ITEM", quantity: -2 },
    ]);
    const strapRows = await t.db.select({ quantity: stockRecord.quantity }).from(stockRecord).where(and(eq(stockRecord.productId, strap.id), eq(stockRecord.type, "ORDER_ITEM")));
    expect(strapRows.map((row) => row.quantity).sort()).toEqual([-1, 1]);
    expect(await reconcileStock(t.db)).toEqual([]);

    const [entry] = await t.db
      .select()
      .from(logbook)
      .where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(saved.orderId))))
      .orderBy(asc(logbook.id))
      .then((rows) => rows.filter((row) => row.description.includes("edited by staff")));
    expect(entry!.description).toBe(`Order ${saved.orderNumber} edited by staff: total €309.10 → €192.55. The customer paid €309.10: refund the difference of €116.55 under Refunds on the order page.`);
    expect(entry!.previousState).toMatchObject({ items: [{ name: "Heuer Carrera", quantity: 2 }, { name: "Leather strap", quantity: 1 }], address: { city: "Amsterdam" } });
    expect(entry!.newState).toMatchObject({ items: [{ name: "Heuer Carrera", quantity: 1 }, { name: "Watch box", quantity: 2 }], address: { city: "Haarlem" } });
  });

  it("keeps the discounts the order recorded, and adds those of lines it adds at the shop's price", async () => {
    const sale = await makeDiscount(t.db, { name: "Edit test sale €5", value: "5.00", pricingType: "FIXED", discountType: "PRODUCT" });
    const other = await makeDiscount(t.db, { name: "Edit test sale 10%", value: "0.10", pricingType: "PERCENT", discountType: "PRODUCT" });
    const watch = await makeStockedProduct(t.db, { name: "Sinn 556", price: "60.00", stock: 3, discountId: sale.id });
    const strap = await makeStockedProduct(t.db, { name: "Sinn strap", price: "30.00", stock: 3, discountId: sale.id });
    const tool = await makeStockedProduct(t.db, { name: "Spring bar tool", price: "20.00", stock: 3, discountId: other.id });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 2 }] }), { userId: staff.id, now });
    expect(await recordedDiscounts(saved.orderId)).toEqual([["Edit test sale €5", "PRODUCT", "10.00"]]);

    // The watch is kept as sold (one fewer), the strap and the tool are added at the shop's price.
    await updateManualOrder(
      t.db,
      edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }, { productId: tool.id, quantity: 1 }] }),
      { userId: staff.id, now },
    );
    expect(await recordedDiscounts(saved.orderId)).toEqual([
      ["Edit test sale €5", "PRODUCT", "15.00"],
      ["Edit test sale 10%", "PRODUCT", "2.00"],
    ]);
    // Edited again without adding anything: nothing more is recorded.
    await updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }] }), { userId: staff.id, now });
    expect(await recordedDiscounts(saved.orderId)).toHaveLength(2);
    expect((await getDiscount(t.db, sale.id, now)).uses).toBe(1);
  });

  it("refuses more than the stock plus what the order already holds", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Doxa Sub 300", price: "500.00", stock: 2 });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], ...onAccount }), { userId: staff.id, now });
    await expect(updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 3 }] }), { userId: staff.id, now })).rejects.toMatchObject({
      code: "CONFLICT",
      message: 'Only 2 of "Doxa Sub 300" available; the order asks for 3.',
    });
    await updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 2 }] }), { userId: staff.id, now });
    expect(await stockOf(watch.id)).toBe(0);
  });

  it("keeps stock right when two members of staff save the same order at once", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Rolex Oyster 6426", price: "100.00", stock: 4 });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], ...onAccount }), { userId: staff.id, now });
    const results = await Promise.allSettled([
      updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 4 }] }), { userId: staff.id, now }),
      updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 2 }] }), { userId: staff.id, now }),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);

    // Whichever saved last, the order holds what it says and the shelf the rest: never a piece lost or counted twice.
    const [held] = await t.db.select({ quantity: orderItem.quantity }).from(orderItem).where(eq(orderItem.orderId, saved.orderId));
    expect([2, 4]).toContain(held!.quantity);
    expect(await stockOf(watch.id)).toBe(4 - held!.quantity);
    const ledger = await orderLedger(saved.orderId);
    expect(ledger.reduce((sum, row) => sum + row.quantity, 0)).toBe(-held!.quantity);
    expect(await reconcileStock(t.db)).toEqual([]);
  });

  it("never sells the last piece twice when an edit and a web shop order race for it", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Universal Polerouter", price: "100.00", stock: 2 });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], ...onAccount }), { userId: staff.id, now });
    const results = await Promise.allSettled([
      updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 2 }] }), { userId: staff.id, now }),
      placeOrder(t.db, { email: "buyer@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 1 }] }, { userId: null }, now),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await stockOf(watch.id)).toBe(0);
    expect(await reconcileStock(t.db)).toEqual([]);
  });

  it("refuses an order with a label (void it first), and a shipped one", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Certina DS", price: "120.00", stock: 2 });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }] }), { userId: staff.id, now });
    await t.db.update(orderDetail).set({ gcsLabelFilename: "labels/test.pdf", trackingNumber: "3STEST" }).where(eq(orderDetail.orderId, saved.orderId));
    await expect(updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 2 }] }), { userId: staff.id, now })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `Order ${saved.orderNumber} has a shipping label; void the label first.`,
    });
    expect((await getEditableOrder(t.db, saved.orderNumber)).lockedReason).toBe(`Order ${saved.orderNumber} has a shipping label; void the label first.`);
    // Packed and handed to the carrier, as the order machine lets a paid order go.
    await t.db.transaction(async (tx) => {
      await transitionOrder(tx, saved.orderId, "PROCESSED", { userId: staff.id, description: "Test: packed.", now });
      await transitionOrder(tx, saved.orderId, "SHIPPED", { userId: staff.id, description: "Test: handed to the carrier.", now });
    });
    expect((await getEditableOrder(t.db, saved.orderNumber)).lockedReason).toBe(`Order ${saved.orderNumber} is shipped; it can no longer be changed.`);
    expect(await stockOf(watch.id)).toBe(1);
  });

  it("keeps the total of a web shop order whose payment is open at the provider, but lets its address change", async () => {
    const placed = await placeOneWatchOrder(t.db, { email: "waiting@example.com", method: "IDEAL", now });
    await t.db.update(paymentDetail).set({ externalPaymentId: "tr_open_test" }).where(eq(paymentDetail.orderId, placed.orderId));
    const lines = [{ productId: placed.watchId, quantity: 1 }];
    const editable = await getEditableOrder(t.db, placed.orderNumber);
    expect(editable).toMatchObject({ status: "PENDING", onlinePayment: true, lockedReason: null, lines: [{ productId: placed.watchId, quantity: 1, pricing: "AS_SOLD" }] });

    await expect(updateManualOrder(t.db, edit(placed.orderNumber, { lines, shippingMethod: "UNTRACKED", email: "waiting@example.com" }), { userId: staff.id, now })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("awaits its IDEAL payment of €68.95"),
    });
    const moved = await updateManualOrder(t.db, edit(placed.orderNumber, { lines, email: "waiting@example.com", address: { ...address, houseNumber: "14" } }), { userId: staff.id, now });
    expect(moved.total).toEqual(placed.total);
    const statuses = await t.db.select({ status: order.status }).from(order).where(inArray(order.id, [placed.orderId]));
    expect(statuses).toEqual([{ status: "PENDING" }]);
  });
});

describe("editing a paid order (SECURITY-REVIEW N-L9)", () => {
  it("refuses an edit that makes it cost more than was paid, and refunds stop at what was paid", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Zodiac Sea Wolf", price: "100.00", stock: 1 });
    const strap = await makeStockedProduct(t.db, { name: "Tropic strap", price: "40.00", stock: 1 });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], waiveShipping: true }), { userId: staff.id, now });
    expect(saved.total.toFixed(2)).toBe("100.00"); // shipping (and its insurance) waived

    const raise = edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }], waiveShipping: true });
    const message = `Order ${saved.orderNumber} was paid €100.00 (BANKTRANSFER); this change makes it cost €140.00. Enter what is added as a new order, which is paid on its own.`;
    const quote = await quoteManualOrder(t.db, { orderNumber: saved.orderNumber, lines: raise.lines, countryCode: "NL", shippingMethod: "TNT", waiveShipping: true, paid: true }, now);
    expect(quote.problems).toEqual([message]);
    await expect(updateManualOrder(t.db, raise, { userId: staff.id, now })).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    expect(await stockOf(strap.id)).toBe(1);

    // The refund ceiling is what the customer paid, also on the channel staff pay back by hand.
    await expect(
      createRefund(t.db, createRefundInput.parse({ orderNumber: saved.orderNumber, kind: "GOODWILL", amount: "140.00", reason: "OTHER" }), { userId: staff.id, now }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: `€140.00 is more than is left to refund of order ${saved.orderNumber}: at most €100.00.` });
    const [payment] = await t.db.select({ total: paymentDetail.total }).from(paymentDetail).where(eq(paymentDetail.orderId, saved.orderId));
    expect(payment!.total.toFixed(2)).toBe("100.00");
  });

  it("keeps what was paid when an edit lowers the order, so the difference is left to refund", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Vostok Amphibia", price: "100.00", stock: 1 });
    const strap = await makeStockedProduct(t.db, { name: "Mesh strap", price: "50.00", stock: 1 });
    const saved = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }], waiveShipping: true }), { userId: staff.id, now });
    expect(saved.total.toFixed(2)).toBe("150.00");

    const lowered = await updateManualOrder(t.db, edit(saved.orderNumber, { lines: [{ productId: watch.id, quantity: 1 }], waiveShipping: true }), { userId: staff.id, now });
    expect([lowered.total.toFixed(2), lowered.previousTotal?.toFixed(2)]).toEqual(["100.00", "150.00"]);
    expect((await getOrderView(t.db, saved.orderNumber)).totals.total.toFixed(2)).toBe("100.00");
    const proposal = await getRefundProposal(t.db, saved.orderNumber);
    expect([proposal.paidTotal, proposal.leftToRefund]).toEqual(["150.00", "150.00"]);
    const [entry] = await t.db
      .select({ description: logbook.description })
      .from(logbook)
      .where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(saved.orderId)), ilike(logbook.description, "%edited by staff%")));
    expect(entry!.description).toBe(
      `Order ${saved.orderNumber} edited by staff: total €150.00 → €100.00. The customer paid €150.00: refund the difference of €50.00 under Refunds on the order page.`,
    );

    const difference = await createRefund(t.db, createRefundInput.parse({ orderNumber: saved.orderNumber, kind: "GOODWILL", amount: "50.00", reason: "OTHER", comment: "Strap taken off the order" }), { userId: staff.id, now });
    expect(difference.status).toBe("REFUNDED");
    expect((await getRefundProposal(t.db, saved.orderNumber)).leftToRefund).toBe("100.00");
  });
});

describe("the unpaid-order sweep", () => {
  it("leaves a manual order on account to staff: it is never expired", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Watch on account", price: "100.00", stock: 1 });
    const unpaid = await createManualOrder(t.db, newOrder({ lines: [{ productId: watch.id, quantity: 1 }], paymentMethod: "ACCOUNT", paid: false }), { userId: staff.id, now });
    // Ten minutes from now, every order placed so far is past a five-minute hold.
    const sweep = await expireUnpaidOrders(t.db, {
      holds: { minutes: 5, paypalMinutes: 5 },
      paymentsFor: () => {
        throw new Error("no payment provider to ask");
      },
      now: new Date(Date.now() + 10 * 60_000),
    });
    expect([...sweep.expired, ...sweep.failed.map((entry) => entry.orderNumber)]).not.toContain(unpaid.orderNumber);
    expect((await getOrderView(t.db, unpaid.orderNumber)).status).toBe("PENDING");
    expect(await stockOf(watch.id)).toBe(0);
  });
});
