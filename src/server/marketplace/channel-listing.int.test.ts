import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAdminProduct, updateProduct } from "@/server/catalog/admin-service";
import { productFormInput, type AdminProduct } from "@/server/catalog/admin-schemas";
import { rawRows } from "@/server/db/raw-rows";
import { logbook, marketplaceBulkRun, marketplaceOffer, product, productCategory, productDescription, sandboxMarketplaceOffer } from "@/server/db/schema";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { endSandboxListing } from "@/server/integrations/marketplace/sandbox-rows";
import { productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { correctInventory } from "@/server/stock/service";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeCategory, makeManufacturer, makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { batchOf, sendPriceQuantity } from "./bulk-batch";
import { readChannelSettings, saveChannelSettings } from "./channel-settings";
import { saveEbaySettings } from "./ebay-settings";
import { picturesIn, productSku } from "./offer-record";
import { publishOffers, republishOffers, withdrawOffers } from "./offers";
import { pushQuantity, quantityPushJob } from "./quantity-push";

/**
 * The eBay price per product and the listing that ends at 0 and comes back with stock, on a real database against the
 * sandbox marketplace: what is sent on publish, push and bulk update; the end, the relist under a new listing id and
 * a race of two pushes; a withdraw of a listing eBay had already ended.
 */

const t = databaseForFile();
const storageRoot = mkdtempSync(path.join(os.tmpdir(), "marketplace-channel-test-"));
const storage: StoragePort = createSandboxStorage({ root: storageRoot });
const pictures = picturesIn(storage, "https://shop.example");
let port: MarketplacePort;
let staff: { id: string };
let category: { id: number; name: string };
let omega: { id: number; name: string };

beforeAll(async () => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "https://shop.example" });
  staff = await makeUser(t.db, "ADMIN", "Sam Staff");
  omega = await makeManufacturer(t.db, "Omega");
  category = await makeCategory(t.db, "Wristwatches");
  await t.db.update(productCategory).set({ ebayMainCategory: "31387" }).where(eq(productCategory.id, category.id));
});

afterAll(() => rmSync(storageRoot, { recursive: true, force: true }));

const actor = () => ({ userId: staff.id });
const settings = (markupPercent: string, outOfStock: "END" | "KEEP") => saveChannelSettings(t.db, { markupPercent, outOfStock }, staff.id);

async function watch(name: string, options: { stock?: number; price?: string } = {}) {
  const row = await makeProduct(t.db, { name, price: options.price ?? "850.00", stock: options.stock ?? 1, manufacturer: omega, category, caliber: "AUTOMATIC", state: "USED", gender: "MENS", itemType: "WRISTWATCH" });
  await t.db.update(productDescription).set({ condition: "Light scratches" }).where(eq(productDescription.productId, row.id));
  await storage.put(productImageKey(row.id), Buffer.from("RIFF....WEBP"), "image/webp");
  return row;
}

async function listed(name: string, options: { stock?: number; price?: string } = {}) {
  const row = await watch(name, options);
  const outcome = await publishOffers(t.db, port, [row.id], actor(), pictures);
  expect(outcome.results[0]).toMatchObject({ ok: true });
  return { ...row, sku: productSku(row.id), listingId: outcome.results[0]!.listingId! };
}

const offerOf = async (productId: number) => (await t.db.select().from(marketplaceOffer).where(eq(marketplaceOffer.productId, productId)))[0]!;
const sandboxOfferOf = async (productId: number) => (await t.db.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, productSku(productId))))[0]!;
const logOf = (productId: number) =>
  t.db.select().from(logbook).where(and(eq(logbook.entityType, "MARKETPLACE_OFFER"), eq(logbook.entityId, String(productId)))).orderBy(asc(logbook.id));
const pushesWaitingFor = async (productId: number) =>
  (await rawRows<{ count: number }>(t.db, sql`select count(*)::int as count from pgboss.job where name = ${quantityPushJob.name} and state = 'created' and data->>'productId' = ${String(productId)}`))[0]!.count;
