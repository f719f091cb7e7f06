import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Decimal } from "decimal.js";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { rawRows } from "@/server/db/raw-rows";
import { AppError } from "@/server/errors";
import { marketplaceOffer, marketplaceSync, orderDetail, product } from "@/server/db/schema";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { orderNotificationBody, signatureHeader } from "@/server/integrations/marketplace/sandbox-records";
import { buySandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";
import { answerMarketplaceChallenge, receiveMarketplaceNotification } from "./notifications";
import { importMarketplaceOrdersById, orderImportJob } from "./order-import";

/**
 * The marketplace's notifications on a real database: the sandbox marketplace's buyer page sells a piece and posts
 * eBay's signed order notification to a local endpoint that hands it, headers and all, to the shop as the route
 * does; the notification queues the order's import, which the job then runs.
 */

const t = seededDatabaseForFile({ now: new Date("2026-03-04T09:00:00Z") });
let port: MarketplacePort;
let endpoint: { url: string; close: () => Promise<void> };
const answers: number[] = [];

beforeAll(async () => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "http://127.0.0.1:9" });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    try {
      await receiveMarketplaceNotification(t.db, port, headers, Buffer.concat(chunks).toString("utf8"));
      answers.push(204);
      res.writeHead(204).end();
    } catch {
      answers.push(401);
      res.writeHead(401).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
});

afterAll(() => endpoint?.close());

/** The code a call was refused with, or "OK". */
const codeOf = (call: Promise<unknown>) => call.then(() => "OK", (error: unknown) => (error instanceof AppError ? error.code : Promise.reject(error)));

const queuedImports = () => rawRows<{ data: { orderId: string }; singleton_key: string }>(t.db, sql`select data, singleton_key from pgboss.job where name = ${orderImportJob.name} and state < 'completed'`);

describe("marketplace notifications", () => {
  it("queue the import of the order a sandbox buyer just bought, which the job then imports", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Omega Speedmaster", price: "3900.00", stock: 1 });
    const sku = `BC-${watch.id}`;
    await port.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: "Omega Speedmaster", description: "<p>Moonwatch</p>", aspects: wristwatchAspects, imageUrls: [], quantity: 1 }]);
    const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal("3900.00"), quantity: 1, categoryId: "31387", storeCategoryNames: [], listingDescription: "<p>Moonwatch</p>" });
    const { listingId } = await port.publishOffer(offerId);
    await t.db.insert(marketplaceOffer).values({ productId: watch.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: 1 });

    const before = new Date();
    const buyer = { fullName: "Ada Lovelace", addressLine1: "Dam 1", postalCode: "1012 JS", city: "Amsterdam", countryCode: "NL", email: "ada@example.com" };
    const { orderId, notified } = await buySandboxListing(t.db, { listingId, quantity: 1, buyer }, { shopUrl: endpoint.url });
    expect(notified).toBe(true);
    expect(answers.at(-1)).toBe(204);
    expect(await queuedImports()).toEqual([{ data: { orderId }, singleton_key: orderId }]);
    const [sync] = await t.db.select().from(marketplaceSync).where(eq(marketplaceSync.id, "EBAY"));
    expect(sync!.lastNotificationAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());

    // eBay may deliver a notification again: one import waits per order.
    const body = orderNotificationBody(orderId, new Date(), new Date());
    await receiveMarketplaceNotification(t.db, port, new Headers({ "x-ebay-signature": signatureHeader(body, env.WEBHOOK_SECRET) }), body);
    expect(await queuedImports()).toHaveLength(1);

    // What the job does with it.
    const [outcome] = await importMarketplaceOrdersById(t.db, port, [orderId]);
    expect(outcome).toMatchObject({ result: "imported", oversold: false });
    expect(await t.db.select({ shop: orderDetail.shop }).from(orderDetail).where(eq(orderDetail.marketplaceOrderId, orderId))).toEqual([{ shop: "EBAY" }]);
    expect((await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, watch.id)))[0]!.stock).toBe(0);
  });

  it("are refused unless the marketplace's signature holds for exactly this body", async () => {
    const body = orderNotificationBody("33-33333-33333", new Date(), new Date());
    expect(await codeOf(receiveMarketplaceNotification(t.db, port, new Headers(), body))).toBe("UNAUTHORIZED");
    const signed = new Headers({ "x-ebay-signature": signatureHeader(body, env.WEBHOOK_SECRET) });
    expect(await codeOf(receiveMarketplaceNotification(t.db, port, signed, body.replace("33-33333-33333", "44-44444-44444")))).toBe("UNAUTHORIZED");
    const forged = new Headers({ "x-ebay-signature": signatureHeader(body, "not-the-shop-secret-but-long-enough-to-look-real") });
    expect(await codeOf(receiveMarketplaceNotification(t.db, port, forged, body))).toBe("UNAUTHORIZED");
    expect((await queuedImports()).filter((job) => job.data.orderId === "33-33333-33333")).toEqual([]);
  });

  it("answer the endpoint check with the digest of the code, the verification token and the endpoint's address", async () => {
    const endpointUrl = "https://shop.example/api/webhooks/ebay";
    const expected = createHash("sha256").update(`abc-123${env.WEBHOOK_SECRET}${endpointUrl}`).digest("hex");
    expect(answerMarketplaceChallenge(port, "abc-123", endpointUrl)).toEqual({ challengeResponse: expected });
    expect(() => answerMarketplaceChallenge(port, "", endpointUrl)).toThrow(expect.objectContaining({ code: "BAD_REQUEST" }));
  });
});
