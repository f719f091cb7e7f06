import { and, asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rawRows } from "@/server/db/raw-rows";
import { adminNotification, configParams, marketplaceBulkRun, marketplaceOffer, productCategory, sandboxMarketplaceItem, sandboxMarketplaceOffer } from "@/server/db/schema";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { inventoryItemRequest } from "@/server/integrations/marketplace/ebay-records";
import { offerRecord, storable } from "@/server/integrations/marketplace/sandbox-records";
import { makeCategory, makeManufacturer, makeProducts } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { getBulkOfferProgress } from "./bulk-progress";
import { cancelBulkUpdate, runBulkUpdateStretch, startBulkUpdate } from "./bulk-update";

const t = databaseForFile();
const staff = { userId: null };
const priceAndQuantity = { price: true, quantity: true, description: false };
const noPause = { sleep: () => Promise.resolve() };

/**
 * The sandbox marketplace (its offers in sandbox_marketplace_offer, every write counted in writeCount), wrapped to
 * record the calls the run makes, to refuse for now (429, 5xx), and to "die" half-way through a bulk write.
 */
class TestMarketplace {
  sandbox = createSandboxMarketplace({ db: t.db, shopUrl: "http://shop.test" });
  bulkCalls: number[] = [];
  getOfferCalls: string[] = [];
  /** The next bulk write applies this many updates, then the process "dies" (throws a plain error). */
  dieAfter: number | null = null;
  /** The next bulk writes are refused with these statuses before anything is applied. */
  refuse: number[] = [];

  port: MarketplacePort = {
    ...this.sandbox,
    getOffer: (sku) => {
      this.getOfferCalls.push(sku);
      return this.sandbox.getOffer(sku);
    },
    updatePriceQuantity: async (updates) => {
      const status = this.refuse.shift();
      if (status) throw new MarketplaceError("bulkUpdatePriceQuantity", status, [], `eBay answered ${status}`);
      this.bulkCalls.push(updates.length);
      if (this.dieAfter === null) return this.sandbox.updatePriceQuantity(updates);
      const reached = updates.slice(0, this.dieAfter);
      this.dieAfter = null;
      await this.sandbox.updatePriceQuantity(reached);
      throw new Error("the process died");
    },
    putItems: (items) => {
      this.bulkCalls.push(items.length);
      return this.sandbox.putItems(items);
    },
  };

  /** Writes per product since the offers were made. */
  async writes(products: { id: number }[]): Promise<number[]> {
    const rows = await t.db.select({ sku: sandboxMarketplaceOffer.sku, writeCount: sandboxMarketplaceOffer.writeCount }).from(sandboxMarketplaceOffer);
    const bySku = new Map(rows.map((row) => [row.sku, row.writeCount]));
    return products.map((row) => bySku.get(`BC-${row.id}`) ?? 0);
  }

  async held(sku: string) {
    const state = await this.sandbox.getOffer(sku);
    return { quantity: state?.quantity, price: state?.price.toFixed(2) };
  }
}

let marketplace: TestMarketplace;

/**
 * `count` products with published offers on the sandbox marketplace, where each is listed a euro below the shop's
 * price and with no pieces, as if the shop's prices and stock had changed since.
 */
async function publishedOffers(count: number, category?: { id: number; name: string }, manufacturer?: { id: number; name: string }) {
  const products = await makeProducts(
    t.db,
    Array.from({ length: count }, (_, i) => ({ name: `Offer ${i}`, price: `${100 + i}.00`, stock: 1 + (i % 3), category, manufacturer })),
  );
  const listed = products.map((row) => {
    const sku = `BC-${row.id}`;
    const price = row.price.minus(1);
    return { row, sku, offerId: `sbo_${row.id}`, listingId: `11000${row.id}`, price };
  });
  await t.db.insert(sandboxMarketplaceItem).values(
    listed.map(({ row, sku }) => ({
      sku,
      quantity: 0,
      record: storable(inventoryItemRequest({ sku, marketplaceId: "EBAY_NL", condition: "USED_GOOD", conditionDescription: null, title: row.name, description: row.name, aspects: {}, imageUrls: [], quantity: 0 })),
    })),
  );
  await t.db.insert(sandboxMarketplaceOffer).values(
    listed.map(({ sku, offerId, listingId, price }) => ({
      offerId,
      sku,
      marketplaceId: "EBAY_NL" as const,
      record: storable(
        offerRecord(offerId, { sku, marketplaceId: "EBAY_NL", price, quantity: 0, categoryId: "31387", storeCategoryNames: [], listingDescription: "" }, {
          status: "PUBLISHED",
          listing: { listingId, listingStatus: "ACTIVE", soldQuantity: 0 },
        }),
      ),
      availableQuantity: 0,
      price,
      status: "PUBLISHED" as const,
      listingId,
    })),
  );
  await t.db.insert(marketplaceOffer).values(
    listed.map(({ row, sku, offerId, listingId, price }) => ({
      productId: row.id,
      sku,
      marketplaceId: "EBAY_NL" as const,
      offerId,
      listingId,
      status: "PUBLISHED" as const,
      pushedQuantity: 0,
      pushedPrice: price,
    })),
  );
  return products;
}

