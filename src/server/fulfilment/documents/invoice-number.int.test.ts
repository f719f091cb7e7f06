import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceCounter, logbook, orderDetail } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { placeOneWatchOrder } from "../../../../tests/helpers/factories";
import { startPaidOrders } from "../../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../../tests/helpers/test-database";
import { assignInvoiceNumber } from "./invoice-number";
import { makeInvoices } from "./service";

/**
 * Invoice numbers on a real database: one per order for good, sequential per year in shop time, and, when requests
 * race (run with TEST_DATABASE_URL, each transaction on its own PostgreSQL connection), no gaps and no duplicates,
 * also when some of the racing transactions roll back after taking a number.
 */

const now = new Date("2026-03-04T09:00:00Z");
let t: TestDatabase;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
let counter = 0;

const paidOrder = () => paidOrders.placePaidOrder({ email: `invoice-${++counter}@example.com`, items: [{ name: `Seiko 5 no. ${counter}`, price: "120.00", itemType: "WRISTWATCH" }] });
const invoiceNumberOf = async (orderId: number) => (await t.db.select({ number: orderDetail.invoiceNumber }).from(orderDetail).where(eq(orderDetail.orderId, orderId)))[0]!.number;
const lastNumber = async (year: number) => (await t.db.select({ last: invoiceCounter.lastNumber }).from(invoiceCounter).where(eq(invoiceCounter.year, year)))[0]?.last ?? 0;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `invoice-number-${process.pid}`) }), { products: 0, images: 0, now });
  paidOrders = await startPaidOrders(t.db, now);
});

afterAll(async () => {
  await paidOrders?.close();
  await t?.dispose();
});

