import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminNotification, configParams, logbook, order, orderItem, product } from "@/server/db/schema";
import { getDashboard } from "@/server/admin/dashboard-service";
import { getBulkOfferProgress } from "@/server/admin/marketplace-progress";
import { getSidebarInformation } from "@/server/admin/sidebar-service";
import { createEcbExchangeRate } from "@/server/integrations/exchange-rate/live";
import { getLogbookEntry, listLogbook, markLogbookLevelRead, markLogbookRead, unreadLogCounts } from "@/server/logbook/service";
import { listNotifications, markNotificationRead } from "@/server/notifications/service";
import { addPurchaseRecord, createBox, explodeBox, exchangeRateInfo, refreshExchangeRate, shipBox } from "@/server/stock/service";
import { makeProduct } from "../helpers/factories";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { makeUser, setExchangeRate } from "./admin-fixtures";

let t: TestDatabase;
let ada: { id: string };
let bob: { id: string };

beforeAll(async () => {
  t = await createTestDatabase();
  ada = await makeUser(t.db, "ADMIN", "Ada");
  bob = await makeUser(t.db, "ADMIN", "Bob");
  await setExchangeRate(t.db, "60.00");
});

afterAll(() => t?.dispose());

describe("logbook read tracking", () => {
  it("counts unread entries per staff member and level, and reading one changes only that member's counts", async () => {
    await t.db.insert(logbook).values([
      { eventType: "DEPLOY", logLevel: "INFO", description: "Deployed" },
      { eventType: "EMAIL", logLevel: "WARNING", description: "Mail slow" },
      { eventType: "WEBHOOK", logLevel: "ERROR", description: "Bad signature", errorData: { reason: "mismatch" } },
      { eventType: "WEBHOOK", logLevel: "ERROR", description: "Replay ignored" },
    ]);
    expect(await unreadLogCounts(t.db, ada.id)).toEqual({ totalCount: 4, infoCount: 1, warningCount: 1, errorCount: 2 });
    const errors = await listLogbook(t.db, ada.id, { level: "ERROR", unreadOnly: false, page: 1, pageSize: 50 });
    expect(errors.rows.map((row) => row.description)).toEqual(["Replay ignored", "Bad signature"]);
    const detail = await getLogbookEntry(t.db, ada.id, errors.rows[1]!.id);
    expect(detail).toMatchObject({ read: true, errorData: { reason: "mismatch" } });
    await markLogbookRead(t.db, ada.id, [errors.rows[1]!.id]);
    expect((await getSidebarInformation(t.db, ada.id)).logbook).toEqual({ totalCount: 3, warningCount: 1, errorCount: 1 });
    expect((await getSidebarInformation(t.db, bob.id)).logbook).toEqual({ totalCount: 4, warningCount: 1, errorCount: 2 });
    await markLogbookLevelRead(t.db, ada.id, "ERROR");
    expect((await unreadLogCounts(t.db, ada.id)).errorCount).toBe(0);
    const unread = await listLogbook(t.db, ada.id, { level: "ERROR", unreadOnly: true, page: 1, pageSize: 50 });
    expect(unread.totalItems).toBe(0);
    const searched = await listLogbook(t.db, bob.id, { level: "ERROR", search: "signature", unreadOnly: false, page: 1, pageSize: 25 });
    expect(searched.rows.map((row) => row.description)).toEqual(["Bad signature"]);
  });
});

describe("dashboard", () => {
  it("works with zero orders", async () => {
    const dashboard = await getDashboard(t.db, ada.id);
    expect(dashboard.periods.map((period) => [period.key, period.orders, period.revenue.toFixed(2), period.marginRate])).toEqual([
      ["today", 0, "0.00", null],
      ["7d", 0, "0.00", null],
      ["30d", 0, "0.00", null],
    ]);
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.waiting.map((row) => row.count)).toEqual([0, 0, 0, 0]);
  });

  it("computes revenue, orders and gross margin from purchase costs, and lists what waits and what runs low", async () => {
    const crown = await makeProduct(t.db, { name: "Crown", price: "40.00", stock: 0 });
    const { id: boxId } = await createBox(t.db, ada.id);
    await addPurchaseRecord(t.db, { boxId, productId: crown.id, quantity: 4, unitCost: "10.00", currency: "EUR" }, ada.id);
    await shipBox(t.db, { boxId, trackingNumber: "LX1234PH", estimatedDeliveryDate: "2030-01-01" }, ada.id);
    await explodeBox(t.db, boxId, ada.id);

    const now = new Date();
    const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000);
    const [paidToday, paidEarlier, cancelled] = await t.db
      .insert(order)
      .values([
        { status: "PAID_READY_TO_SHIP", soldAt: now },
        { status: "SHIPPED", soldAt: tenDaysAgo },
        { status: "CANCELLED", soldAt: now },
      ])
      .returning();
    await t.db.insert(order).values({ status: "PENDING" });
    await t.db.insert(orderItem).values([
      { orderId: paidToday!.id, productId: crown.id, quantity: 2, totalPrice: new Decimal("80.00"), totalDiscountAmount: new Decimal("8.00") },
      { orderId: paidEarlier!.id, productId: crown.id, quantity: 1, totalPrice: new Decimal("40.00") },
      { orderId: cancelled!.id, productId: crown.id, quantity: 1, totalPrice: new Decimal("40.00") },
    ]);

    const dashboard = await getDashboard(t.db, ada.id, now);
    const [today, week, month] = dashboard.periods;
    expect([today!.orders, today!.revenue.toFixed(2), today!.purchaseCost.toFixed(2), today!.grossMargin.toFixed(2)]).toEqual([1, "72.00", "20.00", "52.00"]);
    expect(week!.orders).toBe(1);
    expect([month!.orders, month!.revenue.toFixed(2), month!.grossMargin.toFixed(2), month!.marginRate?.toFixed(4)]).toEqual([2, "112.00", "82.00", "0.7321"]);
    expect(dashboard.days.reduce((sum, day) => sum.plus(day.revenue), new Decimal(0)).toFixed(2)).toBe("112.00");
    expect(dashboard.waiting).toEqual([
      { status: "PENDING", count: 1 },
      { status: "PAID_READY_TO_SHIP", count: 1 },
      { status: "PAID_FUTURE_SHIPMENT", count: 0 },
      { status: "PROCESSED", count: 0 },
    ]);
    expect((await getSidebarInformation(t.db, ada.id)).orders).toEqual({ pending: 1, paidReady: 1, paidFuture: 0, processed: 0 });
    expect(dashboard.stock.stockValue.toFixed(2)).toBe("40.00");
    expect(dashboard.problems.every((row) => row.logLevel !== "INFO")).toBe(true);
  });
});

