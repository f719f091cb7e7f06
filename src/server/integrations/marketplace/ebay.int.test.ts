import { createHash, generateKeyPairSync } from "node:crypto";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { configParams } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { receiveMarketplaceNotification } from "@/server/marketplace/notifications";
import { marketplaceSigningKeyStore } from "@/server/integrations/marketplace/signing-key-store";
import { EBAY_ACCESS_TOKEN_PARAM, marketplaceTokenStore } from "@/server/integrations/marketplace/token-store";
import { ebayCredentials, ebayNotificationBody, ebayOrderJson, signEbayNotification, startEbayStandIn } from "../../../../tests/helpers/ebay-stand-in";
import { sampleOffer, sampleOfferInEbay } from "../../../../tests/helpers/marketplace-offer";
import { standInForFile } from "../../../../tests/helpers/stand-in";
import { databaseForFile } from "../../../../tests/helpers/test-database";
import { createEbayMarketplace } from "./ebay";
import { ebayTokenMarginMs } from "./ebay-client";
import { MarketplaceError, type MarketplaceItem, type MarketplaceOfferRecord } from "./port";

/**
 * Acceptance 4 of issue 14: the live eBay adapter against a local stand-in answering as eBay's OAuth, Inventory,
 * Fulfillment and Notification APIs document (PROVIDERS.md section 5): the refresh-token login with the token kept
 * in EBAY_ACCESS_TOKEN, full-record writes in bulk calls of 25 with one item refused, orders paged 200 at a time,
 * the notification signature, and eBay's error format.
 */

const t = databaseForFile();
const ebay = standInForFile(startEbayStandIn);
const start = new Date("2026-03-04T09:00:00.000Z");
const clock = { now: start };
const policies = { fulfillmentPolicyId: "6196932000", paymentPolicyId: "6196934000", returnPolicyId: "6196936000" };
const verificationToken = "balance-and-crown-ebay-verification-token-2026";

const newEbay = () =>
  createEbayMarketplace({
    baseUrl: ebay.url,
    ...ebayCredentials,
    policies,
    merchantLocationKey: "amsterdam-prinsengracht",
    notificationVerificationToken: verificationToken,
    tokenStore: marketplaceTokenStore(t.db),
    signingKeyStore: marketplaceSigningKeyStore(t.db),
    now: () => clock.now,
  });

const tokenCalls = () => ebay.requests.filter((request) => request.path === "/identity/v1/oauth2/token");
/** Logins with the refresh token in this test. */
const logins = () => tokenCalls().filter((call) => new URLSearchParams(call.body).get("grant_type") === "refresh_token").length;
const apiCalls = (path: string) => ebay.requests.filter((request) => request.path === path);
const keyLookups = () => ebay.requests.filter((request) => request.path.startsWith("/commerce/notification/v1/public_key/")).length;
const storedToken = async () => {
  const [row] = await t.db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, EBAY_ACCESS_TOKEN_PARAM));
  return row ? (JSON.parse(row.value) as { accessToken: string; expiresAt: string }) : null;
};

const item = (productId: number, overrides: Partial<MarketplaceItem> = {}): MarketplaceItem => ({
  sku: `BC-${productId}`,
  marketplaceId: "EBAY_NL",
  condition: "USED_EXCELLENT",
  conditionDescription: "Lichte gebruikssporen op de kast, glas zonder krassen",
  title: `Omega Seamaster 300 ref. 165.024 (${productId})`,
  description: "<p>Automatisch uurwerk kaliber 552, gereviseerd in 2025.</p>",
  aspects: { Merk: ["Omega"], Uurwerk: ["Automatisch"] },
  imageUrls: [`https://storage.googleapis.com/balance-and-crown/products/${productId}/1.jpg`],
  quantity: 1,
  ...overrides,
});

const offer = (overrides: Partial<MarketplaceOfferRecord> = {}) => sampleOffer("BC-1", overrides);

