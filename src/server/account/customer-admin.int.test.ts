import { and, asc, eq, inArray } from "drizzle-orm";
import { logOrderChange } from "@/server/logbook/service";
import { beforeAll, describe, expect, it } from "vitest";
import { readSession } from "@/server/auth/session";
import { account, addressBook, cartItem, logbook, order, orderAddress, orderItem, paymentDetail, refund, session, user } from "@/server/db/schema";
import { makeInvoices } from "@/server/fulfilment/documents/service";
import { createManualOrderInput } from "@/server/orders/manual-order-schemas";
import { createManualOrder } from "@/server/orders/manual-order-service";
import { transitionOrder } from "@/server/orders/service";
import { createRefundInput } from "@/server/refunds/schemas";
import { createRefund } from "@/server/refunds/service";
import { createCaller } from "@/server/root";
import { contextFor, makeSession, makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct, placeGuestOrder } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { erasedEmail } from "./customer-admin-schemas";

/**
 * The customer admin: the table (search, sort, pages, what a customer's orders come to), one customer's page with
 * staff's note, tags and VIP, and a customer's data exported or erased on their request (GDPR).
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
let staff: Awaited<ReturnType<typeof makeUser>>;
const admin = () => createCaller(contextFor(t.db, staff));

const address = { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

/** A manual order for the customer, its shipping waived so that it costs the price: paid by bank transfer, or on account. */
async function orderFor(customer: { id: string; email: string }, price: string, options: { paid?: boolean; phoneNumber?: string } = {}) {
  const piece = await makeStockedProduct(t.db, { name: `Piece at ${price}`, price, stock: 1 });
  const paid = options.paid ?? true;
  return createManualOrder(
    t.db,
    createManualOrderInput.parse({
      userId: customer.id, address: { ...address, phoneNumber: options.phoneNumber }, email: customer.email, lines: [{ productId: piece.id, quantity: 1 }],
      shippingMethod: "TNT", waiveShipping: true, paymentMethod: paid ? "BANKTRANSFER" : "ACCOUNT", paid,
    }),
    { userId: staff.id, now },
  );
}

const move = (orderId: number, to: "PROCESSED" | "SHIPPED" | "CANCELLED") =>
  t.db.transaction((tx) => transitionOrder(tx, orderId, to, { userId: staff.id, description: "By the test.", now }));

async function shipped(customer: { id: string; email: string }, price: string, options: { phoneNumber?: string } = {}) {
  const saved = await orderFor(customer, price, options);
  await move(saved.orderId, "PROCESSED");
  await move(saved.orderId, "SHIPPED");
  return saved;
}

const goodwill = (orderNumber: string, amount: string) =>
  createRefund(t.db, createRefundInput.parse({ orderNumber, kind: "GOODWILL", amount, reason: "OTHER" }), { userId: staff.id, now });

beforeAll(async () => {
  staff = await makeUser(t.db, "ADMIN", "Staff member");
});