/** Sets the product's stock through the ledger (a correction by the difference), as staff do. */
async function setStock(productId: number, target: number) {
  const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId));
  const quantity = target - row!.stock;
  await correctInventory(t.db, { productId, quantity, reason: quantity > 0 ? "OTHER" : "DAMAGED", comment: quantity > 0 ? "Found in the workshop" : "" }, staff.id);
}
const push = (productId: number, target: MarketplacePort = port) => pushQuantity(t.db, target, productId, undefined, pictures);

/** The product form's values for a saved product, with some changed: what staff send when they save it. */
function formOf(saved: AdminProduct, changes: { price?: string; ebayPrice?: string }) {
  return productFormInput.parse({
    name: saved.name,
    price: changes.price ?? saved.price.toFixed(2),
    ebayPrice: changes.ebayPrice ?? saved.ebayPrice?.toFixed(2) ?? "",
    shippingFee: "",
    isBulk: saved.isBulk,
    categoryId: saved.categoryId,
    manufacturerId: saved.manufacturerId,
    countryId: null,
    wsStatus: saved.wsStatus,
    ebayStatus: saved.ebayStatus,
    caliber: saved.caliber,
    state: saved.state,
    itemType: saved.itemType,
    gender: saved.gender,
    condition: saved.condition ?? "Light scratches",
  });
}

describe("the eBay price", () => {
  it("publishes at the list price with the markup, revises the listing when staff fix an eBay price, and pushes and bulk-updates it", async () => {
    await settings("10", "KEEP");
    const seamaster = await listed("Omega Seamaster 300", { stock: 2, price: "850.00" });
    // 850.00 × 1.10
    expect((await sandboxOfferOf(seamaster.id)).price.toFixed(2)).toBe("935.00");
    expect((await offerOf(seamaster.id)).pushedPrice!.toFixed(2)).toBe("935.00");

    // Staff fix the eBay price in the product form: the save queues the push, which revises the live listing.
    const before = await sandboxOfferOf(seamaster.id);
    await updateProduct(t.db, seamaster.id, formOf(await getAdminProduct(t.db, seamaster.id), { ebayPrice: "899.00" }), staff.id);
    expect(await pushesWaitingFor(seamaster.id)).toBe(1);
    expect(await push(seamaster.id)).toMatchObject({ result: "pushed", quantity: 2 });
    const revised = await sandboxOfferOf(seamaster.id);
    expect(revised.price.toFixed(2)).toBe("899.00");
    expect(revised.revisionsToday).toBe(before.revisionsToday + 1);
    expect(await offerOf(seamaster.id)).toMatchObject({ pushedQuantity: 2, revisionsToday: 1 });
    expect((await offerOf(seamaster.id)).pushedPrice!.toFixed(2)).toBe("899.00");
    // Nothing changed since: nothing is sent.
    expect(await push(seamaster.id)).toMatchObject({ result: "unchanged" });

    // A new list price moves nothing on eBay while the eBay price is fixed; once it is cleared the markup applies again.
    await updateProduct(t.db, seamaster.id, formOf(await getAdminProduct(t.db, seamaster.id), { price: "900.00", ebayPrice: "" }), staff.id);
    await push(seamaster.id);
    expect((await sandboxOfferOf(seamaster.id)).price.toFixed(2)).toBe("990.00");

    // The bulk update carries the eBay price too: the markup changes, and bulk_update_price_quantity sends it.
    await settings("12.5", "KEEP");
    const batch = (await batchOf(t.db, undefined)).filter((offer) => offer.productId === seamaster.id);
    expect(batch[0]!.price.toFixed(2)).toBe("1012.50");
    expect(await sendPriceQuantity(port, batch, { price: true, quantity: true, description: false })).toEqual([{ productId: seamaster.id, ok: true, error: null, revisions: 1 }]);
    expect((await sandboxOfferOf(seamaster.id)).price.toFixed(2)).toBe("1012.50");
    await settings("0", "KEEP");
  });
});