describe("invoice numbers", () => {
  it("are given once per order, in sequence, and kept when the invoice is printed again", async () => {
    const first = await paidOrder();
    const second = await paidOrder();
    const staff = { userId: null, now };

    const a = await assignInvoiceNumber(t.db, first.orderId, staff);
    const b = await assignInvoiceNumber(t.db, second.orderId, staff);
    const again = await assignInvoiceNumber(t.db, first.orderId, { userId: null, now: new Date("2026-05-01T10:00:00Z") });

    expect([a.invoiceNumber, b.invoiceNumber]).toEqual(["2026-000001", "2026-000002"]);
    expect(again).toEqual({ invoiceNumber: "2026-000001", invoicedAt: now });
    expect(await invoiceNumberOf(first.orderId)).toBe("2026-000001");
    expect(await lastNumber(2026)).toBe(2);

    const logged = await t.db
      .select({ description: logbook.description })
      .from(logbook)
      .where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(first.orderId)), sql`${logbook.description} like 'Invoice %'`));
    expect(logged).toEqual([{ description: `Invoice 2026-000001 made for order ${first.orderNumber}` }]);
  });

  it("take the year from the shop's clock: 23:30 UTC on New Year's Eve is already next year in Amsterdam", async () => {
    const paid = await paidOrder();
    const assigned = await assignInvoiceNumber(t.db, paid.orderId, { userId: null, now: new Date("2026-12-31T23:30:00Z") });
    expect(assigned.invoiceNumber).toBe("2027-000001");
  });

  it("are refused for an order that is not paid", async () => {
    const unpaid = await placeOneWatchOrder(t.db, { email: "unpaid@example.com", method: "IDEAL", now });
    await expect(assignInvoiceNumber(t.db, unpaid.orderId, { userId: null, now })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: `Order ${unpaid.orderNumber} is PENDING: only paid orders get an invoice.`,
    });
    expect(await invoiceNumberOf(unpaid.orderId)).toBeNull();
  });

  it("have no gaps and no duplicates when requests race, some of them rolling back", async () => {
    const year = 2028; // a year of its own, so the other tests' numbers do not count
    const at = new Date("2028-06-01T10:00:00Z");
    const orders = [];
    for (let index = 0; index < 9; index++) orders.push(await paidOrder());
    const rollsBack = (index: number) => index % 3 === 0;

    const results = await Promise.allSettled([
      ...orders.map((paid, index) =>
        t.db.transaction(async (tx) => {
          const assigned = await assignInvoiceNumber(tx, paid.orderId, { userId: null, now: at });
          // Hold the counter's lock a moment, so the others really queue behind it.
          await tx.execute(sql`select pg_sleep(0.05)`);
          if (rollsBack(index)) throw new Error("the PDF could not be made");
          return assigned.invoiceNumber;
        }),
      ),
      // The same order asked for twice at once gets one number.
      assignInvoiceNumber(t.db, orders[1]!.orderId, { userId: null, now: at }).then((assigned) => assigned.invoiceNumber),
    ]);

    const committed = orders.filter((_, index) => !rollsBack(index));
    const numbers = await Promise.all(committed.map((paid) => invoiceNumberOf(paid.orderId)));
    expect([...numbers].sort()).toEqual(committed.map((_, index) => `2028-${String(index + 1).padStart(6, "0")}`));
    expect(await lastNumber(year)).toBe(committed.length);
    for (const [index, paid] of orders.entries()) {
      if (rollsBack(index)) expect(await invoiceNumberOf(paid.orderId)).toBeNull();
    }
    const [sameOrderFirst, sameOrderSecond] = [results[1], results.at(-1)];
    expect(sameOrderFirst).toEqual({ status: "fulfilled", value: await invoiceNumberOf(orders[1]!.orderId) });
    expect(sameOrderSecond).toEqual(sameOrderFirst);

    // The numbers the rolled-back transactions took are handed out again, after the last one given.
    const late = await assignInvoiceNumber(t.db, orders[0]!.orderId, { userId: null, now: at });
    expect(late.invoiceNumber).toBe(`2028-${String(committed.length + 1).padStart(6, "0")}`);
  });

  it("are made by makeInvoices once per order, with no gaps, when two staff make the same invoices at once (SECURITY-REVIEW N-L1)", async () => {
    const at = new Date("2029-06-01T10:00:00Z"); // a year of its own, so the numbers start at 1
    const orders = [];
    for (let index = 0; index < 6; index++) orders.push(await paidOrder());
    const ids = orders.map((paid) => paid.orderId);

    // The same selection, one of them in the opposite order: both lock every order before taking a number.
    const [first, second] = await Promise.all([
      makeInvoices(t.db, { orderIds: ids }, { userId: null, now: at }),
      makeInvoices(t.db, { orderIds: [...ids].reverse() }, { userId: null, now: at }),
    ]);

    const numbers = await Promise.all(ids.map(invoiceNumberOf));
    expect([...numbers].sort()).toEqual(ids.map((_, index) => `2029-${String(index + 1).padStart(6, "0")}`));
    expect(await lastNumber(2029)).toBe(ids.length);
    const byOrder = (made: typeof first) => Object.fromEntries(made.invoices.map((invoice) => [invoice.orderId, invoice.invoiceNumber]));
    expect(byOrder(first)).toEqual(Object.fromEntries(ids.map((id, index) => [id, numbers[index]])));
    expect(byOrder(second)).toEqual(byOrder(first));
    // Each order was made once, by one of the two calls, and logged once.
    expect([...first.invoices, ...second.invoices].filter((invoice) => invoice.made).map((invoice) => invoice.orderId).sort((a, b) => a - b)).toEqual(ids);
    const logged = await t.db
      .select({ entityId: logbook.entityId })
      .from(logbook)
      .where(and(eq(logbook.entityType, "ORDER"), sql`${logbook.description} like 'Invoice 2029-%'`));
    expect(logged.map((entry) => Number(entry.entityId)).sort((a, b) => a - b)).toEqual(ids);

    // Made again later, nothing changes.
    const later = await makeInvoices(t.db, { orderIds: ids }, { userId: null, now: new Date("2029-07-01T10:00:00Z") });
    expect(later.invoices.every((invoice) => !invoice.made)).toBe(true);
    expect(await lastNumber(2029)).toBe(ids.length);
  });
});
