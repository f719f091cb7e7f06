import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createLabel } from "@/server/fulfilment/labels";
import { getCarrier } from "@/server/integrations/carriers/carriers";
import type { StoragePort } from "@/server/integrations/storage/port";
import { createSandboxPrivateStorage, createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { placeOneWatchOrder } from "../../../tests/helpers/factories";
import { startPaidOrders } from "../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { cancelOrder } from "@/server/refunds/service";
import { orderListInput, type OrderListInput } from "./admin-schemas";
import { getAdminOrder } from "./admin-order-page";
import { listOrders, orderExportCsv } from "./order-table";
import { transitionOrders } from "./staff-status-changes";
import { getOrderView } from "./view";

/**
 * The order admin on a real database, over orders placed through checkout and paid through the sandbox provider's
 * webhook: the table's filters, search, sort and pages; an order's page and its timeline; status changes in bulk;
 * the accountant's CSV.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const staff = { userId: "" };
const imageUrl = (key: string) => `/storage/${key}`;
let t: TestDatabase;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
let storage: StoragePort;

type Placed = { orderId: number; orderNumber: string };
let ada: Placed; // paid, two pieces, Amsterdam
let bob: Placed; // paid, Antwerp, a company with a comma and a name that looks like a formula
let carol: Placed; // placed, never paid
let dave: Placed; // paid, then cancelled by staff, which refunded it

const list = (input: OrderListInput) => listOrders(t.db, orderListInput.parse(input));
const numbers = async (input: OrderListInput) => (await list(input)).rows.map((row) => row.orderNumber);

beforeAll(async () => {
  t = await createTestDatabase();
  storage = createSandboxStorage({ root: path.join(os.tmpdir(), `order-admin-${process.pid}`) });
  await seedDatabase(t.db, storage, { products: 0, images: 0, now });
  staff.userId = (await makeUser(t.db, "ADMIN", "Sam Staff")).id;
  paidOrders = await startPaidOrders(t.db, now);
  ada = await paidOrders.placePaidOrder({ email: "ada@example.com", items: [{ name: "Seiko 5 automatic", price: "150.00" }, { name: "Leather strap", price: "10.00" }] });
  bob = await paidOrders.placePaidOrder({
    email: "bob@builder.test",
    items: [{ name: "Omega Seamaster 300", price: "900.00" }],
    address: { firstName: "=cmd", lastName: "Builder", companyName: 'Builders, "Bob" & Co', countryCode: "BE", city: "Antwerpen", postCode: "2000", street: "Meir", houseNumber: "1" },
  });
  carol = await placeOneWatchOrder(t.db, { email: "carol@example.com", method: "IDEAL", now });
  dave = await paidOrders.placePaidOrder({ email: "dave@example.com", items: [{ name: "Citizen diver", price: "80.00" }] });
  await cancelOrder(t.db, { orderNumber: dave.orderNumber }, staff, { paymentsFor: () => paidOrders.payments });
  // Orders are dated by the database's clock; spread them over the winter so dates and sorting have something to tell apart.
  const placedOn: [Placed, string][] = [[ada, "2026-01-10T10:00:00Z"], [bob, "2026-02-01T10:00:00Z"], [carol, "2026-02-20T10:00:00Z"], [dave, "2026-03-01T10:00:00Z"]];
  for (const [placed, at] of placedOn) await t.db.update(order).set({ createdAt: new Date(at) }).where(eq(order.id, placed.orderId));
});

afterAll(async () => {
  await paidOrders?.close();
  await t?.dispose();
});

describe("the order table", () => {
  it("lists every order newest first, with what staff read in a row", async () => {
    const page = await list({});
    expect(page.rows.map((row) => row.orderNumber)).toEqual([dave, carol, bob, ada].map((placed) => placed.orderNumber));
    expect([page.totalItems, page.totalIsEstimate, page.totalPages]).toEqual([4, false, 1]);
    const row = page.rows.find((found) => found.orderNumber === ada.orderNumber)!;
    expect(row).toMatchObject({ status: "PAID_READY_TO_SHIP", customer: "Ada Lovelace", email: "ada@example.com", countryCode: "NL", shop: "WEBSHOP", shippingMethod: "TNT", hasLabel: false, trackingNumber: null });
    expect(row.items).toEqual([
      { name: "Seiko 5 automatic", quantity: 1 },
      { name: "Leather strap", quantity: 1 },
    ]);
    expect(row.total).toEqual((await getOrderView(t.db, ada.orderNumber)).totals.total);
  });

  it("filters by status, country, shop, shipping method and the day placed", async () => {
    expect(await numbers({ status: "PENDING" })).toEqual([carol.orderNumber]);
    expect(await numbers({ status: "PAID_READY_TO_SHIP" })).toEqual([bob.orderNumber, ada.orderNumber]);
    expect(await numbers({ status: "CANCELLED" })).toEqual([dave.orderNumber]);
    expect(await numbers({ countryCode: "be" })).toEqual([bob.orderNumber]);
    expect(await numbers({ shop: "EBAY" })).toEqual([]);
    expect(await numbers({ shippingMethod: "TNT", status: "PAID_READY_TO_SHIP", countryCode: "NL" })).toEqual([ada.orderNumber]);
    expect(await numbers({ carrier: "UPS" })).toEqual([]);
    // Both days count whole, in shop time: 1 February 00:30 in Amsterdam is still 31 January in UTC.
    expect(await numbers({ from: "2026-02-01", to: "2026-02-20" })).toEqual([carol.orderNumber, bob.orderNumber]);
    expect(await numbers({ to: "2026-01-10" })).toEqual([ada.orderNumber]);
    expect(() => orderListInput.parse({ from: "2026-03-01", to: "2026-02-01" })).toThrow("The first day must not lie after the last.");
  });

  it("finds orders by number, e-mail, name and product", async () => {
    expect(await numbers({ search: ada.orderNumber })).toEqual([ada.orderNumber]);
    expect(await numbers({ search: ada.orderNumber.toLowerCase() })).toEqual([ada.orderNumber]);
    // The start of a number, with or without the shop's letters, and the number after the year on its own.
    expect(await numbers({ search: ada.orderNumber.slice(0, -1) })).toContain(ada.orderNumber);
    expect(await numbers({ search: ada.orderNumber.slice(3, -1) })).toContain(ada.orderNumber);
    expect(await numbers({ search: String(Number(ada.orderNumber.slice(-6))) })).toEqual([ada.orderNumber]);
    expect(await numbers({ search: "bob@builder.test" })).toEqual([bob.orderNumber]);
    expect(await numbers({ search: "BOB@build" })).toEqual([bob.orderNumber]);
    expect(await numbers({ search: "lovelace" })).toEqual([dave, carol, ada].map((placed) => placed.orderNumber));
    expect(await numbers({ search: "ada love", status: "PENDING" })).toEqual([carol.orderNumber]);
    expect(await numbers({ search: "seamaster" })).toEqual([bob.orderNumber]);
    expect(await numbers({ search: "seiko strap" })).toEqual([]);
    expect(await numbers({ search: "leather", status: "PAID_READY_TO_SHIP" })).toEqual([ada.orderNumber]);
    // Wildcards are letters here, and nothing to look for finds nothing.
    expect(await numbers({ search: "%@%" })).toEqual([]);
    expect(await numbers({ search: "--" })).toEqual([]);
  });

  it("sorts by date, total and number both ways, and pages without overlap", async () => {
    expect(await numbers({ sort: "date", direction: "asc" })).toEqual([ada, bob, carol, dave].map((placed) => placed.orderNumber));
    const byTotal = (await list({ sort: "total", direction: "desc" })).rows;
    expect(byTotal[0]!.orderNumber).toBe(bob.orderNumber);
    expect(byTotal.map((row) => row.total.toNumber())).toEqual(byTotal.map((row) => row.total.toNumber()).sort((a, b) => b - a));
    expect(await numbers({ sort: "number", direction: "asc" })).toEqual([ada, bob, carol, dave].map((placed) => placed.orderNumber));

    const extra = [];
    for (let index = 0; index < 23; index += 1) extra.push(await placeOneWatchOrder(t.db, { email: `buyer${index}@example.com`, method: "IDEAL", now }));
    const first = await list({ pageSize: 25 });
    const second = await list({ pageSize: 25, page: 2 });
    expect([first.totalItems, first.totalPages, first.rows.length, second.rows.length]).toEqual([27, 2, 25, 2]);
    expect(new Set([...first.rows, ...second.rows].map((row) => row.orderId)).size).toBe(27);
    expect(second.rows.map((row) => row.orderNumber)).toEqual([bob.orderNumber, ada.orderNumber]);
    // Past the exact count, the planner's estimate stands in, and the page says so.
    const estimated = await listOrders(t.db, orderListInput.parse({ pageSize: 25 }), { exactCountLimit: 10 });
    expect(estimated.totalIsEstimate).toBe(true);
    expect(estimated.totalItems).toBeGreaterThan(10);
  });
});

describe("an order's page", () => {
  it("shows the order's view with pictures, contact, payment and the actions its status allows", async () => {
    const page = await getAdminOrder(t.db, ada.orderNumber, imageUrl);
    const view = await getOrderView(t.db, ada.orderNumber);
    expect(page.totals).toEqual(view.totals);
    expect(page.items.map((item) => [item.name, item.image])).toEqual(view.items.map((item) => [item.name, `/storage/products/${item.productId}/1.webp`]));
    expect(page.contact).toMatchObject({ firstName: "Ada", lastName: "Lovelace", countryCode: "NL" });
    expect(page.payment.method).toBe("IDEAL");
    expect(page.payment.externalPaymentId).toMatch(/^sbx_/);
    expect([page.account, page.shop, page.label.downloadUrl, page.soldAt]).toEqual([null, "WEBSHOP", null, now]);
    expect(page.actions).toEqual(["PAID_FUTURE_SHIPMENT", "PROCESSED", "CANCELLED"]);
    expect((await getAdminOrder(t.db, carol.orderNumber, imageUrl)).actions).toEqual(["CANCELLED"]);
    expect((await getAdminOrder(t.db, dave.orderNumber, imageUrl)).actions).toEqual([]);
    await expect(getAdminOrder(t.db, "BC-1999-000001", imageUrl)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("tells the order's story: placed, stock taken, the payment's callback, paid", async () => {
    const { timeline } = await getAdminOrder(t.db, ada.orderNumber, imageUrl);
    const story = timeline.map((entry) => entry.kind);
    expect(story.indexOf("placed")).toBe(0);
    expect(timeline.filter((entry) => entry.kind === "stock").map((entry) => entry.text)).toEqual([
      "1 × Seiko 5 automatic taken from stock (order)",
      "1 × Leather strap taken from stock (order)",
    ]);
    const webhook = timeline.findIndex((entry) => entry.kind === "webhook");
    const paid = timeline.findIndex((entry) => entry.kind === "status");
    expect(timeline[webhook]!.text).toMatch(/^Sandbox reported payment sbx_\w+ paid$/);
    expect(timeline[paid]!.change).toEqual({ from: "PENDING", to: "PAID_READY_TO_SHIP" });
    expect(webhook).toBeLessThan(paid);
    expect(timeline.map((entry) => entry.at.getTime())).toEqual(timeline.map((entry) => entry.at.getTime()).sort((a, b) => a - b));
  });

  it("shows who cancelled an order and the stock that came back", async () => {
    const { timeline } = await getAdminOrder(t.db, dave.orderNumber, imageUrl);
    const cancelled = timeline.find((entry) => entry.change?.to === "CANCELLED")!;
    expect([cancelled.by, cancelled.change]).toEqual(["Sam Staff", { from: "PAID_READY_TO_SHIP", to: "CANCELLED" }]);
    expect(timeline.map((entry) => entry.text)).toContain("1 × Citizen diver back in stock (order)");
    // The money went back with the cancellation, and the timeline says so.
    expect(timeline.filter((entry) => entry.text.includes("paid back by sandbox"))).toHaveLength(2);
  });
});

describe("status changes by staff", () => {
  it("changes what the machine allows and refuses the rest, each with its reason", async () => {
    const outcome = await transitionOrders(t.db, [ada.orderId, carol.orderId, dave.orderId, 999_999, ada.orderId], "PROCESSED", staff);
    expect(outcome.done).toEqual([{ orderId: ada.orderId, orderNumber: ada.orderNumber, status: "PROCESSED" }]);
    expect(outcome.refused).toEqual([
      { orderId: carol.orderId, orderNumber: carol.orderNumber, reason: `Order ${carol.orderNumber} is PENDING and cannot become PROCESSED: it can only become PAID_READY_TO_SHIP or PAID_FUTURE_SHIPMENT or CANCELLED.` },
      { orderId: dave.orderId, orderNumber: dave.orderNumber, reason: `Order ${dave.orderNumber} is CANCELLED and cannot become PROCESSED: nothing more can happen to it.` },
      { orderId: 999_999, orderNumber: null, reason: "Order 999999 does not exist." },
    ]);
    expect(await numbers({ status: "PROCESSED" })).toEqual([ada.orderNumber]);
    const { timeline } = await getAdminOrder(t.db, ada.orderNumber, imageUrl);
    expect(timeline.at(-1)).toMatchObject({ kind: "status", by: "Sam Staff", change: { from: "PAID_READY_TO_SHIP", to: "PROCESSED" } });
  });

  it("keeps an order with a label packed until the label is voided", async () => {
    await createLabel(t.db, bob.orderId, { userId: staff.userId, now }, { carrierFor: getCarrier, storage: createSandboxPrivateStorage({ root: path.join(os.tmpdir(), `order-admin-labels-${process.pid}`) }) });
    const page = await getAdminOrder(t.db, bob.orderNumber, imageUrl);
    expect([page.status, page.label.downloadUrl, page.actions]).toEqual(["PROCESSED", `/admin/orders/label/${bob.orderNumber}`, []]);
    const label = page.timeline.find((entry) => entry.kind === "label")!;
    expect(label.text).toContain(`tracking ${page.shipping.trackingNumber}`);
    const outcome = await transitionOrders(t.db, [bob.orderId], "CANCELLED", staff);
    expect(outcome.refused.map((refusal) => refusal.reason)).toEqual([`Order ${bob.orderNumber} has a label (tracking ${page.shipping.trackingNumber}): void the label first.`]);
  });

  it("leaves paying to the payment", async () => {
    const outcome = await transitionOrders(t.db, [carol.orderId], "PAID_READY_TO_SHIP", staff);
    expect(outcome.refused.map((refusal) => refusal.reason)).toEqual([
      `Order ${carol.orderNumber} is awaiting payment: its payment marks it paid (a manual order is marked paid on its edit page).`,
    ]);
    expect((await getOrderView(t.db, carol.orderNumber)).status).toBe("PENDING");
  });
});

describe("the accountant's CSV", () => {
  const csv = async (from: string, to: string) => {
    let text = "";
    for await (const chunk of orderExportCsv(t.db, { from, to })) text += chunk;
    return text;
  };

  it("has one line per order paid in the period, amounts with a dot, quoted and inert text", async () => {
    const text = await csv("2026-03-04", "2026-03-04");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines[0]).toBe("number,date,customer,country,items,discount,shipping,surcharge,total,provider,fees");
    const [adaTotals, bobTotals] = [(await getOrderView(t.db, ada.orderNumber)).totals, (await getOrderView(t.db, bob.orderNumber)).totals];
    const amounts = (totals: typeof adaTotals) => [totals.items, totals.discount, totals.shipping, totals.surcharge, totals.total].map((amount) => amount.toFixed(2)).join(",");
    // Paid orders only: Carol never paid and Dave's order was cancelled.
    expect(lines.slice(1)).toEqual([
      `${ada.orderNumber},2026-03-04,Ada Lovelace,NL,${amounts(adaTotals)},IDEAL,`,
      `${bob.orderNumber},2026-03-04,"'=cmd Builder (Builders, ""Bob"" & Co)",BE,${amounts(bobTotals)},IDEAL,`,
      "",
    ]);
    expect(amounts(adaTotals)).toMatch(/^160\.00,0\.00,\d+\.\d\d,\d+\.\d\d,\d+\.\d\d$/);
  });

  it("is only its heading for a period without sales", async () => {
    expect(await csv("2026-03-05", "2026-03-31")).toBe("\uFEFFnumber,date,customer,country,items,discount,shipping,surcharge,total,provider,fees\r\n");
  });
});