describe("the customer table", () => {
  it("finds customers by name, e-mail or the start of a tag, each word anywhere", async () => {
    const ada = await makeUser(t.db, "USER", "Ada Zuiderzee");
    const bob = await makeUser(t.db, "VIP", "Bob Zuiderzee");
    await admin().admin.customers.updateNotes({ userId: bob.id, staffNote: "", tags: ["Dealer Seiko"] });

    const names = async (search: string, role?: "vip" | "staff") => (await admin().admin.customers.list({ search, role, sort: "name", direction: "asc" })).rows.map((row) => row.name);
    expect(await names("zuiderzee")).toEqual(["Ada Zuiderzee", "Bob Zuiderzee"]);
    expect(await names("ada zuider")).toEqual(["Ada Zuiderzee"]);
    expect(await names(ada.email.slice(0, 12))).toEqual(["Ada Zuiderzee"]);
    expect(await names("seiko")).toEqual([]); // a tag's second word is not its start
    expect(await names("dealer")).toEqual(["Bob Zuiderzee"]);
    expect(await names("DEAL")).toEqual(["Bob Zuiderzee"]);
    expect(await names("zuiderzee", "vip")).toEqual(["Bob Zuiderzee"]);
    expect(await names("zuiderzee", "staff")).toEqual([]);
  });

  it("counts only money paid and kept: unpaid orders add an order but no money, cancelled ones nothing, refunds come off", async () => {
    const clara = await makeUser(t.db, "USER", "Clara Spendwell");
    const paid = await orderFor(clara, "100.00");
    await goodwill(paid.orderNumber, "40.00");
    await orderFor(clara, "500.00", { paid: false });
    const cancelled = await orderFor(clara, "70.00", { paid: false });
    await move(cancelled.orderId, "CANCELLED");

    const [row] = (await admin().admin.customers.list({ search: "Spendwell" })).rows;
    expect(row).toMatchObject({ name: "Clara Spendwell", orders: 2 });
    expect([row!.paid.toFixed(2), row!.refunded.toFixed(2), row!.spend.toFixed(2)]).toEqual(["100.00", "40.00", "60.00"]);
    expect(row!.lastOrderAt).not.toBeNull();
    const page = await admin().admin.customers.get({ userId: clara.id });
    expect([page.stats.orders, page.stats.spend.toFixed(2)]).toEqual([2, "60.00"]);
  });

  it("sorts by spend, orders and name either way, customers without orders last, and pages through them", async () => {
    const big = await makeUser(t.db, "USER", "Sorter Big");
    const small = await makeUser(t.db, "USER", "Sorter Small");
    await makeUser(t.db, "USER", "Sorter None");
    await orderFor(big, "300.00");
    await orderFor(small, "20.00");
    await orderFor(small, "25.00");

    const list = async (sort: "spend" | "orders" | "name", direction: "asc" | "desc") =>
      (await admin().admin.customers.list({ search: "sorter", sort, direction })).rows.map((row) => row.name);
    expect(await list("spend", "desc")).toEqual(["Sorter Big", "Sorter Small", "Sorter None"]);
    expect(await list("spend", "asc")).toEqual(["Sorter None", "Sorter Small", "Sorter Big"]);
    expect(await list("orders", "desc")).toEqual(["Sorter Small", "Sorter Big", "Sorter None"]);
    expect(await list("name", "asc")).toEqual(["Sorter Big", "Sorter None", "Sorter Small"]);
    expect((await admin().admin.customers.list({ search: "sorter", sort: "lastOrder" })).rows.at(-1)!.name).toBe("Sorter None");

    for (let index = 0; index < 27; index++) {
      const one = await makeUser(t.db, "USER", `Pager ${String(index).padStart(2, "0")}`);
      await t.db.update(user).set({ tags: ["page-test"] }).where(eq(user.id, one.id));
    }
    const second = await admin().admin.customers.list({ search: "page-test", sort: "name", direction: "asc", page: 2, pageSize: 25 });
    expect([second.totalItems, second.totalPages, second.rows.map((row) => row.name)]).toEqual([27, 2, ["Pager 25", "Pager 26"]]);
  });
});