describe("the eBay settings", () => {
  it("start a bulk price update when the markup changes; a second change while it runs is saved and says so", async () => {
    await listed("Omega De Ville", { stock: 1 });
    const first = await saveEbaySettings(t.db, { markupPercent: "7", outOfStock: "KEEP" }, staff.id);
    expect(first).toMatchObject({ markupChanged: true, bulkRunStarted: true });
    const [run] = await t.db.select().from(marketplaceBulkRun).where(eq(marketplaceBulkRun.status, "RUNNING"));
    expect(run!.fields).toEqual({ price: true, quantity: false, description: false });

    const second = await saveEbaySettings(t.db, { markupPercent: "8", outOfStock: "END" }, staff.id);
    expect(second).toMatchObject({ markupChanged: true, bulkRunStarted: false, message: expect.stringContaining("already running") });
    expect(await readChannelSettings(t.db)).toMatchObject({ outOfStock: "END" });
    expect((await readChannelSettings(t.db)).markupPercent.toString()).toBe("8");
    // Only the outOfStock setting changed: no bulk update is asked for.
    expect(await saveEbaySettings(t.db, { markupPercent: "8", outOfStock: "KEEP" }, staff.id)).toMatchObject({ markupChanged: false, bulkRunStarted: false });
    await t.db.update(marketplaceBulkRun).set({ status: "CANCELLED" }).where(eq(marketplaceBulkRun.id, run!.id));
    await settings("0", "KEEP");
  });
});

describe("ending at 0 and relisting", () => {
  it("ends the listing when stock reaches 0 and relists it under a new listing id when stock returns, the old one in the logbook", async () => {
    await settings("0", "END");
    const speedmaster = await listed("Omega Speedmaster Professional", { stock: 1 });

    await setStock(speedmaster.id, 0);
    expect(await pushesWaitingFor(speedmaster.id)).toBe(1);
    expect(await push(speedmaster.id)).toEqual({ result: "ended" });
    expect(await offerOf(speedmaster.id)).toMatchObject({ status: "WITHDRAWN", endReason: "OUT_OF_STOCK", listingId: null, pushedQuantity: 0 });
    expect(await port.getOffer(speedmaster.sku)).toMatchObject({ status: "UNPUBLISHED", listingId: null });
    // Still meant for eBay: staff did not take it off.
    expect((await t.db.select({ status: product.ebayStatus }).from(product).where(eq(product.id, speedmaster.id)))[0]!.status).toBe("ONLINE");
    const ended = (await logOf(speedmaster.id)).at(-1)!;
    expect(ended).toMatchObject({ userId: null, previousState: expect.objectContaining({ listingId: speedmaster.listingId }), newState: expect.objectContaining({ status: "WITHDRAWN", endReason: "OUT_OF_STOCK" }) });
    expect(ended.description).toContain("stock reached 0");

    // Stock back: the ended offer gets its push, which publishes it again, under the new listing id eBay gives.
    await setStock(speedmaster.id, 2);
    expect(await pushesWaitingFor(speedmaster.id)).toBe(1);
    const relisted = await push(speedmaster.id);
    expect(relisted).toMatchObject({ result: "relisted", quantity: 2 });
    const newListing = "listingId" in relisted ? relisted.listingId : "";
    expect(newListing).not.toBe(speedmaster.listingId);
    expect(await offerOf(speedmaster.id)).toMatchObject({ status: "PUBLISHED", endReason: null, listingId: newListing, pushedQuantity: 2 });
    expect(await port.getOffer(speedmaster.sku)).toMatchObject({ status: "PUBLISHED", listingId: newListing, quantity: 2 });
    const relistEntry = (await logOf(speedmaster.id)).at(-1)!;
    expect(relistEntry.previousState).toMatchObject({ listingId: speedmaster.listingId });
    expect(relistEntry.newState).toMatchObject({ listingId: newListing });
    expect(relistEntry.description).toContain(speedmaster.listingId);
  });

  it("keeps the listing at 0 under the keep setting, as before", async () => {
    await settings("0", "KEEP");
    const dynamic = await listed("Omega Dynamic", { stock: 1 });
    await setStock(dynamic.id, 0);
    expect(await push(dynamic.id)).toMatchObject({ result: "pushed", quantity: 0 });
    expect(await offerOf(dynamic.id)).toMatchObject({ status: "PUBLISHED", listingId: dynamic.listingId, pushedQuantity: 0 });
  });

  it("publishes once when two pushes race for a product back in stock", async () => {
    await settings("0", "END");
    const genève = await listed("Omega Genève", { stock: 1 });
    await setStock(genève.id, 0);
    await push(genève.id);
    await setStock(genève.id, 1);

    let publishes = 0;
    // A slow marketplace, so that both pushes are under way at once.
    const slow: MarketplacePort = {
      ...port,
      getOffer: async (sku) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return port.getOffer(sku);
      },
      publishOffer: async (offerId) => {
        publishes += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
        return port.publishOffer(offerId);
      },
    };
    const outcomes = await Promise.all([push(genève.id, slow), push(genève.id, slow)]);
    expect(publishes).toBe(1);
    expect(outcomes.filter((outcome) => outcome.result === "relisted")).toHaveLength(1);
    const relists = (await logOf(genève.id)).filter((entry) => entry.description.includes("relisted now that it is back in stock"));
    expect(relists).toHaveLength(1);
    expect(await offerOf(genève.id)).toMatchObject({ status: "PUBLISHED", relistClaimedAt: null, listingId: (await port.getOffer(genève.sku))!.listingId });
  });
});