beforeEach(async () => {
  clock.now = start;
  ebay.tokenLifetimeSeconds.value = 7200;
  ebay.refusedSkus.clear();
  ebay.items.clear();
  ebay.offers.clear();
  ebay.orders.length = 0;
  ebay.publicKeys.clear();
  await t.db.delete(configParams).where(eq(configParams.param, EBAY_ACCESS_TOKEN_PARAM));
});

describe("live eBay adapter: the access token", () => {
  it("logs in with the refresh token and keeps the access token in EBAY_ACCESS_TOKEN, where another process finds it", async () => {
    expect(await newEbay().getOffer("BC-1")).toBeNull();

    const [login] = tokenCalls();
    expect(login!.headers.authorization).toBe(`Basic ${Buffer.from(`${ebayCredentials.clientId}:${ebayCredentials.clientSecret}`).toString("base64")}`);
    expect(login!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(login!.body);
    expect(form.get("grant_type")).toBe("refresh_token");
    expect(form.get("refresh_token")).toBe(ebayCredentials.refreshToken);
    expect(form.get("scope")!.split(" ")).toEqual(["sell.inventory", "sell.fulfillment", "sell.account", "sell.finances"].map((scope) => `https://api.ebay.com/oauth/api_scope/${scope}`));

    const stored = await storedToken();
    expect(stored).toEqual({ accessToken: expect.any(String), expiresAt: "2026-03-04T11:00:00.000Z" });
    expect(apiCalls("/sell/inventory/v1/offer")[0]!.headers.authorization).toBe(`Bearer ${stored!.accessToken}`);

    // Another process (the job worker) starts with the stored token instead of a login of its own.
    ebay.requests.length = 0;
    await newEbay().getOffer("BC-1");
    expect(tokenCalls()).toHaveLength(0);
  });

  it("uses the token until five minutes before it ends, then renews it before the next call", async () => {
    const adapter = newEbay();
    await adapter.getOffer("BC-1");
    const first = (await storedToken())!.accessToken;

    clock.now = new Date(start.getTime() + 7200_000 - ebayTokenMarginMs - 1000);
    await adapter.getOffer("BC-1");
    expect(logins()).toBe(1);

    clock.now = new Date(start.getTime() + 7200_000 - ebayTokenMarginMs + 1000);
    ebay.requests.length = 0;
    await adapter.getOffer("BC-1");
    expect(logins()).toBe(1);
    expect(ebay.requests[0]!.path).toBe("/identity/v1/oauth2/token");
    const renewed = await storedToken();
    expect(renewed!.accessToken).not.toBe(first);
    expect(renewed!.expiresAt).toBe(new Date(clock.now.getTime() + 7200_000).toISOString());
    expect((await adapter.connection()).tokenValidUntil).toEqual(new Date(renewed!.expiresAt));
  });

  it("renews a token eBay answers 401 to and tries the call once more", async () => {
    const adapter = newEbay();
    await adapter.getOffer("BC-1");
    const first = (await storedToken())!.accessToken;
    ebay.revokeAccessTokens();
    ebay.requests.length = 0;

    expect(await adapter.getOffer("BC-1")).toBeNull();

    expect(ebay.requests.map((request) => `${request.method} ${request.path}`).filter((line) => !line.includes("inventory_item"))).toEqual([
      "GET /sell/inventory/v1/offer",
      "POST /identity/v1/oauth2/token",
      "GET /sell/inventory/v1/offer",
    ]);
    // Both calls of getOffer met the 401; one renewal served them.
    expect(logins()).toBe(1);
    expect((await storedToken())!.accessToken).not.toBe(first);
  });

  it("shares one renewal among calls made at the same time", async () => {
    const adapter = newEbay();
    await Promise.all(Array.from({ length: 6 }, (_, index) => adapter.getOffer(`BC-${index}`)));
    expect(logins()).toBe(1);
  });

  it("says what to do when eBay refuses the refresh token, and reports it as not connected", async () => {
    const adapter = createEbayMarketplace({
      baseUrl: ebay.url,
      ...ebayCredentials,
      refreshToken: "v^1.1#i^1#r^1#expired",
      policies,
      merchantLocationKey: "amsterdam-prinsengracht",
      notificationVerificationToken: null,
      tokenStore: marketplaceTokenStore(t.db),
      signingKeyStore: marketplaceSigningKeyStore(t.db),
      now: () => clock.now,
    });
    const error = await adapter.getOffer("BC-1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ call: "token", status: 400, retryable: false });
    expect((error as Error).message).toMatch(/invalid_grant.*EBAY_REFRESH_TOKEN/);
    expect(await storedToken()).toBeNull();

    const connection = await adapter.connection();
    expect(connection).toMatchObject({ connected: false, tokenValidUntil: null });
    expect(connection.problem).toMatch(/sign in to eBay again/);
    expect(await newEbay().connection()).toEqual({ connected: true, tokenValidUntil: new Date("2026-03-04T11:00:00.000Z"), problem: null });
  });
});

describe("live eBay adapter: inventory items and offers", () => {
  it("writes whole items 25 per call in the marketplace's language, each with its own result when one is refused", async () => {
    const refusal = { errorId: 25002, domain: "API_INVENTORY", category: "REQUEST", message: "A user error has occurred. The title may have at most 80 characters." };
    ebay.refusedSkus.set("BC-7", refusal);
    const items = [...Array.from({ length: 30 }, (_, index) => item(index + 1)), item(31, { marketplaceId: "EBAY_DE", title: "Omega Seamaster 300, 1967" })];

    const results = await newEbay().putItems(items);

    expect(results.map((result) => result.sku)).toEqual(items.map((written) => written.sku));
    expect(results.filter((result) => !result.ok)).toEqual([{ sku: "BC-7", ok: false, statusCode: 400, error: "A user error has occurred. The title may have at most 80 characters. (error 25002)" }]);
    expect(results.filter((result) => result.ok)).toHaveLength(30);
    expect(results.every((result) => result.ok === (result.statusCode === 200))).toBe(true);

    const calls = apiCalls("/sell/inventory/v1/bulk_create_or_replace_inventory_item");
    expect(calls.map((call) => [call.headers["content-language"], (call.json as { requests: unknown[] }).requests.length])).toEqual([
      ["nl-NL", 25],
      ["nl-NL", 5],
      ["de-DE", 1],
    ]);
    expect((calls[0]!.json as { requests: unknown[] }).requests[0]).toEqual({
      sku: "BC-1",
      locale: "nl_NL",
      condition: "USED_EXCELLENT",
      conditionDescription: "Lichte gebruikssporen op de kast, glas zonder krassen",
      product: {
        title: "Omega Seamaster 300 ref. 165.024 (1)",
        description: "<p>Automatisch uurwerk kaliber 552, gereviseerd in 2025.</p>",
        aspects: { Merk: ["Omega"], Uurwerk: ["Automatisch"] },
        imageUrls: ["https://storage.googleapis.com/balance-and-crown/products/1/1.jpg"],
      },
      availability: { shipToLocationAvailability: { quantity: 1 } },
    });
    expect(ebay.items.has("BC-7")).toBe(false);
    expect(ebay.items.get("BC-31")!.contentLanguage).toBe("de-DE");
  });

  it("creates, replaces, publishes, reads, withdraws and republishes an offer, always sending the whole offer", async () => {
    const adapter = newEbay();
    await adapter.putItems([item(1, { quantity: 2 })]);
    const { offerId } = await adapter.createOffer(offer());

    const created = apiCalls("/sell/inventory/v1/offer").find((call) => call.method === "POST")!;
    expect(created.headers["content-language"]).toBe("nl-NL");
    expect(created.json).toEqual({ ...sampleOfferInEbay("BC-1"), listingPolicies: policies, merchantLocationKey: "amsterdam-prinsengracht" });

    const { listingId } = await adapter.publishOffer(offerId);
    expect(apiCalls(`/sell/inventory/v1/offer/${offerId}/publish`)[0]!.body).toBe("{}");
    await adapter.updateOffer(offerId, offer({ price: new Decimal("1450"), quantity: 2 }));
    const replaced = apiCalls(`/sell/inventory/v1/offer/${offerId}`).find((call) => call.method === "PUT")!;
    expect(replaced.json).toMatchObject({ format: "FIXED_PRICE", listingPolicies: policies, merchantLocationKey: "amsterdam-prinsengracht", availableQuantity: 2, pricingSummary: { price: { value: "1450.00", currency: "EUR" } } });

    expect(await adapter.getOffer("BC-1")).toEqual({ offerId, sku: "BC-1", marketplaceId: "EBAY_NL", status: "PUBLISHED", listingId, listingEnded: false, quantity: 2, price: new Decimal("1450") });
    expect(apiCalls("/sell/inventory/v1/offer").find((call) => call.method === "GET")!.query.get("sku")).toBe("BC-1");

    await adapter.withdrawOffer(offerId);
    expect(await adapter.getOffer("BC-1")).toMatchObject({ status: "UNPUBLISHED" });
    const republished = await adapter.publishOffer(offerId);
    expect(republished.listingId).not.toBe(listingId);
    expect(await adapter.getOffer("BC-404")).toBeNull();
  });

  it("reads the listed quantity as the smaller of the item's and the offer's", async () => {
    const adapter = newEbay();
    await adapter.putItems([item(1, { quantity: 0 })]);
    const { offerId } = await adapter.createOffer(offer({ quantity: 3 }));
    await adapter.publishOffer(offerId);
    expect(await adapter.getOffer("BC-1")).toMatchObject({ quantity: 0 });
  });

  it("sets quantities and prices 25 per call, each update with its own result when one is refused", async () => {
    const adapter = newEbay();
    await adapter.putItems(Array.from({ length: 26 }, (_, index) => item(index + 1)));
    const updates = [];
    for (let productId = 1; productId <= 26; productId++) {
      const { offerId } = await adapter.createOffer(offer({ sku: `BC-${productId}` }));
      await adapter.publishOffer(offerId);
      updates.push({ sku: `BC-${productId}`, offerId, quantity: productId === 3 ? 0 : 1, ...(productId === 26 ? { price: new Decimal("99") } : {}) });
    }
    ebay.refusedSkus.set("BC-26", { errorId: 25001, domain: "API_INVENTORY", category: "SYSTEM", message: "A system error has occurred.", longMessage: "A system error has occurred. Try the call again later." });

    const results = await adapter.updatePriceQuantity(updates);

    const calls = apiCalls("/sell/inventory/v1/bulk_update_price_quantity");
    expect(calls.map((call) => (call.json as { requests: unknown[] }).requests.length)).toEqual([25, 1]);
    expect((calls[0]!.json as { requests: unknown[] }).requests[2]).toEqual({ sku: "BC-3", shipToLocationAvailability: { quantity: 0 }, offers: [{ offerId: updates[2]!.offerId, availableQuantity: 0 }] });
    expect((calls[1]!.json as { requests: unknown[] }).requests[0]).toEqual({
      sku: "BC-26",
      shipToLocationAvailability: { quantity: 1 },
      offers: [{ offerId: updates[25]!.offerId, availableQuantity: 1, price: { value: "99.00", currency: "EUR" } }],
    });
    expect(results).toHaveLength(26);
    expect(results.slice(0, 25).every((result) => result.ok && result.statusCode === 200)).toBe(true);
    expect(results[25]).toEqual({ sku: "BC-26", ok: false, statusCode: 400, error: "A system error has occurred. Try the call again later. (error 25001)" });
    expect(await adapter.getOffer("BC-3")).toMatchObject({ quantity: 0 });
  });
});

describe("live eBay adapter: orders", () => {
  it("pages through every order modified in the window, 200 at a time", async () => {
    for (let index = 0; index < 450; index++) {
      ebay.orders.push(ebayOrderJson(`12-${String(11_000_000 + index)}-${String(index).padStart(5, "0")}`, { lastModifiedDate: new Date(start.getTime() + index * 1000).toISOString() }));
    }
    ebay.orders.push(ebayOrderJson("12-10000000-99999", { lastModifiedDate: "2026-03-03T09:00:00.000Z" }));

    const orders = await newEbay().getOrders({ modifiedFrom: start, modifiedTo: new Date("2026-03-04T10:00:00.000Z") });

    expect(orders).toHaveLength(450);
    expect(new Set(orders.map((order) => order.orderId)).size).toBe(450);
    const calls = apiCalls("/sell/fulfillment/v1/order");
    expect(calls.map((call) => [call.query.get("limit"), call.query.get("offset")])).toEqual([
      ["200", "0"],
      ["200", "200"],
      ["200", "400"],
    ]);
    expect(calls[0]!.query.get("filter")).toBe("lastmodifieddate:[2026-03-04T09:00:00.000Z..2026-03-04T10:00:00.000Z]");
  });

  it("reads an eBay order into the shop's terms", async () => {
    const json = ebayOrderJson("12-11223344-55667", { sku: "BC-42", quantity: 2, price: "498.00" });
    json.cancelStatus.cancelState = "CANCELED";
    ebay.orders.push(json, ebayOrderJson("12-11223344-55668", { sku: "" }));

    const [order, foreign] = await newEbay().getOrders({ orderIds: ["12-11223344-55667", "12-11223344-55668"] });

    expect(order).toEqual({
      orderId: "12-11223344-55667",
      createdAt: new Date("2026-03-04T09:10:00.000Z"),
      lastModifiedAt: new Date("2026-03-04T09:15:00.000Z"),
      fulfillmentStatus: "NOT_STARTED",
      paymentStatus: "PAID",
      cancelled: true,
      buyerUsername: "horloge_liefhebber",
      currencies: ["EUR"],
      total: new Decimal("510.5"),
      deliveryCost: new Decimal("12.5"),
      lines: [{ lineItemId: json.lineItems[0]!.lineItemId, sku: "BC-42", title: "Omega Seamaster 300 ref. 165.024, 1967", quantity: 2, lineItemCost: new Decimal("498") }],
      shipTo: {
        fullName: "Joost de Vries",
        addressLine1: "Oudegracht 112",
        addressLine2: "bis",
        postalCode: "3511 AX",
        city: "Utrecht",
        stateOrProvince: null,
        countryCode: "NL",
        phone: "0612345678",
        email: "4f1c2e0a9b@members.ebay.com",
      },
    });
    // A listing made outside the shop has no SKU.
    expect(foreign!.lines[0]!.sku).toBeNull();
  });

  it("asks for orders by id at most 50 per call", async () => {
    const ids = Array.from({ length: 60 }, (_, index) => `12-2000${String(index).padStart(4, "0")}-00001`);
    for (const id of ids) ebay.orders.push(ebayOrderJson(id));

    const orders = await newEbay().getOrders({ orderIds: ids });

    expect(orders.map((order) => order.orderId)).toEqual(ids);
    expect(apiCalls("/sell/fulfillment/v1/order").map((call) => call.query.get("orderIds")!.split(",").length)).toEqual([50, 10]);
  });

  it("reports a parcel with the tracking number in letters and digits only", async () => {
    const json = ebayOrderJson("12-11223344-55667");
    ebay.orders.push(json);
    const lineItemId = json.lineItems[0]!.lineItemId;

    await newEbay().shipOrder({ orderId: json.orderId, lines: [{ lineItemId, quantity: 1 }], carrierCode: "PostNL", trackingNumber: "3S DEVC-1234 5678", shippedAt: new Date("2026-03-04T15:30:00.000Z") });

    expect(ebay.fulfillments.get(json.orderId)).toEqual([{ lineItems: [{ lineItemId, quantity: 1 }], shippedDate: "2026-03-04T15:30:00.000Z", shippingCarrierCode: "PostNL", trackingNumber: "3SDEVC12345678" }]);
    expect(json.orderFulfillmentStatus).toBe("FULFILLED");
  });

  it("refunds the whole order or some lines through eBay, and reads the refund back", async () => {
    const json = ebayOrderJson("12-11223344-55667");
    ebay.orders.push(json);
    const adapter = newEbay();

    const whole = await adapter.refundOrder({ orderId: json.orderId, amount: new Decimal("20"), reason: "OTHER", comment: "Goodwill for a late parcel", lines: null });
    const line = await adapter.refundOrder({ orderId: json.orderId, amount: new Decimal("100"), reason: "BUYER_RETURN", comment: null, lines: [{ lineItemId: json.lineItems[0]!.lineItemId, amount: new Decimal("100") }] });

    expect(whole).toEqual({ refundId: expect.any(String), status: "PENDING" });
    const [first, second] = apiCalls(`/sell/fulfillment/v1/order/${json.orderId}/issue_refund`);
    expect(first!.json).toEqual({ reasonForRefund: "OTHER", comment: "Goodwill for a late parcel", orderLevelRefundAmount: { value: "20.00", currency: "EUR" } });
    expect(second!.json).toEqual({ reasonForRefund: "BUYER_RETURN", refundItems: [{ lineItemId: json.lineItems[0]!.lineItemId, refundAmount: { value: "100.00", currency: "EUR" } }] });

    // eBay lists a refund of lines under the line, with a date once paid, and a refund of the order in its summary.
    const lineItemId = json.lineItems[0]!.lineItemId;
    expect(json.paymentSummary.refunds.map((refund) => refund.refundId)).toEqual([whole.refundId]);
    json.lineItems[0]!.refunds![0]!.refundDate = "2026-03-05T10:00:00.000Z";
    expect(await adapter.getRefunds(json.orderId)).toEqual([
      { refundId: whole.refundId, status: "PENDING", amount: new Decimal("20.00"), lineItemId: null },
      { refundId: line.refundId, status: "REFUNDED", amount: new Decimal("100.00"), lineItemId },
    ]);
    await expect(adapter.getRefunds("12-99999999-99999")).rejects.toMatchObject({ status: 404 });
  });
});

describe("live eBay adapter: notifications", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const kid = "99345a34-6b79-4d1a-9c51-bb0e1b1e1d6d";
  const body = ebayNotificationBody("ORDER_CONFIRMATION", { orderId: "12-11223344-55667" });
  const headersWith = (signature: string) => new Headers({ "x-ebay-signature": signature, "content-type": "application/json" });

  beforeEach(() => {
    ebay.publicKeys.set(kid, publicKey.export({ type: "spki", format: "pem" }).toString());
  });

  it("accepts a message signed as eBay's SDK verifies it, and one signed over the bytes sent", async () => {
    const adapter = newEbay();
    expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, kid)), body)).toEqual({ kind: "order", orderId: "12-11223344-55667" });

    // Spaced out as a delivery may be: the raw bytes differ from the re-serialised JSON.
    const spaced = JSON.stringify(JSON.parse(body), null, 2);
    expect(await adapter.readNotification(headersWith(signEbayNotification(spaced, privateKey, kid, "raw")), spaced)).toEqual({ kind: "order", orderId: "12-11223344-55667" });
    expect(await adapter.readNotification(headersWith(signEbayNotification(spaced, privateKey, kid, "reserialised")), spaced)).toEqual({ kind: "order", orderId: "12-11223344-55667" });

    const deletion = ebayNotificationBody("MARKETPLACE_ACCOUNT_DELETION", { username: "horloge_liefhebber", userId: "ma8vp1jySJC", eiasToken: "nY+sHZ2PrBmdj6wVnY+sEZ2PrA2dj6wFk4GlDpaDpAidj6x9nY+seQ==" });
    expect(await adapter.readNotification(headersWith(signEbayNotification(deletion, privateKey, kid)), deletion)).toEqual({ kind: "accountDeletion", username: "horloge_liefhebber", userId: "ma8vp1jySJC" });

    // The key comes once, with an application token, and is kept for an hour.
    const keyCalls = apiCalls(`/commerce/notification/v1/public_key/${kid}`);
    expect(keyCalls).toHaveLength(1);
    expect(new URLSearchParams(tokenCalls().find((call) => call.body.includes("client_credentials"))!.body).get("scope")).toBe("https://api.ebay.com/oauth/api_scope");
    clock.now = new Date(start.getTime() + 61 * 60_000);
    await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, kid)), body);
    expect(apiCalls(`/commerce/notification/v1/public_key/${kid}`)).toHaveLength(2);
  });

  it("refuses a changed message, another key's signature, an unknown key id and a message without a signature", async () => {
    const adapter = newEbay();
    const signature = signEbayNotification(body, privateKey, kid);
    const tampered = body.replace("12-11223344-55667", "12-11223344-55668");
    expect(await adapter.readNotification(headersWith(signature), tampered)).toBeNull();

    const other = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    expect(await adapter.readNotification(headersWith(signEbayNotification(body, other.privateKey, kid)), body)).toBeNull();
    expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, "unknown-key")), body)).toBeNull();
    expect(await adapter.readNotification(new Headers(), body)).toBeNull();
    expect(await adapter.readNotification(headersWith("not base64 json"), body)).toBeNull();
  });

  it("refuses a genuine message published more than a day ago, or ahead of the clock, without asking for its key", async () => {
    const adapter = newEbay();
    const old = ebayNotificationBody("ORDER_CONFIRMATION", { orderId: "12-11223344-55667" }, "2026-03-03T08:59:00.000Z");
    const ahead = ebayNotificationBody("ORDER_CONFIRMATION", { orderId: "12-11223344-55667" }, "2026-03-04T09:30:00.000Z");
    expect(await adapter.readNotification(headersWith(signEbayNotification(old, privateKey, kid)), old)).toBeNull();
    expect(await adapter.readNotification(headersWith(signEbayNotification(ahead, privateKey, kid)), ahead)).toBeNull();
    expect(apiCalls(`/commerce/notification/v1/public_key/${kid}`)).toHaveLength(0);
    const dayOld = ebayNotificationBody("ORDER_CONFIRMATION", { orderId: "12-11223344-55667" }, "2026-03-03T09:30:00.000Z");
    expect(await adapter.readNotification(headersWith(signEbayNotification(dayOld, privateKey, kid)), dayOld)).toEqual({ kind: "order", orderId: "12-11223344-55667" });
  });

  it("asks eBay about an unknown key id once an hour, never about one that is not a key id, and no more often than the caller allows", async () => {
    const adapter = newEbay();
    const unknown = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    for (let i = 0; i < 5; i++) expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, unknown)), body)).toBeNull();
    expect(apiCalls(`/commerce/notification/v1/public_key/${unknown}`)).toHaveLength(1);
    clock.now = new Date(start.getTime() + 61 * 60_000);
    await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, unknown)), body);
    expect(apiCalls(`/commerce/notification/v1/public_key/${unknown}`)).toHaveLength(2);

    expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, kid)), body)).toEqual({ kind: "order", orderId: "12-11223344-55667" });
    const before = keyLookups();
    for (const made of ["../../sell/fulfillment/v1/order", "x", "a".repeat(65), "kid with spaces"]) {
      expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, made)), body)).toBeNull();
    }
    expect(keyLookups()).toBe(before);

    // Past the caller's bound the message is not refused as forged: eBay is told to deliver it again later.
    let allowed = 2;
    const bounded = { mayLookUpKey: async () => allowed-- > 0 };
    const fresh = Array.from({ length: 3 }, (_, i) => `1a2b3c4d-0000-4000-8000-00000000000${i}`);
    expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, fresh[0]!)), body, bounded)).toBeNull();
    expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, fresh[1]!)), body, bounded)).toBeNull();
    await expect(adapter.readNotification(headersWith(signEbayNotification(body, privateKey, fresh[2]!)), body, bounded)).rejects.toMatchObject({ call: "getPublicKey", status: 429 });
    expect(keyLookups()).toBe(before + 2);
    // A key already known costs no lookup, so genuine messages pass whatever strangers send.
    expect(await adapter.readNotification(headersWith(signEbayNotification(body, privateKey, kid)), body, { mayLookUpKey: async () => false })).toEqual({ kind: "order", orderId: "12-11223344-55667" });
  });

  it("bounds the key lookups of every caller together at 30 a minute, in the database", async () => {
    const adapter = newEbay();
    const before = keyLookups();
    const outcomes: string[] = [];
    for (let i = 0; i < 35; i++) {
      const made = `2b3c4d5e-0000-4000-8000-${String(i).padStart(12, "0")}`;
      outcomes.push(
        await receiveMarketplaceNotification(t.db, adapter, headersWith(signEbayNotification(body, privateKey, made)), body, clock.now).then(
          () => "taken",
          (error: unknown) => (error instanceof MarketplaceError ? `retry later ${error.status}` : error instanceof AppError ? error.code : "failed"),
        ),
      );
    }
    expect(outcomes.filter((outcome) => outcome === "UNAUTHORIZED")).toHaveLength(30);
    expect(outcomes.slice(30)).toEqual(Array(5).fill("retry later 429"));
    expect(keyLookups()).toBe(before + 30);
  });

  it("answers eBay's endpoint check with the hash of challenge code, verification token and endpoint", () => {
    const endpoint = "https://www.balanceandcrown.nl/api/webhooks/ebay";
    expect(newEbay().notificationChallengeResponse("a8628072-3d33-45ee-9004-bee86830a22d", endpoint)).toBe(
      createHash("sha256").update(`a8628072-3d33-45ee-9004-bee86830a22d${verificationToken}${endpoint}`).digest("hex"),
    );
  });
});

