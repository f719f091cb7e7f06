import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logbook, marketplaceOffer, product, productCategory, productDescription, productManufacturer, sandboxMarketplaceOffer } from "@/server/db/schema";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { rawRows } from "@/server/db/raw-rows";
import { bookStock } from "@/server/stock/service";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeCategory, makeManufacturer, makeProduct, makeProducts } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { picturesIn, productSku } from "./offer-record";
import { quantityPushJob } from "./quantity-push";
import { listOffers, publishOffers, republishOffers, reviseOffers, withdrawOffers } from "./offers";
import { offerListInput, type OfferListInput } from "./schemas";

/**
 * Staff's offers on the sandbox marketplace: publishing products from their description, category and manufacturer
 * mappings and pictures, revising, withdrawing and republishing them, refusals kept on the offer, the offers table.
 */

const t = databaseForFile();
const storageRoot = mkdtempSync(path.join(os.tmpdir(), "marketplace-offers-test-"));
const storage: StoragePort = createSandboxStorage({ root: storageRoot });
const pictures = picturesIn(storage, "https://shop.example");
let port: MarketplacePort;
let staff: { id: string };
let wristwatches: { id: number; name: string };
let pocketWatches: { id: number; name: string };
let omega: { id: number; name: string };

beforeAll(async () => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "https://shop.example" });
  staff = await makeUser(t.db, "ADMIN", "Sam Staff");
  omega = await makeManufacturer(t.db, "Omega");
  const watches = await makeCategory(t.db, "Watches");
  await t.db.update(productCategory).set({ ebayMainCategory: "31387", ebayShopCategory: "Watches" }).where(eq(productCategory.id, watches.id));
  // A sub-category without mappings of its own takes its parent's.
  wristwatches = await makeCategory(t.db, "Wristwatches", watches.id);
  pocketWatches = await makeCategory(t.db, "Pocket watches");
  await t.db.update(productManufacturer).set({ ebayShopManufacturer: "Omega watches" }).where(eq(productManufacturer.id, omega.id));
});

afterAll(() => rmSync(storageRoot, { recursive: true, force: true }));

const actor = () => ({ userId: staff.id });

async function watch(name: string, options: { stock?: number; price?: string; category?: { id: number; name: string }; picture?: boolean } = {}) {
  const row = await makeProduct(t.db, {
    name,
    price: options.price ?? "850.00",
    stock: options.stock ?? 1,
    manufacturer: omega,
    category: options.category ?? wristwatches,
    caliber: "AUTOMATIC",
    state: "USED",
    gender: "MENS",
    itemType: "WRISTWATCH",
  });
  await t.db.update(productDescription).set({ movement: "Omega 552, 24 jewels", dimensions: "Ø 35 mm", condition: "Light scratches" }).where(eq(productDescription.productId, row.id));
  if (options.picture !== false) await storage.put(productImageKey(row.id), Buffer.from("RIFF....WEBP"), "image/webp");
  return row;
}

const offerOf = async (productId: number) => (await t.db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId)))[0];
const ebayStatusOf = async (productId: number) => (await t.db.select({ status: product.ebayStatus }).from(product).where(eq(product.id, productId)))[0]!.status;
const sandboxOffersOf = (productId: number) => t.db.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, productSku(productId)));
const logOf = (productId: number) =>
  t.db
    .select()
    .from(logbook)
    .where(and(eq(logbook.entityType, "MARKETPLACE_OFFER"), eq(logbook.entityId, String(productId))))
    .orderBy(asc(logbook.id));
