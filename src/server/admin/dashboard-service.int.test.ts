import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { orderItem, product } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { createSandboxPayments, type SandboxOutcome } from "@/server/integrations/payments/sandbox";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { transitionOrder } from "@/server/orders/service";
import { createRefund } from "@/server/refunds/service";
import { makeProduct, makeProducts, placeGuestOrder, stockFromBox } from "../../../tests/helpers/factories";
import { payOnSandbox } from "../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { getDashboard, getDashboardMargins } from "./dashboard-service";
import { getSidebarInformation } from "./sidebar-service";

/**
 * The dashboard's figures for orders placed through checkout and paid through the sandbox provider and the
 * payment webhook, so that it reads exactly the rows the shop writes (issue 11, acceptance 1).
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000);
let t: TestDatabase;
let payments: PaymentsPort;
let admin: { id: string };
/** A guest order placed at `placedAt`, its sandbox payment settled with `outcome` at that time, or left open. */
async function order(items: PlaceOrderInput["items"], placedAt: Date, outcome: SandboxOutcome | null, couponCode?: string) {
  const placed = await placeGuestOrder(t.db, { email: "buyer@example.com", items, couponCode }, placedAt);
  await payOnSandbox(t.db, placed, payments, outcome, placedAt);
  return placed;
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `dashboard-${process.pid}`) }), { products: 0, images: 0, now });
  admin = await makeUser(t.db, "ADMIN", "Ada");
  payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
});

afterAll(() => t?.dispose());

