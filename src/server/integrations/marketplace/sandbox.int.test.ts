import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/env";
import { sandboxMarketplaceItem, sandboxMarketplaceOffer, sandboxMarketplaceOrder } from "@/server/db/schema";
import { MarketplaceError, type MarketplaceItem, type MarketplacePort } from "./port";
import { createSandboxMarketplace } from "./sandbox";
import { signatureHeader, utcDay } from "./sandbox-records";
import { buySandboxListing, getSandboxListing, getSandboxOrder, listSandboxListings, type SandboxPurchase } from "./sandbox-store";
import { sampleOffer as offer, sampleOfferInEbay, wristwatchAspects } from "../../../../tests/helpers/marketplace-offer";
import { perFile } from "../../../../tests/helpers/per-file";
import { databaseForFile } from "../../../../tests/helpers/test-database";

/**
 * The sandbox marketplace against the real database: eBay's write rules (whole records, one marketplace per SKU, the
 * listing's quantity as the smaller of item and offer, new listing ids after a withdraw, per-item bulk results, 250
 * revisions a day), the buyer's purchase (pieces taken off, the last piece sold once however many buyers race for
 * it), orders read back by modification window, shipped and refunded, and the signed notification to the shop.
 */

type Delivery = { url: string; headers: http.IncomingHttpHeaders; body: string };

/** The shop's notification endpoint: keeps every delivery, with its headers, and answers 204. */
const shop = perFile(
  async () => {
    const deliveries: Delivery[] = [];
    const server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      deliveries.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, deliveries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  },
  (started) => started.close(),
);

const t = databaseForFile();
let market: MarketplacePort;
let nextSku = 1;

beforeAll(() => {
  market = createSandboxMarketplace({ db: t.db, shopUrl: "https://shop.example" });
});
beforeEach(() => {
  shop.deliveries.length = 0;
});

function item(sku: string, overrides: Partial<MarketplaceItem> = {}): MarketplaceItem {
  return {
    sku,
    marketplaceId: "EBAY_NL",
    condition: "USED_EXCELLENT",
    conditionDescription: "Light wear on the clasp",
    title: `Omega Seamaster ${sku}`,
    description: "<p>Serviced in 2024.</p>",
    aspects: wristwatchAspects,
    imageUrls: [`https://shop.example/storage/${sku}-1.jpg`, `https://shop.example/storage/${sku}-2.jpg`],
    quantity: 1,
    ...overrides,
  };
}

/** A new SKU with its item and offer written, published unless said otherwise. */
async function listed(options: { itemQuantity?: number; offerQuantity?: number; price?: string; publish?: boolean } = {}) {
  const sku = `BC-${nextSku++}`;
  const [put] = await market.putItems([item(sku, { quantity: options.itemQuantity ?? 1 })]);
  expect(put).toEqual({ sku, ok: true, statusCode: 200, error: null });
  const quantity = options.offerQuantity ?? options.itemQuantity ?? 1;
  const { offerId } = await market.createOffer(offer(sku, { quantity, ...(options.price ? { price: new Decimal(options.price) } : {}) }));
  const listingId = options.publish === false ? null : (await market.publishOffer(offerId)).listingId;
  return { sku, offerId, listingId: listingId! };
}

const buyer = { fullName: "Jan de Vries", addressLine1: "Keizersgracht 12", postalCode: "1015 CX", city: "Amsterdam", countryCode: "nl", email: "Jan.de.Vries+watch@example.com" };
const buy = (listingId: string, quantity = 1, shopUrl = shop.url) => buySandboxListing(t.db, { listingId, quantity, buyer } satisfies SandboxPurchase, { shopUrl });

const offerRow = async (offerId: string) => (await t.db.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.offerId, offerId)))[0]!;
const itemRow = async (sku: string) => (await t.db.select().from(sandboxMarketplaceItem).where(eq(sandboxMarketplaceItem.sku, sku)))[0]!;
const refusalOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as MarketplaceError);