describe("live eBay adapter: eBay's errors", () => {
  it("names the call and eBay's words, with the details", async () => {
    const adapter = newEbay();
    await adapter.putItems([item(1)]);
    const { offerId } = await adapter.createOffer(offer());

    const error = await adapter.createOffer(offer()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ call: "createOffer", status: 400, retryable: false, code: "PRECONDITION_FAILED" });
    expect((error as MarketplaceError).message).toBe("eBay refused createOffer: A user error has occurred. Offer entity already exists. (error 25002)");
    expect((error as MarketplaceError).details[0]).toMatchObject({ errorId: 25002, domain: "API_INVENTORY", parameters: [{ name: "offerId", value: offerId }] });
  });

  it("says to try again later when eBay fails, limits the shop, or does not answer", async () => {
    const adapter = newEbay();
    await adapter.getOffer("BC-1");

    ebay.failNextCall({ status: 500, body: { errors: [{ errorId: 25001, domain: "API_INVENTORY", category: "APPLICATION", message: "A system error has occurred." }] } });
    await expect(adapter.withdrawOffer("5005317010")).rejects.toMatchObject({ call: "withdrawOffer", status: 500, retryable: true, message: expect.stringMatching(/could not handle withdrawOffer.*try again later/) });

    ebay.failNextCall({ status: 429, body: { errors: [{ errorId: 2001, domain: "ACCESS", category: "REQUEST", message: "Too many requests.", longMessage: "The request limit has been reached for the resource." }] } });
    await expect(adapter.getOrders({ orderIds: ["12-1"] })).rejects.toMatchObject({ call: "getOrders", status: 429, retryable: true, message: expect.stringMatching(/limiting/) });

    ebay.failNextCall({ status: 0, hangUp: true });
    await expect(adapter.publishOffer("5005317010")).rejects.toMatchObject({ call: "publishOffer", status: null, retryable: true, message: expect.stringMatching(/could not be reached for publishOffer/) });

    ebay.failNextCall({ status: 404, body: "<html>Not Found</html>" });
    await expect(adapter.getRefunds("12-1")).rejects.toMatchObject({ call: "getOrder", status: 404, code: "NOT_FOUND", message: "eBay refused getOrder: HTTP 404" });
  });
});
