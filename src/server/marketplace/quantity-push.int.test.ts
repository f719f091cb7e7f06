import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "@/server/db/raw-rows";
import { logbook, marketplaceOffer } from "@/server/db/schema";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { correctInventory } from "@/server/stock/service";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct, placeGuestOrder } from "../../../tests/helpers/factories";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { pushQuantity, quantityPushJob, requestQuantityPushNow } from "./quantity-push";
import { REVISIONS_PER_DAY } from "./revisions";

/**
 * One stock across both channels, on a real database and the sandbox marketplace: every stock change queues one
 * push of the product's quantity (coalesced while one waits), and the push tells the marketplace the latest stock,
 * records what it told, and records and retries a failure.
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
let port: MarketplacePort;
let staff: { id: string };

beforeAll(async () => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "http://127.0.0.1:9" });
  staff = await makeUser(t.db, "ADMIN", "Sam Staff");
});

/** A product with stock through the ledger, listed on the sandbox marketplace with its offer published, as offers do it. */
async function listedProduct(name: string, stock: number) {
  const made = await makeStockedProduct(t.db, { name, price: "120.00", stock });
  const sku = `BC-${made.id}`;
  await port.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: "Light wear", title: name, description: `<p>${name}</p>`, aspects: wristwatchAspects, imageUrls: [], quantity: stock }]);
  const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal("120.00"), quantity: stock, categoryId: "31387", storeCategoryNames: [], listingDescription: `<p>${name}</p>` });
  const { listingId } = await port.publishOffer(offerId);
  await t.db.insert(marketplaceOffer).values({ productId: made.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: stock, pushedPrice: new Decimal("120.00"), lastPushedAt: now });
  return { ...made, sku, offerId };
}

/** Pushes of the product waiting in the queue (not yet taken by a worker). */
const waitingPushes = (productId: number) =>
  rawRows<{ singleton_key: string; start_after: Date }>(
    t.db,
    sql`select singleton_key, start_after from pgboss.job where name = ${quantityPushJob.name} and singleton_key = ${String(productId)} and state in ('created', 'retry')`,
  );

const offerOf = async (productId: number) => (await t.db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId)))[0]!;
const listedQuantity = async (sku: string) => (await port.getOffer(sku))!.quantity;
const correct = (productId: number, quantity: number) => correctInventory(t.db, { productId, quantity, reason: quantity > 0 ? "OTHER" : "DAMAGED", comment: quantity > 0 ? "Found in the workshop" : "" }, staff.id);

describe("queuing quantity pushes", () => {
  it("queues one push for a web order's stock change, coalesces further changes while it waits, and none for a product not listed", async () => {
    const watch = await listedProduct("Longines Conquest", 3);
    expect(await waitingPushes(watch.id)).toEqual([]);

    await placeGuestOrder(t.db, { email: "web@example.com", items: [{ productId: watch.id, quantity: 1 }] }, now);
    expect(await waitingPushes(watch.id)).toHaveLength(1);
    await correct(watch.id, -1);
    await correct(watch.id, 4);
    expect(await waitingPushes(watch.id)).toHaveLength(1);

    // The waiting push reads the stock when it runs: it tells the marketplace the latest of all three changes.
    expect(await pushQuantity(t.db, port, watch.id)).toEqual({ result: "pushed", quantity: 5, pushes: 1 });
    expect(await listedQuantity(watch.sku)).toBe(5);

    const unlisted = await makeStockedProduct(t.db, { name: "Not on eBay", stock: 2 });
    await correct(unlisted.id, -1);
    expect(await waitingPushes(unlisted.id)).toEqual([]);
  });
});