describe("sandbox marketplace: records", () => {
  it("stores items and offers in eBay's shapes, and a write replaces the whole record", async () => {
    const { sku, offerId } = await listed({ publish: false });
    expect((await itemRow(sku)).record).toEqual({
      sku,
      locale: "nl_NL",
      condition: "USED_EXCELLENT",
      conditionDescription: "Light wear on the clasp",
      product: { title: `Omega Seamaster ${sku}`, description: "<p>Serviced in 2024.</p>", aspects: wristwatchAspects, imageUrls: [`https://shop.example/storage/${sku}-1.jpg`, `https://shop.example/storage/${sku}-2.jpg`] },
      availability: { shipToLocationAvailability: { quantity: 1 } },
    });
    expect((await offerRow(offerId)).record).toEqual({ ...sampleOfferInEbay(sku), offerId, status: "UNPUBLISHED" });

    // What a write leaves out is gone afterwards, as on eBay.
    await market.putItems([item(sku, { conditionDescription: null, aspects: {}, imageUrls: [], quantity: 3 })]);
    const replaced = await itemRow(sku);
    expect(replaced.quantity).toBe(3);
    expect(replaced.record).not.toHaveProperty("conditionDescription");
    expect(replaced.record).toMatchObject({ product: { aspects: {}, imageUrls: [] }, availability: { shipToLocationAvailability: { quantity: 3 } } });

    await market.updateOffer(offerId, offer(sku, { storeCategoryNames: [], price: new Decimal("990.5"), quantity: 2 }));
    const updated = await offerRow(offerId);
    expect(updated.record).toMatchObject({ storeCategoryNames: [], availableQuantity: 2, pricingSummary: { price: { value: "990.50", currency: "EUR" } } });
    expect(updated.price.equals("990.50")).toBe(true);
    // Created, its item replaced, itself replaced: three writes; not listed, so no revisions.
    expect(updated.writeCount).toBe(3);
    expect(updated.revisionsToday).toBe(0);
  });

  it("refuses a second offer for a SKU, on another marketplace above all, and an offer for an unknown SKU", async () => {
    const { sku, offerId } = await listed({ publish: false });
    const other = await refusalOf(market.createOffer(offer(sku, { marketplaceId: "EBAY_DE" })));
    expect(other).toBeInstanceOf(MarketplaceError);
    expect(other).toMatchObject({ status: 400, call: "createOffer" });
    expect(other!.message).toContain("can not be offered across multiple eBay marketplaces");
    const again = await refusalOf(market.createOffer(offer(sku)));
    expect(again?.details[0]).toMatchObject({ errorId: 25002, parameters: [{ name: "offerId", value: offerId }] });
    expect(await refusalOf(market.updateOffer(offerId, offer(sku, { marketplaceId: "EBAY_DE" })))).toMatchObject({ status: 400 });

    expect(await refusalOf(market.createOffer(offer("BC-nothing")))).toMatchObject({ status: 400, details: [{ errorId: 25702 }] });
    const missing = await refusalOf(market.updateOffer("sbo_doesnotexist", offer(sku)));
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND", retryable: false });
  });

  it("publishes with a 12-digit listing id, ends the listing on withdraw, and gives a new id when published again", async () => {
    const { sku, offerId } = await listed({ publish: false });
    expect(await market.getOffer(sku)).toMatchObject({ offerId, status: "UNPUBLISHED", listingId: null });

    const { listingId: first } = await market.publishOffer(offerId);
    expect(first).toMatch(/^[1-9]\d{11}$/);
    expect(await market.publishOffer(offerId)).toEqual({ listingId: first });
    expect(await market.getOffer(sku)).toMatchObject({ status: "PUBLISHED", listingId: first, quantity: 1 });
    expect((await offerRow(offerId)).record).toMatchObject({ status: "PUBLISHED", listing: { listingId: first, listingStatus: "ACTIVE", soldQuantity: 0 } });

    await market.withdrawOffer(offerId);
    await market.withdrawOffer(offerId);
    expect(await market.getOffer(sku)).toMatchObject({ status: "UNPUBLISHED", listingId: null });
    expect((await offerRow(offerId)).record).not.toHaveProperty("listing");
    expect(await getSandboxListing(t.db, first)).toMatchObject({ ended: true });
    await expect(buy(first)).rejects.toMatchObject({ code: "CONFLICT", message: "This listing has ended" });

    const { listingId: second } = await market.publishOffer(offerId);
    expect(second).toMatch(/^\d{12}$/);
    expect(second).not.toBe(first);
    expect(await getSandboxListing(t.db, first)).toBeNull();
    expect(await getSandboxListing(t.db, second)).toMatchObject({ ended: false, quantity: 1 });
  });

  it("lists the smaller of the item's and the offer's quantity", async () => {
    const byOffer = await listed({ itemQuantity: 5, offerQuantity: 2 });
    const byItem = await listed({ itemQuantity: 1, offerQuantity: 3 });
    expect(await market.getOffer(byOffer.sku)).toMatchObject({ quantity: 2 });
    expect(await market.getOffer(byItem.sku)).toMatchObject({ quantity: 1 });
    expect(await getSandboxListing(t.db, byOffer.listingId)).toMatchObject({ quantity: 2 });
    await market.putItems([item(byItem.sku, { quantity: 0 })]);
    expect(await market.getOffer(byItem.sku)).toMatchObject({ quantity: 0, status: "PUBLISHED" });
  });
});

