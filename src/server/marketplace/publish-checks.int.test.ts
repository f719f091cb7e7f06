import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caliber, ProductState } from "@/lib/enums";
import { marketplaceCategoryRules, marketplaceCategoryTree, productCategory, productDescription, sandboxMarketplaceItem, sandboxMarketplaceOffer } from "@/server/db/schema";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeCategory, makeManufacturer, makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { sendListings } from "./bulk-batch";
import { TREE_CHECK_MS } from "./category-rules";
import { buildListing, picturesIn, productSku, readOfferSource } from "./offer-record";
import { listOffers, publishOffers } from "./offers";
import { offerListInput } from "./schemas";

/**
 * Issue 30, acceptance 1: a product eBay's category would refuse (a required item specific it does not fill, a
 * condition the category does not take) is refused by the shop before any call that lists it, with a message naming
 * the aspect and the product field to fill; the sandbox marketplace would have refused it at publish, as eBay does.
 * The category rules are cached per category tree version.
 */

const t = databaseForFile();
const storageRoot = mkdtempSync(path.join(os.tmpdir(), "marketplace-publish-checks-"));
const storage: StoragePort = createSandboxStorage({ root: storageRoot });
const pictures = picturesIn(storage, "https://shop.example");
let sandbox: MarketplacePort;
let staff: { id: string };
let omega: { id: number; name: string };
let wristwatches: { id: number; name: string };
let oddities: { id: number; name: string };

/** The sandbox marketplace with every call counted, and the tree's version set by the test. */
function counted(treeVersion = "131") {
  const calls: Record<string, number> = {};
  const port = new Proxy(sandbox, {
    get(target, name: string) {
      const value = target[name as keyof MarketplacePort];
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        calls[name] = (calls[name] ?? 0) + 1;
        const answer = await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
        return name === "getCategoryTree" ? { ...(answer as object), version: treeVersion } : answer;
      };
    },
  });
  const listingCalls = () => ["putItems", "getOffer", "createOffer", "updateOffer", "publishOffer"].reduce((sum, name) => sum + (calls[name] ?? 0), 0);
  return { port, calls, listingCalls };
}

beforeAll(async () => {
  sandbox = createSandboxMarketplace({ db: t.db, shopUrl: "https://shop.example" });
  staff = await makeUser(t.db, "ADMIN", "Sam Staff");
  omega = await makeManufacturer(t.db, "Omega");
  wristwatches = await makeCategory(t.db, "Wristwatches");
  await t.db.update(productCategory).set({ ebayMainCategory: "31387" }).where(eq(productCategory.id, wristwatches.id));
  oddities = await makeCategory(t.db, "Oddities");
  await t.db.update(productCategory).set({ ebayMainCategory: "99999" }).where(eq(productCategory.id, oddities.id));
});

afterAll(() => rmSync(storageRoot, { recursive: true, force: true }));

const actor = () => ({ userId: staff.id });

async function piece(name: string, options: { caliber?: Caliber; state?: ProductState; movement?: string; condition?: string; category?: { id: number; name: string } } = {}) {
  const row = await makeProduct(t.db, {
    name,
    price: "950.00",
    stock: 1,
    manufacturer: omega,
    category: options.category ?? wristwatches,
    caliber: options.caliber ?? "AUTOMATIC",
    state: options.state ?? "USED",
    gender: "MENS",
    itemType: "WRISTWATCH",
  });
  await t.db
    .update(productDescription)
    .set({ movement: options.movement ?? "Omega 565, 24 jewels", dimensions: "35 mm without crown", condition: options.condition ?? "Used, in good working order" })
    .where(eq(productDescription.productId, row.id));
  await storage.put(productImageKey(row.id), Buffer.from("RIFF....WEBP"), "image/webp");
  return row;
}

const sandboxRowsOf = async (productId: number) => ({
  items: await t.db.select().from(sandboxMarketplaceItem).where(eq(sandboxMarketplaceItem.sku, productSku(productId))),
  offers: await t.db.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, productSku(productId))),
});