describe("a customer's page", () => {
  it("shows their orders, refunds, address book and the logbook about them", async () => {
    const dora = await makeUser(t.db, "USER", "Dora Page");
    const customer = createCaller(contextFor(t.db, dora));
    await customer.shared.account.createAddress(address);
    const first = await orderFor(dora, "80.00");
    const second = await orderFor(dora, "30.00");
    await goodwill(first.orderNumber, "15.00");

    const page = await admin().admin.customers.get({ userId: dora.id });
    expect(page.orders.map((one) => one.orderNumber)).toEqual([second.orderNumber, first.orderNumber]);
    expect(page.refunds.map((one) => [one.orderNumber, one.amount.toFixed(2), one.status])).toEqual([[first.orderNumber, "15.00", "REFUNDED"]]);
    expect(page.addresses.map((one) => one.street)).toEqual(["Keizersgracht"]);
    expect(page.logbook.map((entry) => entry.description)).toEqual(["Customer added an address"]);
    await expect(admin().admin.customers.get({ userId: "no-such-customer" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("keeps staff's note and tags, each change logged with before and after, and an unchanged save logs nothing", async () => {
    const emil = await makeUser(t.db, "USER", "Emil Notes");
    await admin().admin.customers.updateNotes({ userId: emil.id, staffNote: "  Prefers pick-up on Saturdays  ", tags: ["collector", "Collector", "dealer"] });
    const page = await admin().admin.customers.updateNotes({ userId: emil.id, staffNote: "Prefers pick-up on Saturdays", tags: ["collector", "dealer"] });
    expect([page.staffNote, page.tags]).toEqual(["Prefers pick-up on Saturdays", ["collector", "dealer"]]);
    await admin().admin.customers.updateNotes({ userId: emil.id, staffNote: "", tags: ["collector"] });
    await admin().admin.customers.setVip({ userId: emil.id, vip: true });

    const entries = await t.db
      .select({ userId: logbook.userId, eventType: logbook.eventType, description: logbook.description, previousState: logbook.previousState, newState: logbook.newState })
      .from(logbook)
      .where(and(eq(logbook.entityType, "USER"), eq(logbook.entityId, emil.id)))
      .orderBy(asc(logbook.id));
    expect(entries).toEqual([
      {
        userId: staff.id, eventType: "CUSTOMER", description: `Staff changed the note and tags of customer ${emil.email}`,
        previousState: { staffNote: null, tags: [] }, newState: { staffNote: "Prefers pick-up on Saturdays", tags: ["collector", "dealer"] },
      },
      {
        userId: staff.id, eventType: "CUSTOMER", description: `Staff changed the note and tags of customer ${emil.email}`,
        previousState: { staffNote: "Prefers pick-up on Saturdays", tags: ["collector", "dealer"] }, newState: { staffNote: null, tags: ["collector"] },
      },
      { userId: staff.id, eventType: "CUSTOMER", description: `Staff made customer ${emil.email} a VIP`, previousState: { role: "USER" }, newState: { role: "VIP" } },
    ]);
    expect((await admin().admin.customers.get({ userId: emil.id })).logbook.map((entry) => entry.by)).toEqual(["Staff member", "Staff member", "Staff member"]);
    await expect(admin().admin.customers.setVip({ userId: staff.id, vip: true })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

/** The parts of the exported document the test reads, as JSON has them. */
type Exported = {
  account: Record<string, unknown>;
  addresses: { street: string }[];
  orders: { orderNumber: string; linkedToAccount: boolean }[];
  refunds: { amount: string }[];
  logbook: { description: string }[];
};

describe("a customer's data on their request", () => {
  it("exports everything the shop holds on them, their guest orders too, and logs the export", async () => {
    const fay = await makeUser(t.db, "USER", "Fay Export");
    const other = await makeUser(t.db, "USER", "Someone Else");
    await createCaller(contextFor(t.db, fay)).shared.account.createAddress({ ...address, street: "Prinsengracht" });
    const paid = await orderFor(fay, "90.00", { phoneNumber: "+31 6 12345678" });
    await goodwill(paid.orderNumber, "10.00");
    const watch = await makeStockedProduct(t.db, { name: "Guest watch", price: "55.00", stock: 1 });
    const guest = await placeGuestOrder(t.db, { email: fay.email.toUpperCase(), items: [{ productId: watch.id, quantity: 1 }] }, now);
    await orderFor(other, "12.00");

    const data = (await admin().admin.customers.exportData({ userId: fay.id })) as Exported;
    expect(data.account).toMatchObject({ id: fay.id, name: "Fay Export", email: fay.email, role: "USER" });
    expect(data.addresses.map((one) => one.street)).toEqual(["Prinsengracht"]);
    expect(data.orders.map((one) => [one.orderNumber, one.linkedToAccount])).toEqual([
      [paid.orderNumber, true],
      [guest.orderNumber, false],
    ]);
    expect(data.orders[0]).toMatchObject({
      address: { firstName: "Grace", street: "Keizersgracht", phoneNumber: "+31 6 12345678", email: fay.email },
      lines: [{ product: "Piece at 90.00", quantity: 1, totalPrice: "90", discount: "0" }],
      payment: { provider: "BANKTRANSFER", total: "90" },
    });
    expect(data.refunds.map((one) => one.amount)).toEqual(["10"]);
    expect(data.logbook.map((one) => one.description)).toEqual(["Customer added an address"]);
    expect(JSON.stringify(data)).not.toContain(other.email);

    const [logged] = await t.db.select().from(logbook).where(and(eq(logbook.entityId, fay.id), eq(logbook.eventType, "CUSTOMER")));
    expect(logged).toMatchObject({ userId: staff.id, description: `Staff exported the personal data of customer ${fay.email} on their request (2 orders, 1 addresses)` });
  });

  it("erases them: name and e-mail replaced, address book, sign-ins and cart gone; orders kept for the books, the invoice's address with them", async () => {
    const gus = await makeUser(t.db, "VIP", "Gus Erase");
    const customer = createCaller(contextFor(t.db, gus));
    await customer.shared.account.createAddress(address);
    const token = await makeSession(t.db, gus.id);
    await t.db.insert(account).values({ userId: gus.id, type: "oidc", provider: "google", providerAccountId: `google-${gus.id}` });
    const invoiced = await shipped(gus, "120.00", { phoneNumber: "+31 6 87654321" });
    await makeInvoices(t.db, { orderIds: [invoiced.orderId] }, { userId: staff.id, now });
    const plain = await shipped(gus, "35.00");
    await logOrderChange(t.db, plain.orderId, { userId: null, description: `Order ${plain.orderNumber} placed by a guest (${gus.email})`, newState: { email: gus.email } });
    await goodwill(plain.orderNumber, "5.00");
    await t.db.insert(cartItem).values({ userId: gus.id, productId: (await makeStockedProduct(t.db, { name: "In the cart", price: "9.00", stock: 1 })).id, quantity: 1 });
    await admin().admin.customers.updateNotes({ userId: gus.id, staffNote: "Lives above the bakery", tags: ["collector"] });

    const outcome = await admin().admin.customers.erase({ userId: gus.id });
    expect(outcome).toMatchObject({ alreadyErased: false, addressesDeleted: 1, ordersKeptWithInvoiceAddress: 1, ordersStripped: 1 });

    const [row] = await t.db.select().from(user).where(eq(user.id, gus.id));
    expect(row).toMatchObject({ name: "Erased customer", email: erasedEmail(gus.id), role: "USER", staffNote: null, tags: [], discountId: null });
    expect(row!.erasedAt).not.toBeNull();
    for (const table of [addressBook, session, account, cartItem]) expect(await t.db.select().from(table).where(eq(table.userId, gus.id))).toEqual([]);
    expect(await readSession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }))).toBeNull();

    const addresses = await t.db.select().from(orderAddress).where(eq(orderAddress.orderId, invoiced.orderId));
    expect(addresses[0]).toMatchObject({ firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", city: "Amsterdam", email: erasedEmail(gus.id), phoneNumber: null });
    const [stripped] = await t.db.select().from(orderAddress).where(eq(orderAddress.orderId, plain.orderId));
    expect(stripped).toMatchObject({ firstName: "Erased customer", lastName: "", street: "", postCode: "", city: "", countryCode: "NL", country: "Netherlands", email: erasedEmail(gus.id) });
    // What the books keep: the orders on the account, their lines, payments and refunds.
    expect((await t.db.select({ id: order.id }).from(order).where(eq(order.userId, gus.id))).length).toBe(2);
    expect((await t.db.select().from(orderItem).where(eq(orderItem.orderId, plain.orderId))).map((line) => line.totalPrice.toFixed(2))).toEqual(["35.00"]);
    expect((await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, invoiced.orderId)))[0]!.total.toFixed(2)).toBe("120.00");
    expect((await t.db.select().from(refund).where(eq(refund.orderId, plain.orderId))).map((one) => one.amount.toFixed(2))).toEqual(["5.00"]);
    // The logbook keeps what happened without their e-mail; the address book's entries without the addresses. The
    // erasure rewrote the older entries, which moves their rows on disk: only the id says which came last.
    const about = await t.db.select().from(logbook).where(eq(logbook.entityId, gus.id)).orderBy(asc(logbook.id));
    expect(JSON.stringify(about)).not.toContain(gus.email);
    const aboutTheirOrders = await t.db.select().from(logbook).where(and(eq(logbook.entityType, "ORDER"), inArray(logbook.entityId, [String(plain.orderId), String(invoiced.orderId)])));
    expect(aboutTheirOrders.length).toBeGreaterThan(0);
    expect(JSON.stringify(aboutTheirOrders)).not.toContain(gus.email);
    expect(await t.db.select({ newState: logbook.newState }).from(logbook).where(and(eq(logbook.entityType, "ADDRESS_BOOK"), eq(logbook.userId, gus.id)))).toEqual([{ newState: null }]);
    expect(about.at(-1)).toMatchObject({ userId: staff.id, eventType: "CUSTOMER", description: expect.stringContaining(`Staff erased the personal data of customer ${gus.id}`) });

    // Asked again: nothing more happens.
    const again = await admin().admin.customers.erase({ userId: gus.id });
    expect(again).toMatchObject({ alreadyErased: true, addressesDeleted: 0 });
    expect((await t.db.select().from(logbook).where(eq(logbook.entityId, gus.id))).length).toBe(about.length);

    // The same e-mail address can sign up anew.
    const [fresh] = await t.db.insert(user).values({ email: gus.email, name: "Gus Again" }).returning();
    expect(fresh!.id).not.toBe(gus.id);
  });

  it("refuses staff accounts and customers with an order still open", async () => {
    await expect(admin().admin.customers.erase({ userId: staff.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const hal = await makeUser(t.db, "USER", "Hal Open");
    const open = await orderFor(hal, "44.00");
    await expect(admin().admin.customers.erase({ userId: hal.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `Order ${open.orderNumber} is still open and needs the customer's address: ship or cancel it first, then erase.`,
    });
    expect((await t.db.select({ erasedAt: user.erasedAt }).from(user).where(eq(user.id, hal.id)))[0]!.erasedAt).toBeNull();
  });
});
