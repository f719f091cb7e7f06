import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderStatuses } from "@/lib/enums";
import { getDashboard } from "@/server/admin/dashboard-service";
import { getSidebarInformation } from "@/server/admin/sidebar-service";
import { listDiscounts } from "@/server/discounts/admin-service";
import * as schema from "@/server/db/schema";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { orderTotals } from "@/server/orders/totals";
import { getOrderView } from "@/server/orders/view";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../../tests/helpers/test-database";
import { DAY } from "./durations";
import { seedDatabase } from "./seed";

/** The demo's six months of orders on a fresh seed: states the shop could reach, and figures the admin can show. */

const now = new Date("2026-03-18T15:30:00Z"); // a Wednesday afternoon in Amsterdam, a shipping day
let t: TestDatabase;
let storageRoot: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  storageRoot = mkdtempSync(path.join(os.tmpdir(), "seed-orders-"));
  await seedDatabase(t.db, createSandboxStorage({ root: storageRoot }), { images: 0, now });
  const [admin] = await t.db.select({ id: schema.user.id }).from(schema.user).where(eq(schema.user.email, "admin@example.com"));
  adminId = admin!.id;
});

afterAll(async () => {
  await t?.dispose();
  rmSync(storageRoot, { recursive: true, force: true });
});

describe("demo orders", () => {
  it("come in every status from both shops over six months, some by the signed-in demo customer", async () => {
    const orders = await t.db
      .select({ status: schema.order.status, shop: schema.orderDetail.shop, createdAt: schema.order.createdAt, email: schema.orderAddress.email, country: schema.orderAddress.countryCode, method: schema.orderDetail.shippingMethod, carrier: schema.orderDetail.carrier })
      .from(schema.order)
      .innerJoin(schema.orderDetail, eq(schema.orderDetail.orderId, schema.order.id))
      .innerJoin(schema.orderAddress, eq(schema.orderAddress.orderId, schema.order.id));
    expect(orders.length).toBeGreaterThan(150);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(orderStatuses));
    expect(new Set(orders.map((o) => o.shop))).toEqual(new Set(["WEBSHOP", "EBAY"]));
    expect(new Set(orders.map((o) => o.method))).toEqual(new Set(["UNTRACKED", "TNT"]));
    expect(new Set(orders.map((o) => o.carrier).filter(Boolean))).toEqual(new Set(["POSTNL", "UPS"]));
    expect(new Set(orders.map((o) => o.country)).size).toBeGreaterThan(8);
    expect(orders.filter((o) => o.status === "SHIPPED").length / orders.length).toBeGreaterThan(0.8);
    expect(orders.some((o) => o.email === "customer@example.com")).toBe(true);
    const times = orders.map((o) => o.createdAt.getTime());
    expect(Math.min(...times)).toBeLessThan(now.getTime() - 150 * DAY);
    expect(Math.max(...times)).toBeLessThanOrEqual(now.getTime());
  });

  it("have totals as orderTotals adds them, lines priced from the products, some discounted", async () => {
    const items = await t.db
      .select({ orderId: schema.orderItem.orderId, quantity: schema.orderItem.quantity, totalPrice: schema.orderItem.totalPrice, totalDiscountAmount: schema.orderItem.totalDiscountAmount, price: schema.product.price })
      .from(schema.orderItem)
      .innerJoin(schema.product, eq(schema.product.id, schema.orderItem.productId));
    const payments = await t.db.select().from(schema.paymentDetail);
    expect(payments.length).toBeGreaterThan(0);
    for (const payment of payments) {
      const lines = items.filter((item) => item.orderId === payment.orderId);
      const totals = orderTotals(lines, { shippingTotal: payment.shippingTotal, surcharge: payment.additionalShippingFees ?? new Decimal(0) });
      expect([payment.itemTotal, payment.itemTotalDiscountAmount, payment.total].map(String)).toEqual([totals.items, totals.discount, totals.total].map(String));
      expect(totals.shipping.greaterThan(0)).toBe(true);
    }
    for (const item of items) expect(item.totalPrice.plus(item.totalDiscountAmount).toFixed(2)).toBe(item.price.times(item.quantity).toFixed(2));
    expect(items.filter((item) => item.totalDiscountAmount.greaterThan(0)).length).toBeGreaterThan(5);
  });

  it("record the discounts that took money off them, so the discounts admin shows uses and revenue", async () => {
    const mismatched = await queryRows<{ id: number }>(
      t.db,
      sql`select o.id from "order" o
          where coalesce((select sum(amount) from order_discount d where d.order_id = o.id), 0) <> (select sum(total_discount_amount) from order_item i where i.order_id = o.id)`,
    );
    expect(mismatched).toEqual([]);
    const [ebay] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from order_discount d join order_detail od on od.order_id = d.order_id where od.shop = 'EBAY'`);
    expect(ebay!.n).toBe(0);
    const used = (await listDiscounts(t.db, {}, now)).filter((row) => row.uses > 0);
    expect(new Set(used.map((row) => row.discountType))).toEqual(new Set(["PRODUCT", "GLOBAL", "USER", "COUPON"]));
    for (const row of used) expect(row.revenue.greaterThan(0)).toBe(true);
  });

  it("took their stock through the ledger: every product's stock is its ledger's sum, a cancelled order's came back", async () => {
    const drift = await queryRows<{ id: number }>(
      t.db,
      sql`select p.id from product p where p.stock <> coalesce((select sum(quantity) from stock_record r where r.product_id = p.id), 0) or p.stock < 0`,
    );
    expect(drift).toEqual([]);
    const perOrder = await queryRows<{ status: string; taken: number; lines: number }>(
      t.db,
      sql`select o.status, -sum(r.quantity)::int as taken, sum(i.quantity)::int as lines
          from "order" o join order_item i on i.order_id = o.id join stock_record r on r.order_item_id = i.id group by o.id, o.status`,
    );
    for (const row of perOrder) expect(row.taken).toBe(row.status === "CANCELLED" ? 0 : row.lines);
  });

  it("read like the shop's past: each order's logbook timeline is dated step by step, its sale in the ledger when it was placed", async () => {
    const [shipped] = await t.db
      .select({ id: schema.order.id, createdAt: schema.order.createdAt, soldAt: schema.order.soldAt, shippedAt: schema.orderDetail.shippedAt, orderNumber: schema.order.orderNumber })
      .from(schema.order)
      .innerJoin(schema.orderDetail, eq(schema.orderDetail.orderId, schema.order.id))
      .where(eq(schema.order.status, "SHIPPED"))
      .orderBy(asc(schema.order.id))
      .limit(1);
    const timeline = await t.db
      .select({ createdAt: schema.logbook.createdAt, newState: schema.logbook.newState })
      .from(schema.logbook)
      .where(sql`${schema.logbook.entityType} = 'ORDER' and ${schema.logbook.entityId} = ${String(shipped!.id)} and ${schema.logbook.eventType} = 'ORDER'`)
      .orderBy(asc(schema.logbook.createdAt), asc(schema.logbook.id));
    expect(timeline.map((entry) => (entry.newState as { status: string }).status)).toEqual(["PENDING", "PAID_READY_TO_SHIP", "PROCESSED", "SHIPPED"]);
    expect(timeline[0]!.createdAt).toEqual(shipped!.createdAt);
    expect(timeline[1]!.createdAt).toEqual(shipped!.soldAt);
    expect(timeline.at(-1)!.createdAt).toEqual(shipped!.shippedAt);

    const undated = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from stock_record r join order_item i on i.id = r.order_item_id join "order" o on o.id = i.order_id
          where r.quantity < 0 and r.created_at <> o.created_at`,
    );
    expect(undated[0]!.n).toBe(0);
    const view = await getOrderView(t.db, shipped!.orderNumber);
    expect(view.status).toBe("SHIPPED");
  });

  it("give the dashboard revenue and a chart, and the sidebar its counts", async () => {
    const dashboard = await getDashboard(t.db, adminId, now);
    const month = dashboard.periods.find((period) => period.key === "30d")!;
    expect(month.orders).toBeGreaterThan(10);
    expect(month.revenue.greaterThan(0)).toBe(true);
    expect(month.piecesWithoutCost).toBe(0);
    expect(dashboard.days.filter((day) => day.orders > 0).length).toBeGreaterThan(10);
    const sidebar = await getSidebarInformation(t.db, adminId);
    expect(Object.values(sidebar.orders).every((count) => count > 0)).toBe(true);
    // Staff have read the history; only the last day is new to them.
    expect(sidebar.logbook.totalCount).toBeLessThan(100);
  });

  it("leave the order numbers to continue after them", async () => {
    const [last] = await t.db.select({ orderNumber: schema.order.orderNumber }).from(schema.order).orderBy(sql`${schema.order.id} desc`).limit(1);
    const [created] = await t.db.insert(schema.order).values({ userId: null }).returning({ orderNumber: schema.order.orderNumber });
    expect(Number(created!.orderNumber.slice(-6))).toBe(Number(last!.orderNumber.slice(-6)) + 1);
  });
});