describe("publishing checks eBay's category rules first", () => {
  it("refuses a product without a required item specific before any listing call, naming the aspect and the field; the stand-in would have refused it", async () => {
    // A chronograph whose Movement text does not say automatic or hand-wound: eBay's required Movement stays empty.
    const chronograph = await piece("Omega Speedmaster Professional", { caliber: "CHRONOGRAPH", movement: "Omega 861, 17 jewels" });
    const seamaster = await piece("Omega Seamaster ref. 166.010");
    const { port, listingCalls, calls } = counted();

    const outcome = await publishOffers(t.db, port, [chronograph.id], actor(), pictures);
    expect(outcome.results[0]).toMatchObject({ ok: false, message: "eBay requires Movement for Wristwatches: fill the product's Movement" });
    expect(listingCalls()).toBe(0);
    expect(calls.getCategoryAspects).toBe(1);
    expect(await sandboxRowsOf(chronograph.id)).toEqual({ items: [], offers: [] });

    // Selected together, the one that fills every required aspect is listed, in eBay's names and values.
    const both = await publishOffers(t.db, port, [chronograph.id, seamaster.id], actor(), pictures);
    expect(both.results.map((result) => result.ok)).toEqual([false, true]);
    const [item] = (await sandboxRowsOf(seamaster.id)).items;
    expect(item!.record).toMatchObject({ condition: "USED_EXCELLENT", conditionDescription: "Used, in good working order", product: { aspects: { Movement: ["Mechanical (Automatic)"], Model: ["Seamaster"] } } });

    // What the shop would have sent without the check: the stand-in refuses it at publish, as eBay does (25002).
    const source = await readOfferSource(t.db, chronograph.id, pictures);
    const unchecked = buildListing(source, "EBAY_NL", source.price);
    await sandbox.putItems([unchecked.item]);
    const { offerId } = await sandbox.createOffer(unchecked.offer);
    const refusal = await sandbox.publishOffer(offerId).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MarketplaceError);
    expect((refusal as MarketplaceError).details[0]).toMatchObject({ errorId: 25002 });
    expect((refusal as MarketplaceError).message).toMatch(/item specific Movement is missing/);
  });

  it("refuses a condition the category does not take, before any listing call; the stand-in refuses it too", async () => {
    // "New old stock, never fitted" is eBay's "New (other)", which this category does not take.
    const nos = await piece("Omega Genève new old stock", { state: "NEW", condition: "New old stock (NOS), never fitted", category: oddities });
    const { port, listingCalls } = counted();
    const outcome = await publishOffers(t.db, port, [nos.id], actor(), pictures);
    expect(outcome.results[0]!.message).toBe(`eBay does not take "new (other)" pieces in Other: check the product's State and Condition`);
    expect(listingCalls()).toBe(0);

    const nosSource = await readOfferSource(t.db, nos.id, pictures);
    const unchecked = buildListing(nosSource, "EBAY_NL", nosSource.price);
    await sandbox.putItems([unchecked.item]);
    const { offerId } = await sandbox.createOffer(unchecked.offer);
    await expect(sandbox.publishOffer(offerId)).rejects.toMatchObject({ details: [expect.objectContaining({ errorId: 25021 })] });
  });

  it("keeps the rules per category tree version: asked once, the tree checked once a day, fetched again for a new version", async () => {
    await t.db.delete(marketplaceCategoryRules);
    await t.db.delete(marketplaceCategoryTree);
    const [first, second] = [await piece("Omega De Ville"), await piece("Omega Dynamic")];
    const before = counted("131");
    await publishOffers(t.db, before.port, [first.id, second.id], actor(), pictures);
    expect(before.calls).toMatchObject({ getCategoryTree: 1, getCategoryAspects: 1, getConditionPolicies: 1 });

    // A day later eBay has a new tree version: its rules are fetched again, once.
    await t.db.update(marketplaceCategoryTree).set({ checkedAt: new Date(Date.now() - TREE_CHECK_MS - 1000) });
    const after = counted("132");
    const third = await piece("Omega Constellation");
    await publishOffers(t.db, after.port, [third.id], actor(), pictures);
    expect(after.calls).toMatchObject({ getCategoryTree: 1, getCategoryAspects: 1 });
    expect((await t.db.select().from(marketplaceCategoryRules)).map((row) => [row.categoryId, row.treeVersion])).toEqual([["31387", "132"]]);
  });

  it("shows blocked products and why in the offers table, with a filter, and the bulk update skips them with the reason", async () => {
    const blocked = await piece("Omega Speedmaster Mark II", { caliber: "CHRONOGRAPH", movement: "Lemania 1873" });
    const fine = await piece("Omega Seamaster Cosmic");
    const { port } = counted();
    const list = await listOffers(t.db, offerListInput.parse({ search: "Omega S", blocked: true }), pictures, port);
    expect(list.rows.map((row) => [row.productId, row.blocker])).toContainEqual([blocked.id, "eBay requires Movement for Wristwatches: fill the product's Movement"]);
    expect(list.rows.map((row) => row.productId)).not.toContain(fine.id);
    expect(list.total).toBe(list.rows.length);

    const outcomes = await sendListings(t.db, port, [{ productId: blocked.id, sku: productSku(blocked.id), marketplaceId: "EBAY_NL", offerId: "1", revisionDay: null, revisionsToday: 0, quantity: 1, price: (await readOfferSource(t.db, blocked.id, pictures)).price }], pictures);
    expect(outcomes).toEqual([{ productId: blocked.id, ok: false, error: "eBay requires Movement for Wristwatches: fill the product's Movement", revisions: 0 }]);
  });
});