describe("sandbox marketplace: bulk writes", () => {
  it("answers each item of a bulk write on its own", async () => {
    const live = await listed({ itemQuantity: 2 });
    const notListed = await listed({ publish: false });
    const results = await market.updatePriceQuantity([
      { sku: live.sku, offerId: live.offerId, quantity: 4, price: new Decimal("1100.00") },
      { sku: notListed.sku, offerId: notListed.offerId, quantity: 4 },
      { sku: live.sku, offerId: "sbo_doesnotexist", quantity: 1 },
      { sku: notListed.sku, offerId: live.offerId, quantity: 1 },
    ]);
    expect(results.map(({ sku, ok, statusCode }) => ({ sku, ok, statusCode }))).toEqual([
      { sku: live.sku, ok: true, statusCode: 200 },
      { sku: notListed.sku, ok: false, statusCode: 400 },
      { sku: live.sku, ok: false, statusCode: 404 },
      { sku: notListed.sku, ok: false, statusCode: 400 },
    ]);
    expect(results[1]!.error).toContain("not published");
    expect(await market.getOffer(live.sku)).toMatchObject({ quantity: 4 });
    expect((await market.getOffer(live.sku))!.price.equals("1100.00")).toBe(true);
    expect((await itemRow(live.sku)).record).toMatchObject({ availability: { shipToLocationAvailability: { quantity: 4 } } });
    expect(await market.getOffer(notListed.sku)).toMatchObject({ quantity: 1 });

    // A price left out stays as it was.
    await market.updatePriceQuantity([{ sku: live.sku, offerId: live.offerId, quantity: 0 }]);
    expect(await market.getOffer(live.sku)).toMatchObject({ quantity: 0 });
    expect((await market.getOffer(live.sku))!.price.equals("1100.00")).toBe(true);

    const written = await market.putItems([item("BC-bulk-a"), item("BC-bulk-b", { title: "" }), item("BC-bulk-c", { quantity: -1 }), item("BC-bulk-d")]);
    expect(written.map((result) => [result.sku, result.ok, result.statusCode])).toEqual([
      ["BC-bulk-a", true, 200],
      ["BC-bulk-b", false, 400],
      ["BC-bulk-c", false, 400],
      ["BC-bulk-d", true, 200],
    ]);
  });

  it("counts each write of one offer in one bulk call, the last one standing", async () => {
    const { sku, offerId } = await listed({ itemQuantity: 3 });
    const results = await market.updatePriceQuantity([
      { sku, offerId, quantity: 2 },
      { sku, offerId, quantity: 1, price: new Decimal("999.00") },
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    expect(await offerRow(offerId)).toMatchObject({ availableQuantity: 1, revisionsToday: 2, writeCount: 3 });
    expect((await offerRow(offerId)).price.equals("999.00")).toBe(true);
    await market.putItems([item(sku, { quantity: 5 }), item(sku, { quantity: 4, title: "Second write" })]);
    expect(await itemRow(sku)).toMatchObject({ quantity: 4, record: { product: { title: "Second write" } } });
    expect(await offerRow(offerId)).toMatchObject({ revisionsToday: 4, writeCount: 5 });
  });

  it("counts a listing's revisions per day and refuses the 251st with eBay's error", async () => {
    const { sku, offerId } = await listed();
    await market.updatePriceQuantity([{ sku, offerId, quantity: 1 }]);
    await market.putItems([item(sku)]);
    await market.updateOffer(offerId, offer(sku));
    const counted = await offerRow(offerId);
    expect(counted).toMatchObject({ revisionDay: utcDay(new Date()), revisionsToday: 3, writeCount: 4 });

    await t.db.update(sandboxMarketplaceOffer).set({ revisionsToday: 250 }).where(eq(sandboxMarketplaceOffer.offerId, offerId));
    const [refused] = await market.updatePriceQuantity([{ sku, offerId, quantity: 0 }]);
    expect(refused).toMatchObject({ ok: false, statusCode: 400 });
    expect(refused!.error).toContain("revised the maximum number of times today");
    const [itemRefused] = await market.putItems([item(sku, { title: "Changed" })]);
    expect(itemRefused).toMatchObject({ ok: false, statusCode: 400 });
    const offerRefused = await refusalOf(market.updateOffer(offerId, offer(sku)));
    expect(offerRefused?.details[0]).toMatchObject({ errorId: 25031 });
    expect(offerRefused?.retryable).toBe(false);
    // Nothing refused was stored or counted.
    expect(await offerRow(offerId)).toMatchObject({ revisionsToday: 250, writeCount: 4, availableQuantity: 1 });
    expect((await itemRow(sku)).record).toMatchObject({ product: { title: `Omega Seamaster ${sku}` } });

    // A new day, a new allowance.
    await t.db.update(sandboxMarketplaceOffer).set({ revisionDay: "2000-01-01" }).where(eq(sandboxMarketplaceOffer.offerId, offerId));
    expect((await market.updatePriceQuantity([{ sku, offerId, quantity: 0 }]))[0]).toMatchObject({ ok: true });
    expect(await offerRow(offerId)).toMatchObject({ revisionDay: utcDay(new Date()), revisionsToday: 1, writeCount: 5 });
  });
});

describe("sandbox marketplace: buying", () => {
  it("sells pieces off the listing, makes a paid order in eBay's shape and notifies the shop, signed", async () => {
    const { sku, offerId, listingId } = await listed({ itemQuantity: 3, price: "400.00" });
    const { orderId, notified } = await buy(listingId, 2);
    expect(orderId).toMatch(/^\d{2}-\d{5}-\d{5}$/);
    expect(notified).toBe(true);

    expect(await market.getOffer(sku)).toMatchObject({ quantity: 1 });
    expect(await offerRow(offerId)).toMatchObject({ availableQuantity: 1, record: { availableQuantity: 1, listing: { soldQuantity: 2 } } });
    expect(await itemRow(sku)).toMatchObject({ quantity: 1, record: { availability: { shipToLocationAvailability: { quantity: 1 } } } });

    const [row] = await t.db.select().from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId));
    expect(row!.record).toMatchObject({
      orderId,
      orderPaymentStatus: "PAID",
      orderFulfillmentStatus: "NOT_STARTED",
      buyer: { username: "jan.de.vrieswatch" },
      pricingSummary: { total: { value: "800.00", currency: "EUR" } },
      lineItems: [{ sku, legacyItemId: listingId, title: `Omega Seamaster ${sku}`, quantity: 2, lineItemCost: { value: "800.00", currency: "EUR" } }],
      fulfillmentStartInstructions: [{ shippingStep: { shipTo: { fullName: "Jan de Vries", contactAddress: { addressLine1: "Keizersgracht 12", postalCode: "1015 CX", city: "Amsterdam", countryCode: "NL" } } } }],
    });
    const [order] = await market.getOrders({ orderIds: [orderId] });
    expect(order).toMatchObject({ orderId, paymentStatus: "PAID", fulfillmentStatus: "NOT_STARTED", cancelled: false, buyerUsername: "jan.de.vrieswatch" });
    expect(order!.total.equals("800.00")).toBe(true);
    expect(order!.lines[0]).toMatchObject({ sku, quantity: 2 });
    expect(order!.lines[0]!.lineItemId).toMatch(/^\d{14}$/);
    expect(order!.shipTo).toMatchObject({ countryCode: "NL", email: "jan.de.vries+watch@example.com", addressLine2: null });
    expect(await getSandboxOrder(t.db, orderId)).toMatchObject({ orderId, listingIds: [listingId] });

    expect(shop.deliveries).toHaveLength(1);
    const [delivery] = shop.deliveries;
    expect(delivery!.url).toBe("/api/webhooks/ebay");
    expect(JSON.parse(delivery!.body)).toMatchObject({
      metadata: { topic: "ORDER_CONFIRMATION", schemaVersion: "1.0" },
      notification: { publishAttemptCount: 1, data: { orderId } },
    });
    const signature = JSON.parse(Buffer.from(String(delivery!.headers["x-ebay-signature"]), "base64").toString("utf8"));
    expect(signature).toMatchObject({ alg: "HS256", kid: "sandbox", digest: "SHA256" });
    const headers = new Headers({ "x-ebay-signature": String(delivery!.headers["x-ebay-signature"]) });
    expect(await market.readNotification(headers, delivery!.body)).toEqual({ kind: "order", orderId });
  });

  it("refuses more pieces than are left, and a listing that is sold out", async () => {
    const { listingId } = await listed({ itemQuantity: 2, offerQuantity: 1 });
    await expect(buy(listingId, 2)).rejects.toMatchObject({ code: "CONFLICT", message: "Only 1 left; buy 1 or fewer" });
    await buy(listingId, 1);
    await expect(buy(listingId, 1)).rejects.toMatchObject({ code: "CONFLICT", message: "Out of stock: this piece has just been sold" });
    expect(await getSandboxListing(t.db, listingId)).toMatchObject({ quantity: 0, ended: false, soldQuantity: 1 });
    await expect(buy("999999999999")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("sells the last piece once when buyers race for it", async () => {
    const { sku, listingId } = await listed({ itemQuantity: 1 });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => buy(listingId)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) if (result.status === "rejected") expect(result.reason).toMatchObject({ code: "CONFLICT" });
    const orders = (await t.db.select().from(sandboxMarketplaceOrder)).filter((row) => JSON.stringify(row.record).includes(`"sku":"${sku}"`));
    expect(orders).toHaveLength(1);
    expect(await market.getOffer(sku)).toMatchObject({ quantity: 0 });
  });

  it("keeps the sale when the shop cannot be reached", async () => {
    const { listingId } = await listed();
    const { orderId, notified } = await buy(listingId, 1, "http://127.0.0.1:9");
    expect(notified).toBe(false);
    expect(await market.getOrders({ orderIds: [orderId] })).toHaveLength(1);
  });

  it("finds live listings by words of their title", async () => {
    const { listingId } = await listed();
    await market.putItems([item((await market.getOffer(`BC-${nextSku - 1}`))!.sku, { title: "Heuer Carrera 2447 NT, 100% original" })]);
    const found = await listSandboxListings(t.db, { search: "carrera 2447" });
    expect(found.listings.map((listing) => listing.listingId)).toEqual([listingId]);
    expect(found.total).toBe(1);
    expect((await listSandboxListings(t.db, { search: "100%" })).listings).toHaveLength(1);
    expect((await listSandboxListings(t.db, { search: "%" })).listings).toHaveLength(1);
    expect((await listSandboxListings(t.db)).listings.length).toBeGreaterThan(1);
  });
});

describe("sandbox marketplace: orders", () => {
  it("reads orders by modification window, bounds included, and by id", async () => {
    const ids: string[] = [];
    for (const minute of [0, 5, 10]) {
      const { listingId } = await listed();
      const { orderId } = await buy(listingId);
      await t.db.update(sandboxMarketplaceOrder).set({ lastModifiedAt: new Date(`2030-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`) }).where(eq(sandboxMarketplaceOrder.orderId, orderId));
      ids.push(orderId);
    }
    const window = (from: string, to: string) => market.getOrders({ modifiedFrom: new Date(from), modifiedTo: new Date(to) }).then((orders) => orders.map((order) => order.orderId));
    expect(await window("2030-03-01T10:00:00Z", "2030-03-01T10:05:00Z")).toEqual([ids[0], ids[1]]);
    expect(await window("2030-03-01T10:05:00.001Z", "2030-03-01T11:00:00Z")).toEqual([ids[2]]);
    expect(await window("2030-03-02T00:00:00Z", "2030-03-03T00:00:00Z")).toEqual([]);
    expect((await market.getOrders({ orderIds: [ids[2]!, ids[0]!, "00-00000-00000"] })).map((order) => order.orderId).sort()).toEqual([ids[0], ids[2]].sort());
    expect(await market.getOrders({ orderIds: [] })).toEqual([]);
  });

  it("records a shipment in the order, fulfilled, and modified now", async () => {
    const { listingId } = await listed();
    const { orderId } = await buy(listingId);
    const [before] = await market.getOrders({ orderIds: [orderId] });
    const line = before!.lines[0]!;
    await market.shipOrder({ orderId, lines: [{ lineItemId: line.lineItemId, quantity: 1 }], carrierCode: "PostNL", trackingNumber: "3S-ABCD 1234567", shippedAt: new Date("2030-01-02T09:00:00Z") });
    const [after] = await market.getOrders({ orderIds: [orderId] });
    expect(after).toMatchObject({ fulfillmentStatus: "FULFILLED" });
    expect(after!.lastModifiedAt.getTime()).toBeGreaterThan(before!.lastModifiedAt.getTime());
    const [row] = await t.db.select().from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId));
    expect(row!.record).toMatchObject({
      lineItems: [{ lineItemFulfillmentStatus: "FULFILLED" }],
      shippingFulfillments: [{ shippingCarrierCode: "PostNL", shipmentTrackingNumber: "3SABCD1234567", lineItems: [{ lineItemId: line.lineItemId, quantity: 1 }] }],
    });
    expect(row!.lastModifiedAt.getTime()).toBe(after!.lastModifiedAt.getTime());
    await expect(market.shipOrder({ orderId, lines: [{ lineItemId: "1", quantity: 1 }], carrierCode: "PostNL", trackingNumber: "3S1", shippedAt: new Date() })).rejects.toMatchObject({ status: 400 });
    await expect(market.shipOrder({ orderId: "00-00000-00000", lines: [], carrierCode: "PostNL", trackingNumber: "3S1", shippedAt: new Date() })).rejects.toMatchObject({ status: 404 });
  });

  it("refunds through the order at once, and never more than was paid", async () => {
    const { listingId } = await listed({ price: "300.00" });
    const { orderId } = await buy(listingId);
    const first = await market.refundOrder({ orderId, amount: new Decimal("100.00"), reason: "BUYER_RETURN", comment: null, lines: null });
    expect(first).toMatchObject({ status: "REFUNDED" });
    expect(await market.getRefunds(orderId)).toEqual([{ ...first, amount: new Decimal("100.00"), lineItemId: null }]);
    expect((await market.getOrders({ orderIds: [orderId] }))[0]).toMatchObject({ paymentStatus: "PARTIALLY_REFUNDED" });
    await expect(market.refundOrder({ orderId, amount: new Decimal("200.01"), reason: "OTHER", comment: null, lines: null })).rejects.toMatchObject({ status: 400 });
    await market.refundOrder({ orderId, amount: new Decimal("200.00"), reason: "OTHER", comment: "rest", lines: null });
    expect((await market.getOrders({ orderIds: [orderId] }))[0]).toMatchObject({ paymentStatus: "FULLY_REFUNDED" });
    await expect(market.getRefunds("00-00000-00000")).rejects.toMatchObject({ status: 404 });
  });
});