const pushesWaitingFor = async (productId: number) =>
  (
    await rawRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from pgboss.job where name = ${quantityPushJob.name} and state = 'created' and data->>'productId' = ${String(productId)}`,
    )
  )[0]!.count;
const list = (input: OfferListInput) => listOffers(t.db, offerListInput.parse(input), pictures, port);

describe("publishing", () => {
  it("lists a product with its whole item and offer, and records the listing on the offer and the product", async () => {
    const seamaster = await watch("Omega Seamaster De Ville automatic", { stock: 2, price: "1250.00" });
    const outcome = await publishOffers(t.db, port, [seamaster.id], actor(), pictures);

    expect(outcome).toMatchObject({ succeeded: 1, failed: 0, results: [{ productId: seamaster.id, name: "Omega Seamaster De Ville automatic", ok: true, message: null }] });
    const listingId = outcome.results[0]!.listingId;
    expect(listingId).toBeTruthy();
    const state = await port.getOffer(productSku(seamaster.id));
    expect(state).toMatchObject({ status: "PUBLISHED", listingId, quantity: 2, marketplaceId: "EBAY_NL" });
    expect(state!.price.equals("1250.00")).toBe(true);
    const [sandboxOffer] = await sandboxOffersOf(seamaster.id);
    expect(sandboxOffer!.record).toMatchObject({ categoryId: "31387", storeCategoryNames: ["Watches", "Omega watches"] });

    expect(await offerOf(seamaster.id)).toMatchObject({
      sku: `BC-${seamaster.id}`,
      marketplaceId: "EBAY_NL",
      offerId: state!.offerId,
      listingId,
      status: "PUBLISHED",
      pushedQuantity: 2,
      lastError: null,
    });
    expect((await offerOf(seamaster.id))!.pushedPrice!.equals("1250.00")).toBe(true);
    expect(await ebayStatusOf(seamaster.id)).toBe("ONLINE");
    const [entry] = await logOf(seamaster.id);
    expect(entry).toMatchObject({ eventType: "EBAY_API", userId: staff.id, logLevel: "INFO", previousState: null, newState: expect.objectContaining({ status: "PUBLISHED", listingId }) });
  });

  it("takes the offer it made before when a publish is retried after a crash, instead of making a second one", async () => {
    const firstTryAspects = { Brand: ["Omega"], Model: ["Constellation"], Type: ["Wristwatch"], Department: ["Men"], Movement: ["Automatic"] };
    const constellation = await watch("Omega Constellation");
    // The last attempt got as far as publishing on the marketplace, then died before writing anything down.
    const sku = productSku(constellation.id);
    await port.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: "Omega Constellation", description: "<p>first try</p>", aspects: firstTryAspects, imageUrls: [], quantity: 1 }]);
    const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal("850.00"), quantity: 1, categoryId: "31387", storeCategoryNames: [], listingDescription: "<p>first try</p>" });
    const { listingId } = await port.publishOffer(offerId);

    const outcome = await publishOffers(t.db, port, [constellation.id], actor(), pictures);
    expect(outcome.results[0]).toMatchObject({ ok: true, listingId });
    expect(await sandboxOffersOf(constellation.id)).toHaveLength(1);
    expect(await offerOf(constellation.id)).toMatchObject({ offerId, listingId, status: "PUBLISHED" });
  });

  it("pushes the quantity again when the stock changed while the product was being published", async () => {
    const [quiet, sold] = [await watch("Omega Dynamic", { stock: 2 }), await watch("Omega Genève Dynamic", { stock: 2 })];
    // A web-shop sale commits while the marketplace is publishing: it saw no published offer, so it queued no push.
    const racing: MarketplacePort = {
      ...port,
      publishOffer: async (offerId) => {
        const listed = await port.publishOffer(offerId);
        const [offer] = await t.db.select({ sku: sandboxMarketplaceOffer.sku }).from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.offerId, offerId));
        if (offer!.sku === productSku(sold.id)) {
          await bookStock(t.db, { productId: sold.id, quantity: -1, type: "INVENTORY_CORRECTION", userId: null, description: "Sold in the shop" });
        }
        return listed;
      },
    };
    expect((await publishOffers(t.db, racing, [quiet.id, sold.id], actor(), pictures)).succeeded).toBe(2);
    expect(await offerOf(sold.id)).toMatchObject({ pushedQuantity: 2 });
    expect(await pushesWaitingFor(quiet.id)).toBe(0);
    expect(await pushesWaitingFor(sold.id)).toBe(1);
  });

  it("goes through a selection product by product: one that cannot be listed says why and the others are listed", async () => {
    const pocket = await watch("Omega pocket watch", { category: pocketWatches });
    const noPicture = await watch("Omega without a picture", { picture: false });
    const soldOut = await watch("Omega sold out", { stock: 0 });
    const good = await watch("Omega Geneve");

    const outcome = await publishOffers(t.db, port, [pocket.id, noPicture.id, soldOut.id, 999_999, good.id], actor(), pictures);
    expect(outcome.succeeded).toBe(1);
    expect(outcome.failed).toBe(4);
    expect(outcome.results.map((result) => [result.productId, result.ok, result.message])).toEqual([
      [pocket.id, false, "No eBay category for Pocket watches"],
      [noPicture.id, false, "No picture"],
      [soldOut.id, false, "Not in stock"],
      [999_999, false, "Product 999999 does not exist."],
      [good.id, true, null],
    ]);
    expect(await offerOf(pocket.id)).toBeUndefined();
    expect(await sandboxOffersOf(pocket.id)).toHaveLength(0);
    expect(await ebayStatusOf(good.id)).toBe("ONLINE");

    const again = await publishOffers(t.db, port, [good.id], actor(), pictures);
    expect(again.results[0]).toMatchObject({ ok: false, message: expect.stringMatching(/^Already on eBay as listing/) });
  });
});

describe("revising, withdrawing and republishing", () => {
  it("revises a listed product whole, withdraws it and republishes it under a new listing id", async () => {
    const railmaster = await watch("Omega Railmaster", { stock: 3, price: "900.00" });
    const published = await publishOffers(t.db, port, [railmaster.id], actor(), pictures);
    const firstListing = published.results[0]!.listingId!;

    await t.db.update(product).set({ name: "Omega Railmaster 1957 reissue", price: new Decimal("950.00") }).where(eq(product.id, railmaster.id));
    const revised = await reviseOffers(t.db, port, [railmaster.id], actor(), pictures);
    expect(revised.results[0]).toMatchObject({ ok: true, listingId: firstListing });
    const state = await port.getOffer(productSku(railmaster.id));
    expect(state!.price.equals("950.00")).toBe(true);
    const [sandboxOffer] = await sandboxOffersOf(railmaster.id);
    expect(sandboxOffer!.record).toMatchObject({ listingDescription: expect.stringContaining("Omega Railmaster 1957 reissue") });
    expect(await offerOf(railmaster.id)).toMatchObject({ pushedQuantity: 3, revisionsToday: 1 });

    const withdrawn = await withdrawOffers(t.db, port, [railmaster.id], actor(), pictures);
    expect(withdrawn.results[0]).toMatchObject({ ok: true, listingId: null });
    expect(await offerOf(railmaster.id)).toMatchObject({ status: "WITHDRAWN", listingId: null });
    expect(await ebayStatusOf(railmaster.id)).toBe("OFFLINE");
    expect((await port.getOffer(productSku(railmaster.id)))!.status).toBe("UNPUBLISHED");

    expect((await reviseOffers(t.db, port, [railmaster.id], actor(), pictures)).results[0]).toMatchObject({ ok: false, message: "Not on eBay: publish it first." });

    const republished = await republishOffers(t.db, port, [railmaster.id], actor(), pictures);
    const secondListing = republished.results[0]!.listingId!;
    expect(republished.results[0]!.ok).toBe(true);
    expect(secondListing).not.toBe(firstListing);
    expect(await offerOf(railmaster.id)).toMatchObject({ status: "PUBLISHED", listingId: secondListing });
    expect(await ebayStatusOf(railmaster.id)).toBe("ONLINE");
    expect(await sandboxOffersOf(railmaster.id)).toHaveLength(1);

    expect((await logOf(railmaster.id)).map((entry) => entry.description)).toEqual([
      expect.stringContaining("published on eBay (EBAY_NL)"),
      expect.stringContaining("revised on eBay"),
      expect.stringContaining("withdrawn from eBay"),
      expect.stringContaining("republished on eBay"),
    ]);
  });

  it("keeps a marketplace refusal on the offer and in the logbook, and clears it with the next write that works", async () => {
    const speedmaster = await watch("Omega Speedmaster");
    await publishOffers(t.db, port, [speedmaster.id], actor(), pictures);
    // The listing was revised as often as eBay allows today.
    const today = new Date().toISOString().slice(0, 10);
    await t.db.update(sandboxMarketplaceOffer).set({ revisionDay: today, revisionsToday: 250 }).where(eq(sandboxMarketplaceOffer.sku, productSku(speedmaster.id)));

    const refused = await reviseOffers(t.db, port, [speedmaster.id], actor(), pictures);
    expect(refused.results[0]).toMatchObject({ ok: false, message: expect.stringContaining("revised the maximum number of times today") });
    const offer = await offerOf(speedmaster.id);
    expect(offer).toMatchObject({ status: "PUBLISHED", lastError: refused.results[0]!.message });
    expect(offer!.lastErrorAt).toBeInstanceOf(Date);
    expect((await logOf(speedmaster.id)).at(-1)).toMatchObject({ logLevel: "ERROR", eventType: "EBAY_API", errorData: expect.objectContaining({ status: 400 }) });

    const failing = await list({ failing: true });
    expect(failing.rows.map((row) => row.productId)).toEqual([speedmaster.id]);

    await t.db.update(sandboxMarketplaceOffer).set({ revisionsToday: 0 }).where(eq(sandboxMarketplaceOffer.sku, productSku(speedmaster.id)));
    expect((await reviseOffers(t.db, port, [speedmaster.id], actor(), pictures)).results[0]!.ok).toBe(true);
    expect(await offerOf(speedmaster.id)).toMatchObject({ lastError: null, lastErrorAt: null });
  });
});

describe("the offers table", () => {
  it("lists products with their offer and blocker, filtered, searched by name or id and paged", async () => {
    const listed = await watch("Omega Aqua Terra table");
    await publishOffers(t.db, port, [listed.id], actor(), pictures);
    const waiting = await watch("Omega Aqua Terra unlisted");
    const blocked = await watch("Omega Aqua Terra pocket", { category: pocketWatches, stock: 0 });

    const search = await list({ search: "aqua terra" });
    expect(search.total).toBe(3);
    expect(search.rows.map((row) => [row.productId, row.offer?.status ?? "NONE", row.blocker])).toEqual([
      [blocked.id, "NONE", "No eBay category for Pocket watches"],
      [waiting.id, "NONE", null],
      [listed.id, "PUBLISHED", null],
    ]);
    expect(search.rows[2]!.offer).toMatchObject({ sku: `BC-${listed.id}`, marketplaceId: "EBAY_NL", pushedQuantity: 1, lastError: null });

    expect((await list({ search: "aqua terra", status: "NONE" })).rows.map((row) => row.productId)).toEqual([blocked.id, waiting.id]);
    expect((await list({ search: "aqua terra", status: "PUBLISHED" })).rows.map((row) => row.productId)).toEqual([listed.id]);
    expect((await list({ search: "aqua terra", inStock: false })).rows.map((row) => row.productId)).toEqual([blocked.id]);
    expect((await list({ search: String(waiting.id) })).rows.map((row) => row.productId)).toEqual([waiting.id]);
    expect((await list({ search: `BC-${listed.id}` })).rows.map((row) => row.productId)).toEqual([listed.id]);
    expect((await list({ search: "100%_" })).total).toBe(0);

    await makeProducts(t.db, Array.from({ length: 30 }, (_, index) => ({ name: `Leather strap ${index + 1}` })));
    const pageTwo = await list({ search: "leather strap", pageSize: 25, page: 2 });
    expect(pageTwo.total).toBe(30);
    expect(pageTwo.rows.map((row) => row.name)).toEqual(["Leather strap 5", "Leather strap 4", "Leather strap 3", "Leather strap 2", "Leather strap 1"]);
    expect(pageTwo.rows[0]!.blocker).toMatch(/^No category/);
  });
});