async function theRun() {
  const [run] = await t.db.select().from(marketplaceBulkRun).orderBy(sql`${marketplaceBulkRun.id} desc`).limit(1);
  return run!;
}

async function progressParam() {
  const [row] = await t.db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID"));
  return row?.value;
}

/** Every offer the run wrote must have been written exactly once. */
async function expectEachWrittenOnce(products: { id: number }[]) {
  expect(await marketplace.writes(products)).toEqual(products.map(() => 1));
}

beforeEach(async () => {
  marketplace = new TestMarketplace();
  await t.db.execute(sql`truncate marketplace_bulk_run, marketplace_offer, sandbox_marketplace_offer, sandbox_marketplace_item, admin_notification cascade`);
});

describe("bulk update of all offers", () => {
  it("rewrites every published offer in batches of 25 and tells staff when it is done", async () => {
    const products = await publishedOffers(60);
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    expect(run).toMatchObject({ status: "RUNNING", totalCount: 60, doneCount: 0 });
    expect(await progressParam()).toBe("0");
    const queued = await rawRows<{ data: { runId: number }; singleton_key: string }>(t.db, sql`select data, singleton_key from pgboss.job where name = 'marketplace-bulk-update'`);
    expect(queued).toEqual([{ data: { runId: run.id }, singleton_key: String(run.id) }]);

    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id)).toEqual({ kind: "finished" });

    expect(marketplace.bulkCalls).toEqual([25, 25, 10]);
    await expectEachWrittenOnce(products);
    for (const row of products) expect(await marketplace.held(`BC-${row.id}`)).toEqual({ quantity: row.stock, price: row.price.toFixed(2) });
    expect(await theRun()).toMatchObject({ status: "DONE", doneCount: 60, failedCount: 0, lastProductId: products.at(-1)!.id, inFlightFromId: null });
    expect((await theRun()).finishedAt).toBeInstanceOf(Date);
    const offers = await t.db.select().from(marketplaceOffer).orderBy(asc(marketplaceOffer.productId));
    expect(offers.map((offer) => [offer.pushedQuantity, offer.pushedPrice?.toFixed(2), offer.lastBulkRunId, offer.revisionsToday])).toEqual(
      products.map((row) => [row.stock, row.price.toFixed(2), run.id, 1]),
    );
    expect(offers.every((offer) => offer.lastPushedAt instanceof Date && offer.lastError === null)).toBe(true);
    expect(await progressParam()).toBe("0");
    expect(await getBulkOfferProgress(t.db)).toEqual({ progress: null });
    const notices = await t.db.select().from(adminNotification);
    expect(notices.map((notice) => notice.message)).toEqual(["The bulk update of the eBay offers (price, quantity) is done: 60 offers updated, 0 failed."]);
  });

  it("rewrites the whole item and offer of each when the description is updated", async () => {
    const category = await makeCategory(t.db, "Wristwatches");
    // An eBay category that asks only for a brand (the stand-in's any other category): the listings are sent whole.
    await t.db.update(productCategory).set({ ebayMainCategory: "99999", ebayShopCategory: "Watches" }).where(eq(productCategory.id, category.id));
    const products = await publishedOffers(30, category, await makeManufacturer(t.db, "Omega"));
    const run = await startBulkUpdate(t.db, { price: false, quantity: false, description: true }, staff);
    const pictures = async (productId: number) => [`http://shop.test/pictures/${productId}.jpg`];
    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id, { pictures })).toEqual({ kind: "finished" });

    expect(marketplace.bulkCalls).toEqual([25, 5]);
    // The item and the offer: two writes, two revisions each.
    expect(await marketplace.writes(products)).toEqual(products.map(() => 2));
    const [item] = await t.db.select().from(sandboxMarketplaceItem).where(eq(sandboxMarketplaceItem.sku, `BC-${products[0]!.id}`));
    expect(item!.record).toMatchObject({ product: { title: "Offer 0", imageUrls: [`http://shop.test/pictures/${products[0]!.id}.jpg`] } });
    const [offer] = await t.db.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, `BC-${products[0]!.id}`));
    expect(offer!.record).toMatchObject({ categoryId: "99999", storeCategoryNames: ["Watches"], pricingSummary: { price: { value: "100.00" } } });
    expect(offer!.revisionsToday).toBe(2);
    const recorded = await t.db.select().from(marketplaceOffer).orderBy(asc(marketplaceOffer.productId));
    expect(recorded.map((row) => [row.pushedQuantity, row.pushedPrice?.toFixed(2), row.revisionsToday])).toEqual(products.map((row) => [row.stock, row.price.toFixed(2), 2]));
    expect(await theRun()).toMatchObject({ status: "DONE", doneCount: 30, failedCount: 0 });
  });

  it("shows its progress from the run: percentage, counts and the time left at the pace so far", async () => {
    const products = await publishedOffers(60);
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    expect(await getBulkOfferProgress(t.db)).toEqual({ progress: { currentPercent: "0", estimatedTimeToCompletion: null, msToCompletion: null, currentCount: 0, totalCount: 60 } });

    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id, { maxBatches: 1 })).toEqual({ kind: "more", notBefore: undefined });
    expect(await progressParam()).toBe(String(products[24]!.id));
    // 25 offers in 5 minutes: the other 35 take 7 more.
    const fiveMinutesIn = new Date(run.startedAt.getTime() + 5 * 60_000);
    expect(await getBulkOfferProgress(t.db, fiveMinutesIn)).toEqual({
      progress: { currentPercent: "41", estimatedTimeToCompletion: "about 7 minutes", msToCompletion: 7 * 60_000, currentCount: 25, totalCount: 60 },
    });
    const tenSecondsIn = new Date(run.startedAt.getTime() + 10_000);
    expect((await getBulkOfferProgress(t.db, tenSecondsIn)).progress?.estimatedTimeToCompletion).toBe("less than a minute");
  });

  it("takes up a batch sent but not recorded before a crash without sending those offers again", async () => {
    const products = await publishedOffers(60);
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    await runBulkUpdateStretch(t.db, marketplace.port, run.id, { maxBatches: 1 });
    // The second batch: 20 of its 25 offers reach the marketplace, then the process dies before recording anything.
    marketplace.dieAfter = 20;
    await expect(runBulkUpdateStretch(t.db, marketplace.port, run.id)).rejects.toThrow("the process died");
    expect(await theRun()).toMatchObject({ doneCount: 25, lastProductId: products[24]!.id, inFlightFromId: products[25]!.id, inFlightToId: products[49]!.id });
    expect(await progressParam()).toBe(String(products[24]!.id));

    // Taken up at once, the batch may still be on its way in another process: the run waits until it cannot be.
    const waiting = await runBulkUpdateStretch(t.db, marketplace.port, run.id);
    expect(waiting).toMatchObject({ kind: "more" });
    expect(waiting.kind === "more" && waiting.notBefore!.getTime() - (await theRun()).updatedAt.getTime()).toBe(60_000);
    expect(marketplace.getOfferCalls).toEqual([]);

    const afterRestart = () => new Date(Date.now() + 2 * 60_000);
    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id, { now: afterRestart })).toEqual({ kind: "finished" });
    expect(marketplace.getOfferCalls).toEqual(products.slice(25, 50).map((row) => `BC-${row.id}`));
    // Batch 1, batch 2 (dying after 20), the 5 batch 2 did not reach, batch 3.
    expect(marketplace.bulkCalls).toEqual([25, 25, 5, 10]);
    await expectEachWrittenOnce(products);
    expect(await theRun()).toMatchObject({ status: "DONE", doneCount: 60, failedCount: 0 });
    const stamped = await t.db.select({ id: marketplaceOffer.productId }).from(marketplaceOffer).where(eq(marketplaceOffer.lastBulkRunId, run.id));
    expect(stamped).toHaveLength(60);
  });

  it("takes up at once a batch its own earlier try claimed when the queue handed that try back, and still waits for another job's", async () => {
    const products = await publishedOffers(60);
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    const killedTry = { id: "job-a", previousTryStopped: false };
    await runBulkUpdateStretch(t.db, marketplace.port, run.id, { maxBatches: 1, job: killedTry });
    marketplace.dieAfter = 20;
    await expect(runBulkUpdateStretch(t.db, marketplace.port, run.id, { job: killedTry })).rejects.toThrow("the process died");
    expect(await theRun()).toMatchObject({ inFlightFromId: products[25]!.id, inFlightJobId: "job-a" });

    // Another job (the next stretch) may find the claim of a try still on its way: it waits as before.
    const otherJob = await runBulkUpdateStretch(t.db, marketplace.port, run.id, { job: { id: "job-b", previousTryStopped: true } });
    expect(otherJob).toMatchObject({ kind: "more" });
    // The same job, retried because its worker died or stopped: nothing of that try runs any more.
    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id, { job: { id: "job-a", previousTryStopped: true } })).toEqual({ kind: "finished" });
    expect(marketplace.getOfferCalls).toEqual(products.slice(25, 50).map((row) => `BC-${row.id}`));
    expect(marketplace.bulkCalls).toEqual([25, 25, 5, 10]);
    await expectEachWrittenOnce(products);
    expect(await theRun()).toMatchObject({ status: "DONE", doneCount: 60, inFlightJobId: null });
  });

  it("waits out the marketplace's refusals for now and carries on", async () => {
    const products = await publishedOffers(30);
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    marketplace.refuse = [429, 503];
    const pauses: number[] = [];
    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id, { sleep: async (ms) => void pauses.push(ms) })).toEqual({ kind: "finished" });
    expect(pauses).toEqual([1000, 2000]);
    // Nothing was applied when refused, and the marketplace was asked about the batch before each try again.
    expect(marketplace.getOfferCalls).toHaveLength(50);
    await expectEachWrittenOnce(products);
    expect(await theRun()).toMatchObject({ status: "DONE", doneCount: 30, lastError: null });

    // Refused for longer than a stretch waits: the next stretch is queued for later.
    await t.db.execute(sql`truncate marketplace_bulk_run`);
    const again = await startBulkUpdate(t.db, priceAndQuantity, staff);
    marketplace.refuse = [429];
    const outcome = await runBulkUpdateStretch(t.db, marketplace.port, again.id, { ...noPause, waitLimitMs: 0 });
    expect(outcome).toMatchObject({ kind: "more" });
    expect(outcome.kind === "more" && outcome.notBefore).toBeInstanceOf(Date);
    expect((await theRun()).lastError).toBe("eBay answered 429 (waiting and trying again)");
  });

  it("leaves listings at eBay's 250 revisions a day alone and counts them as failed", async () => {
    const products = await publishedOffers(3);
    const today = new Date().toISOString().slice(0, 10);
    await t.db.update(marketplaceOffer).set({ revisionDay: today, revisionsToday: 250 }).where(eq(marketplaceOffer.productId, products[1]!.id));
    await t.db.update(marketplaceOffer).set({ revisionDay: "2020-01-01", revisionsToday: 250 }).where(eq(marketplaceOffer.productId, products[2]!.id));
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    await runBulkUpdateStretch(t.db, marketplace.port, run.id, noPause);

    expect(await marketplace.writes(products)).toEqual([1, 0, 1]);
    expect(await theRun()).toMatchObject({ status: "DONE", doneCount: 2, failedCount: 1 });
    const [limited] = await t.db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, products[1]!.id));
    expect(limited!.lastError).toBe("The listing was revised 250 times today, eBay's limit is 250 a day; it is left as it is until tomorrow.");
    expect(limited!.pushedQuantity).toBe(0);
    const [yesterday] = await t.db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, products[2]!.id));
    expect(yesterday).toMatchObject({ revisionDay: today, revisionsToday: 1, lastError: null });
    const [notice] = await t.db.select().from(adminNotification);
    expect(notice).toMatchObject({ severity: "WARNING", message: "The bulk update of the eBay offers (price, quantity) is done: 2 offers updated, 1 failed; the offers table shows why." });
  });

  it("refuses a second start while one runs, and stops when cancelled", async () => {
    await publishedOffers(60);
    const run = await startBulkUpdate(t.db, priceAndQuantity, staff);
    await runBulkUpdateStretch(t.db, marketplace.port, run.id, { maxBatches: 1 });
    await expect(startBulkUpdate(t.db, { price: false, quantity: true, description: false }, staff)).rejects.toThrow("A bulk update is already running: 41 % done.");

    expect(await cancelBulkUpdate(t.db, staff)).toMatchObject({ id: run.id, status: "CANCELLED", doneCount: 25 });
    expect(await progressParam()).toBe("0");
    expect(await getBulkOfferProgress(t.db)).toEqual({ progress: null });
    expect(await runBulkUpdateStretch(t.db, marketplace.port, run.id)).toEqual({ kind: "stopped" });
    expect(marketplace.bulkCalls).toEqual([25]);
    expect(await cancelBulkUpdate(t.db, staff)).toBeNull();

    // Once cancelled, a new one may start.
    expect(await startBulkUpdate(t.db, priceAndQuantity, staff)).toMatchObject({ status: "RUNNING", totalCount: 60 });
  });

  it("refuses to start with no published offers", async () => {
    await expect(startBulkUpdate(t.db, priceAndQuantity, staff)).rejects.toThrow("No offers are published on the marketplace, so there is nothing to update.");
    const runs = await t.db.select().from(marketplaceBulkRun).where(and(eq(marketplaceBulkRun.status, "RUNNING")));
    expect(runs).toEqual([]);
  });
});