describe("pushing a quantity", () => {
  it("pushes the stock when it differs from what was pushed, records it, skips an unchanged one and pushes 0 without ending the listing", async () => {
    const watch = await listedProduct("Zenith El Primero", 2);
    await correct(watch.id, -1);
    const before = new Date();
    expect(await pushQuantity(t.db, port, watch.id)).toEqual({ result: "pushed", quantity: 1, pushes: 1 });
    const offer = await offerOf(watch.id);
    expect(offer).toMatchObject({ pushedQuantity: 1, lastError: null, lastErrorAt: null, revisionDay: before.toISOString().slice(0, 10), revisionsToday: 1 });
    expect(offer.lastPushedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(await listedQuantity(watch.sku)).toBe(1);

    expect(await pushQuantity(t.db, port, watch.id)).toEqual({ result: "unchanged", quantity: 1 });
    expect((await offerOf(watch.id)).revisionsToday).toBe(1);

    await correct(watch.id, -1);
    expect(await pushQuantity(t.db, port, watch.id)).toMatchObject({ result: "pushed", quantity: 0 });
    expect(await port.getOffer(watch.sku)).toMatchObject({ status: "PUBLISHED", quantity: 0 });
  });

  it("pushes again when the stock moved while it was pushing", async () => {
    const watch = await listedProduct("Rolex Oysterdate", 2);
    await correct(watch.id, -1);
    let moved = false;
    // A sale lands on the web shop while the marketplace is still answering the first push.
    const slow: MarketplacePort = {
      ...port,
      async updatePriceQuantity(updates) {
        const answer = await port.updatePriceQuantity(updates);
        if (!moved) {
          moved = true;
          await correct(watch.id, -1);
        }
        return answer;
      },
    };
    expect(await pushQuantity(t.db, slow, watch.id)).toEqual({ result: "pushed", quantity: 0, pushes: 2 });
    expect(await listedQuantity(watch.sku)).toBe(0);
    expect((await offerOf(watch.id)).pushedQuantity).toBe(0);
  });

  it("pushes again when a revise that told the marketplace an older quantity was recorded while it was pushing", async () => {
    const watch = await listedProduct("Omega Speedmaster 145.022", 2);
    await correct(watch.id, -1);
    let revised = false;
    // Staff's revise read the stock (2) before the sale, reached eBay after this push, and was recorded first.
    const racing: MarketplacePort = {
      ...port,
      async updatePriceQuantity(updates) {
        const answer = await port.updatePriceQuantity(updates);
        if (!revised) {
          revised = true;
          await port.updatePriceQuantity([{ ...updates[0]!, quantity: 2 }]);
          await t.db.update(marketplaceOffer).set({ pushedQuantity: 2, lastPushedAt: new Date(Date.now() + 1) }).where(eq(marketplaceOffer.productId, watch.id));
        }
        return answer;
      },
    };
    expect(await pushQuantity(t.db, racing, watch.id)).toEqual({ result: "pushed", quantity: 1, pushes: 2 });
    expect(await listedQuantity(watch.sku)).toBe(1);
    expect((await offerOf(watch.id)).pushedQuantity).toBe(1);
  });

  it("records a failure the marketplace may get over and throws it for the queue to retry; the retry clears it", async () => {
    const watch = await listedProduct("Breitling Navitimer", 2);
    await correct(watch.id, -1);
    const down: MarketplacePort = { ...port, updatePriceQuantity: () => Promise.reject(new MarketplaceError("updatePriceQuantity", 503, [], "eBay answered 503 Service Unavailable")) };
    const error = await pushQuantity(t.db, down, watch.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect((error as MarketplaceError).retryable).toBe(true);
    expect(quantityPushJob.retry!.limit).toBeGreaterThan(0);
    const failed = await offerOf(watch.id);
    expect(failed).toMatchObject({ pushedQuantity: 2, lastError: "eBay answered 503 Service Unavailable" });
    expect(failed.lastErrorAt).not.toBeNull();
    const [entry] = await t.db
      .select({ level: logbook.logLevel, description: logbook.description })
      .from(logbook)
      .where(and(eq(logbook.eventType, "EBAY_API"), eq(logbook.entityType, "MARKETPLACE_OFFER"), eq(logbook.entityId, String(watch.id))));
    expect(entry).toEqual({ level: "WARNING", description: `Quantity 1 of product ${watch.id} could not be pushed to eBay: eBay answered 503 Service Unavailable` });
    expect(await listedQuantity(watch.sku)).toBe(2);

    expect(await pushQuantity(t.db, port, watch.id)).toMatchObject({ result: "pushed", quantity: 1 });
    expect(await offerOf(watch.id)).toMatchObject({ pushedQuantity: 1, lastError: null, lastErrorAt: null });
    expect(await listedQuantity(watch.sku)).toBe(1);
  });

  it("records a refusal that trying again cannot mend without throwing", async () => {
    const watch = await listedProduct("Certina DS", 2);
    // Ended on the marketplace behind the shop's back: eBay refuses quantities for an offer that is not published.
    await port.withdrawOffer(watch.offerId);
    await correct(watch.id, -1);
    const outcome = await pushQuantity(t.db, port, watch.id);
    expect(outcome).toMatchObject({ result: "refused", quantity: 1 });
    expect((await offerOf(watch.id)).lastError).toContain(`eBay refused quantity 1 for ${watch.sku}`);
  });

  it("leaves a push past the listing's daily revisions for the next day, saying so", async () => {
    const watch = await listedProduct("Junghans Max Bill", 2);
    const today = new Date().toISOString().slice(0, 10);
    await t.db.update(marketplaceOffer).set({ revisionDay: today, revisionsToday: REVISIONS_PER_DAY }).where(eq(marketplaceOffer.productId, watch.id));
    await correct(watch.id, -1);
    await t.db.execute(sql`delete from pgboss.job where name = ${quantityPushJob.name} and singleton_key = ${String(watch.id)}`);

    expect(await pushQuantity(t.db, port, watch.id)).toEqual({ result: "revision limit", quantity: 1 });
    expect((await offerOf(watch.id)).lastError).toMatch(/250 revisions of a listing a day.*quantity 1 is pushed after midnight/);
    expect(await listedQuantity(watch.sku)).toBe(2);
    const [tomorrow] = await waitingPushes(watch.id);
    expect(new Date(tomorrow!.start_after).toISOString()).toBe(new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString());
  });

  it("pushes again on staff's request even when the shop believes the marketplace has the quantity", async () => {
    const watch = await listedProduct("Doxa Sub 300", 1);
    // The reconciliation found the marketplace showing something else than the shop pushed.
    await port.updatePriceQuantity([{ sku: watch.sku, offerId: watch.offerId, quantity: 7 }]);
    expect(await requestQuantityPushNow(t.db, watch.id)).toEqual({ queued: true });
    expect(await waitingPushes(watch.id)).toHaveLength(1);
    expect((await offerOf(watch.id)).pushedQuantity).toBeNull();
    expect(await pushQuantity(t.db, port, watch.id)).toMatchObject({ result: "pushed", quantity: 1 });
    expect(await listedQuantity(watch.sku)).toBe(1);
  });
});