describe("admin notifications", () => {
  it("lists unread first and marks one read by its first reader", async () => {
    const [first] = await t.db
      .insert(adminNotification)
      .values([
        { type: "REFUND", severity: "ERROR", message: "Refund failed" },
        { type: "ORDER", severity: "INFO", message: "New order" },
      ])
      .returning();
    expect((await listNotifications(t.db, { unreadOnly: true, limit: 20 })).unread).toBe(2);
    await markNotificationRead(t.db, first!.id, ada.id);
    await markNotificationRead(t.db, first!.id, bob.id);
    const list = await listNotifications(t.db, { unreadOnly: false, limit: 20 });
    expect(list.unread).toBe(1);
    expect(list.rows.at(-1)).toMatchObject({ message: "Refund failed", readBy: "Ada" });
    await expect(markNotificationRead(t.db, 999_999, ada.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("bulk marketplace progress", () => {
  it("is absent while no bulk update runs and a percentage of the marketplace products while one does", async () => {
    await t.db.insert(configParams).values({ param: "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID", value: "0" });
    expect(await getBulkOfferProgress(t.db)).toEqual({ progress: null });
    const listed = [];
    for (let i = 0; i < 4; i++) listed.push(await makeProduct(t.db, { name: `Listed ${i}` }));
    for (const row of listed) await t.db.update(product).set({ ebayStatus: "ONLINE" }).where(eq(product.id, row.id));
    await t.db.update(configParams).set({ value: String(listed[0]!.id) }).where(eq(configParams.param, "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID"));
    expect(await getBulkOfferProgress(t.db)).toEqual({
      progress: { currentPercent: "25", estimatedTimeToCompletion: null, currentCount: 1, totalCount: 4 },
    });
  });
});

describe("exchange rate", () => {
  it("refreshes the stored rate from the ECB feed and logs old and new", async () => {
    const server = createServer((_request, response) => {
      response.setHeader("content-type", "text/xml");
      response.end(`<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube><Cube time='2026-05-04'><Cube currency='USD' rate='1.0876'/><Cube currency='PHP' rate='63.412'/></Cube></Cube>
</gesmes:Envelope>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = createEcbExchangeRate({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml` });
      const info = await refreshExchangeRate(t.db, port, ada.id);
      expect(info.rate.toFixed(3)).toBe("63.412");
      expect((await exchangeRateInfo(t.db, port)).source).toBe("live");
      const [entry] = await t.db.select().from(logbook).where(eq(logbook.description, "Euro to peso rate set to 63.412 (ECB, 2026-05-04)"));
      expect(entry).toMatchObject({ previousState: { EUR_TO_PHP_EXCHANGE_RATE: "60.00" }, newState: { EUR_TO_PHP_EXCHANGE_RATE: "63.412" } });
    } finally {
      server.close();
    }
  });

  it("keeps the last rate, warns and tells staff when the feed fails", async () => {
    const failing = { kind: "live" as const, eurToPhp: () => Promise.reject(new Error("HTTP 503")) };
    await expect(refreshExchangeRate(t.db, failing, ada.id)).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    expect((await exchangeRateInfo(t.db, failing)).rate.toFixed(3)).toBe("63.412");
    const warnings = await t.db.select().from(adminNotification).where(eq(adminNotification.severity, "WARNING"));
    expect(warnings.map((row) => row.message)).toContain("The euro to peso rate could not be refreshed: HTTP 503");
  });
});