describe("dashboard", () => {
  it("works with zero orders", async () => {
    const dashboard = await getDashboard(t.db, admin.id, now);
    expect(dashboard.periods.map((period) => [period.key, period.orders, period.revenue.toFixed(2), period.marginRate])).toEqual([
      ["today", 0, "0.00", null],
      ["7d", 0, "0.00", null],
      ["30d", 0, "0.00", null],
    ]);
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.waiting.map((row) => row.count)).toEqual([0, 0, 0, 0]);
  });

  it("counts as revenue what customers paid for items after discounts, with gross margin from purchase costs", async () => {
    const crown = await makeProduct(t.db, { name: "Crown", price: "40.00", stock: 0 });
    await stockFromBox(t.db, admin.id, { productId: crown.id, quantity: 6, unitCost: "10.00", currency: "EUR" });

    // €80 of crowns with WELCOME10's 10% off: the customer pays €72 for the items.
    const discounted = await order([{ productId: crown.id, quantity: 2 }], now, "paid", "WELCOME10");
    const earlier = await order([{ productId: crown.id, quantity: 1 }], tenDaysAgo, "paid");
    await t.db.transaction(async (tx) => {
      await transitionOrder(tx, earlier.orderId, "PROCESSED", { userId: admin.id, description: "Packed" });
      await transitionOrder(tx, earlier.orderId, "SHIPPED", { userId: admin.id, description: "Handed to the carrier" });
    });
    await order([{ productId: crown.id, quantity: 1 }], now, "failed");
    await order([{ productId: crown.id, quantity: 1 }], now, null);

    const dashboard = await getDashboard(t.db, admin.id, now);
    const [today, week, month] = dashboard.periods;
    expect(discounted.total.greaterThan(72)).toBe(true); // shipping is paid on top, and is not item revenue
    expect([today!.orders, today!.revenue.toFixed(2), today!.purchaseCost.toFixed(2), today!.grossMargin.toFixed(2)]).toEqual([1, "72.00", "20.00", "52.00"]);
    expect(week!.orders).toBe(1);
    expect([month!.orders, month!.revenue.toFixed(2), month!.grossMargin.toFixed(2), month!.marginRate?.toFixed(4)]).toEqual([2, "112.00", "82.00", "0.7321"]);
    expect(dashboard.days.reduce((sum, day) => sum.plus(day.revenue), new Decimal(0)).toFixed(2)).toBe("112.00");
    expect(dashboard.days.at(-1)).toEqual({ date: "2026-03-04", revenue: new Decimal("72.00"), orders: 1 });
    expect(dashboard.waiting).toEqual([
      { status: "PENDING", count: 1 },
      { status: "PAID_READY_TO_SHIP", count: 1 },
      { status: "PAID_FUTURE_SHIPMENT", count: 0 },
      { status: "PROCESSED", count: 0 },
    ]);
    expect((await getSidebarInformation(t.db, admin.id)).orders).toEqual({ pending: 1, paidReady: 1, paidFuture: 0, processed: 0 });
    // Six bought, two and one sold, one held by the unpaid order; the failed payment's piece came back.
    expect(dashboard.stock.stockValue.toFixed(2)).toBe("20.00");
    expect(dashboard.problems.every((row) => row.logLevel !== "INFO")).toBe(true);
  });

  it("shows the refunds given in a period apart from revenue, and the margin per month and channel", async () => {
    // Orders and refunds dated by the clock here: a refund is dated when it is given.
    const today = new Date();
    const strap = await makeProduct(t.db, { name: "Strap", price: "50.00", stock: 0 });
    await stockFromBox(t.db, admin.id, { productId: strap.id, quantity: 4, unitCost: "20.00", currency: "EUR" });
    const placed = await order([{ productId: strap.id, quantity: 2 }], today, "paid");
    const [line] = await t.db.select({ id: orderItem.id }).from(orderItem).where(eq(orderItem.orderId, placed.orderId));
    await createRefund(
      t.db,
      { orderNumber: placed.orderNumber, kind: "PRODUCT", orderItemId: line!.id, quantity: 1, restock: true, amount: new Decimal("50.00"), reason: "WRONG_ITEM" },
      { userId: admin.id, now: today },
      { paymentsFor: () => payments },
    );

    const [day] = (await getDashboard(t.db, admin.id, new Date())).periods;
    expect([day!.orders, day!.revenue.toFixed(2), day!.refunds, day!.refunded.toFixed(2), day!.revenueAfterRefunds.toFixed(2)]).toEqual([1, "100.00", 1, "50.00", "50.00"]);
    // The piece that came back went on the shelf again: the order is charged for the one it kept.
    expect(day!.purchaseCost.toFixed(2)).toBe("20.00");

    const { months } = await getDashboardMargins(t.db, { months: 2 }, new Date());
    expect(months.map((row) => row.shop)).toEqual(["WEBSHOP", "EBAY", "WEBSHOP", "EBAY"]);
    const [web, ebay] = months.slice(2);
    expect([web!.orders, web!.revenue.toFixed(2), web!.purchaseCost.toFixed(2), web!.refunds.toFixed(2)]).toEqual([1, "100.00", "20.00", "50.00"]);
    expect(web!.margin.toFixed(2)).toBe(placed.total.minus("20.00").minus("50.00").toFixed(2));
    expect([ebay!.orders, ebay!.margin.toFixed(2)]).toEqual([0, "0.00"]);
    await expect(getDashboardMargins(t.db, { months: 13 })).rejects.toThrow();
  });

  it("lists the products lowest on stock first, the most recently changed first among equals, eight at most", async () => {
    const sold = await makeProducts(t.db, Array.from({ length: 9 }, (_, index) => ({ name: `Sold out ${index}`, stock: 0 })));
    const lastOne = await makeProduct(t.db, { name: "Last one", stock: 1 });
    const hidden = await makeProduct(t.db, { name: "Offline", stock: 0, wsStatus: "OFFLINE" });
    for (const [index, made] of sold.entries()) {
      await t.db.update(product).set({ updatedAt: new Date(now.getTime() + index * 60_000) }).where(eq(product.id, made.id));
    }
    const { lowStock } = await getDashboard(t.db, admin.id, now);
    expect(lowStock.map((row) => row.id)).toEqual(sold.slice(1).reverse().map((made) => made.id));
    expect(lowStock.map((row) => row.id)).not.toContain(lastOne.id);
    expect(lowStock.map((row) => row.id)).not.toContain(hidden.id);
  });
});