describe("a listing eBay had already ended", () => {
  it("is refused on withdraw as eBay refuses it, and recorded as ended instead of leaving the offer stuck", async () => {
    const constellation = await listed("Omega Constellation", { stock: 1 });
    expect(await endSandboxListing(t.db, constellation.sku)).toBe(constellation.listingId);
    // The stand-in answers as eBay: the offer still reads published, its listing ended, and a withdraw is refused.
    expect(await port.getOffer(constellation.sku)).toMatchObject({ status: "PUBLISHED", listingEnded: true });
    const refusal = await port.withdrawOffer((await offerOf(constellation.id)).offerId!).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MarketplaceError);
    expect(refusal).toMatchObject({ status: 400, details: [expect.objectContaining({ errorId: 25713 })] });

    const outcome = await withdrawOffers(t.db, port, [constellation.id], actor(), pictures);
    expect(outcome.results[0]).toMatchObject({ ok: true, message: expect.stringContaining("eBay had already ended") });
    expect(await offerOf(constellation.id)).toMatchObject({ status: "WITHDRAWN", endReason: "MARKETPLACE", listingId: null, lastError: null });
    expect((await logOf(constellation.id)).at(-1)).toMatchObject({ logLevel: "WARNING", userId: staff.id, previousState: expect.objectContaining({ listingId: constellation.listingId }) });

    // Staff can list it again, under a new listing.
    const republished = await republishOffers(t.db, port, [constellation.id], actor(), pictures);
    expect(republished.results[0]).toMatchObject({ ok: true });
    expect(republished.results[0]!.listingId).not.toBe(constellation.listingId);
  });

  it("ending at 0 a listing eBay ended when it sold out records it ended at 0, relisted when stock returns", async () => {
    await settings("0", "END");
    const railmaster = await listed("Omega Railmaster", { stock: 1 });
    await endSandboxListing(t.db, railmaster.sku, "ENDED");
    await setStock(railmaster.id, 0);
    expect(await push(railmaster.id)).toEqual({ result: "ended" });
    expect(await offerOf(railmaster.id)).toMatchObject({ status: "WITHDRAWN", endReason: "OUT_OF_STOCK", lastError: null });
    await setStock(railmaster.id, 1);
    expect(await push(railmaster.id)).toMatchObject({ result: "relisted", quantity: 1 });
    expect(await port.getOffer(railmaster.sku)).toMatchObject({ status: "PUBLISHED", listingEnded: false, quantity: 1 });
  });
});
