import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { marketplaceBulkRun, marketplaceOffer, marketplaceSync, orderDetail } from "@/server/db/schema";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { enqueueJob } from "@/server/jobs/queue";
import { transitionOrder } from "@/server/orders/service";
import { makeProduct, placeOneWatchOrder } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { productSku } from "./offer-record";
import { getMarketplaceOverview } from "./overview";
import { quantityPushJob } from "./quantity-push";

/** The /admin/ebay page's figures on a real database with the sandbox marketplace. */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
let port: MarketplacePort;

beforeAll(() => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "https://shop.example" });
});

describe("the marketplace overview", () => {
  it("is empty on a shop that never used the marketplace", async () => {
    expect(await getMarketplaceOverview(t.db, port)).toEqual({
      kind: "sandbox",
      connected: true,
      tokenValidUntil: null,
      connectionProblem: null,
      ordersPolledAt: null,
      ordersModifiedUntil: null,
      lastPollError: null,
      lastPollErrorAt: null,
      lastNotificationAt: null,
      pushesWaiting: 0,
      failedOffers: [],
      oversoldOrders: [],
      lastBulkRun: null,
    });
  });

  it("shows the order import, the pushes waiting, the offers failing, the oversold orders and the last bulk update", async () => {
    await t.db.insert(marketplaceSync).values({
      id: "EBAY",
      ordersPolledAt: new Date("2026-03-04T08:59:00Z"),
      ordersModifiedUntil: new Date("2026-03-04T08:58:30Z"),
      lastPollError: "eBay did not answer",
      lastPollErrorAt: new Date("2026-03-04T08:40:00Z"),
      lastNotificationAt: new Date("2026-03-04T08:50:00Z"),
    });
    const [first, second, fine] = [await makeProduct(t.db, { name: "Seiko 6139" }), await makeProduct(t.db, { name: "Seiko 5" }), await makeProduct(t.db, { name: "Seiko 7002" })];
    await enqueueJob(t.db, quantityPushJob, { productId: first.id });
    await enqueueJob(t.db, quantityPushJob, { productId: second.id }, { startAfter: new Date(Date.now() + 60_000) });
    await t.db.insert(marketplaceOffer).values([
      { productId: first.id, sku: productSku(first.id), marketplaceId: "EBAY_NL", status: "PUBLISHED", lastError: "older refusal", lastErrorAt: new Date("2026-03-03T10:00:00Z") },
      { productId: second.id, sku: productSku(second.id), marketplaceId: "EBAY_NL", lastError: "newer refusal", lastErrorAt: new Date("2026-03-04T07:00:00Z") },
      { productId: fine.id, sku: productSku(fine.id), marketplaceId: "EBAY_NL", status: "PUBLISHED" },
    ]);
    const oversold = await placeOneWatchOrder(t.db, { email: "oversold@example.com", method: "IDEAL", now });
    const refunded = await placeOneWatchOrder(t.db, { email: "refunded@example.com", method: "IDEAL", now });
    await t.db.update(orderDetail).set({ oversoldAt: new Date("2026-03-04T08:00:00Z") }).where(eq(orderDetail.orderId, oversold.orderId));
    await t.db.update(orderDetail).set({ oversoldAt: new Date("2026-03-04T08:30:00Z") }).where(eq(orderDetail.orderId, refunded.orderId));
    // Refunded in full and so cancelled, as the order machine cancels it.
    await t.db.transaction((tx) => transitionOrder(tx, refunded.orderId, "CANCELLED", { userId: null, description: "Test: refunded in full.", now }));
    await t.db.insert(marketplaceBulkRun).values({ status: "DONE", fields: { price: true, quantity: true, description: false }, totalCount: 40, doneCount: 39, failedCount: 1, finishedAt: now });
    await t.db.insert(marketplaceBulkRun).values({ status: "RUNNING", fields: { price: false, quantity: true, description: false }, totalCount: 10, doneCount: 4 });

    const overview = await getMarketplaceOverview(t.db, port);
    expect(overview).toMatchObject({
      ordersPolledAt: new Date("2026-03-04T08:59:00Z"),
      ordersModifiedUntil: new Date("2026-03-04T08:58:30Z"),
      lastPollError: "eBay did not answer",
      lastNotificationAt: new Date("2026-03-04T08:50:00Z"),
      pushesWaiting: 2,
      failedOffers: [
        { productId: second.id, name: "Seiko 5", error: "newer refusal", at: new Date("2026-03-04T07:00:00Z") },
        { productId: first.id, name: "Seiko 6139", error: "older refusal", at: new Date("2026-03-03T10:00:00Z") },
      ],
      oversoldOrders: [{ orderId: oversold.orderId, orderNumber: oversold.orderNumber, oversoldAt: new Date("2026-03-04T08:00:00Z") }],
      lastBulkRun: { status: "RUNNING", fields: { price: false, quantity: true, description: false }, totalCount: 10, doneCount: 4, failedCount: 0, finishedAt: null, lastError: null },
    });
  });

  it("says why the marketplace cannot be reached instead of failing", async () => {
    const unreachable: MarketplacePort = { ...port, connection: () => Promise.reject(new Error("eBay refused the refresh token: invalid_grant")) };
    expect(await getMarketplaceOverview(t.db, unreachable)).toMatchObject({
      connected: false,
      tokenValidUntil: null,
      connectionProblem: "eBay refused the refresh token: invalid_grant",
    });
  });
});