describe("sandbox marketplace: notifications", () => {
  const body = JSON.stringify({ metadata: { topic: "ORDER_CONFIRMATION", schemaVersion: "1.0" }, notification: { notificationId: "n1", data: { orderId: "12-34567-89012" } } });
  const signed = (header: string) => new Headers({ "x-ebay-signature": header });

  it("accepts its own signature and refuses anything else", async () => {
    expect(await market.readNotification(signed(signatureHeader(body, env.WEBHOOK_SECRET)), body)).toEqual({ kind: "order", orderId: "12-34567-89012" });
    expect(await market.readNotification(signed(signatureHeader(body, env.WEBHOOK_SECRET)), body.replace("89012", "89013"))).toBeNull();
    expect(await market.readNotification(signed(signatureHeader(body, "another secret of at least thirty-two characters")), body)).toBeNull();
    expect(await market.readNotification(new Headers(), body)).toBeNull();
    expect(await market.readNotification(signed("not base64 json"), body)).toBeNull();
    expect(await market.readNotification(signed(Buffer.from(JSON.stringify({ alg: "HS256", signature: "" })).toString("base64")), body)).toBeNull();

    const other = JSON.stringify({ metadata: { topic: "MARKETPLACE_ACCOUNT_DELETION" }, notification: { data: {} } });
    expect(await market.readNotification(signed(signatureHeader(other, env.WEBHOOK_SECRET)), other)).toEqual({ kind: "other", topic: "MARKETPLACE_ACCOUNT_DELETION" });
  });

  it("answers the endpoint check as eBay expects, and is always connected", async () => {
    const endpoint = "https://shop.example/api/webhooks/ebay";
    const expected = createHash("sha256").update(`abc123${env.WEBHOOK_SECRET}${endpoint}`).digest("hex");
    expect(market.notificationChallengeResponse("abc123", endpoint)).toBe(expected);
    expect(await market.connection()).toEqual({ connected: true, tokenValidUntil: null, problem: null });
    expect(market.kind).toBe("sandbox");
  });
});
