import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createProductInput, productFormInput, type ProductFormInput } from "@/server/catalog/admin-schemas";
import { createProduct, getAdminProduct, updateProduct } from "@/server/catalog/admin-service";
import { publishProduct, unpublishProduct } from "@/server/catalog/publishing";
import { product } from "@/server/db/schema";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { publishOffers } from "@/server/marketplace/offers";
import { addPurchaseRecord, createBox, getBox, shipBox } from "@/server/stock/boxes";
import { stockHistory } from "@/server/stock/service";
import { makeBrands } from "../../../tests/helpers/brands";
import { logEntriesFor, makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";
import { listProducts } from "../../../tests/helpers/catalog";
import { makeCategory, makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";

/**
 * Products as staff make them (issue 28): a new product is a draft on no channel, a template's placeholders are
 * filled before it is published, and its opening stock comes in through the ledger or an open box with the product.
 */

const t = databaseForFile();
let adminId: string;
let crystals: { id: number; name: string };
let sternkreuz: { id: number; name: string };

beforeAll(async () => {
  adminId = (await makeUser(t.db, "ADMIN")).id;
  crystals = await makeCategory(t.db, "Crystals");
  ({ Sternkreuz: sternkreuz } = await makeBrands(t.db, ["Sternkreuz"]));
  await setExchangeRate(t.db, "60");
});

/** The "Sapphire crystal" template's product as staff save it with two clicks: placeholders and the form's "On the web shop". */
function fromTemplate(overrides: Partial<ProductFormInput> & Record<string, unknown> = {}) {
  return {
    name: "Sapphire crystal {size} mm",
    price: "24.95",
    shippingFee: "",
    isBulk: true,
    categoryId: crystals.id,
    manufacturerId: sternkreuz.id,
    countryId: null,
    caliber: "UNKNOWN",
    state: "NEW",
    itemType: "CRYSTAL",
    gender: "UNKNOWN",
    condition: "New, in original packaging",
    crystal: "Sapphire, flat",
    dimensions: "{size} mm diameter, 1.0 mm high",
    wsStatus: "ONLINE",
    ebayStatus: "OFFLINE",
    ...overrides,
  } as const;
}

const shopIds = async (search: string) => (await listProducts(t.db, { search })).products.map((card) => card.id);

describe("a new product", () => {
  it("is a draft on no channel, whatever the form's channel boxes say, so a template's placeholders never go live", async () => {
    const { id } = await createProduct(t.db, createProductInput.parse(fromTemplate()), adminId);
    const [row] = await t.db.select({ publishedAt: product.publishedAt, wsStatus: product.wsStatus, ebayStatus: product.ebayStatus }).from(product).where(eq(product.id, id));
    expect(row).toEqual({ publishedAt: null, wsStatus: "OFFLINE", ebayStatus: "OFFLINE" });
    expect(await shopIds("sapphire crystal")).not.toContain(id);
  });

  it("is not listed on eBay while a draft, and eBay is not asked", async () => {
    const { id } = await createProduct(t.db, createProductInput.parse(fromTemplate({ name: "Sapphire crystal 30 mm", dimensions: "30 mm" })), adminId);
    const untouched = new Proxy({} as MarketplacePort, {
      get: (_, call) => () => {
        throw new Error(`eBay was asked to ${String(call)}`);
      },
    });
    const outcome = await publishOffers(t.db, untouched, [id], { userId: adminId }, async () => ["https://shop.example/1.webp"]);
    expect(outcome.results[0]).toMatchObject({ ok: false, message: expect.stringMatching(/^A draft/) });
    expect((await getAdminProduct(t.db, id)).ebayStatus).toBe("OFFLINE");
  });

  it("keeps a draft off the channels when it is saved with a channel ticked", async () => {
    const { id } = await createProduct(t.db, createProductInput.parse(fromTemplate({ name: "Sapphire crystal 29 mm", dimensions: "29 mm" })), adminId);
    await expect(updateProduct(t.db, id, productFormInput.parse(fromTemplate({ name: "Sapphire crystal 29 mm", dimensions: "29 mm" })), adminId)).rejects.toThrow(/draft is on no channel/);
  });
});

describe("publishing", () => {
  it("is refused while a placeholder is left, naming each and its field; a draft may keep them until then", async () => {
    const { id } = await createProduct(t.db, createProductInput.parse(fromTemplate()), adminId);
    await expect(publishProduct(t.db, id, { web: true, ebay: false }, adminId)).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: "Fill in the placeholders before publishing: {size} in Name; {size} in Dimensions.",
    });
    expect((await getAdminProduct(t.db, id)).publishedAt).toBeNull();

    await updateProduct(t.db, id, productFormInput.parse(fromTemplate({ name: "Sapphire crystal 31.5 mm", dimensions: "31.5 mm diameter, 1.0 mm high", wsStatus: "OFFLINE" })), adminId);
    await publishProduct(t.db, id, { web: true, ebay: false }, adminId);
    const published = await getAdminProduct(t.db, id);
    expect(published).toMatchObject({ wsStatus: "ONLINE", ebayStatus: "OFFLINE", publishedAt: expect.any(Date) });
    expect(await shopIds("sapphire crystal 31.5")).toEqual([id]);
    expect((await logEntriesFor(t.db, "PRODUCT", id)).at(-1)).toMatchObject({
      description: `Product ${id} published on the web shop`,
      newState: expect.objectContaining({ wsStatus: "ONLINE", ebayStatus: "OFFLINE" }),
    });
  });

  it("refuses a published product's save that would put a placeholder on a channel", async () => {
    const { id } = await createProduct(t.db, createProductInput.parse(fromTemplate({ name: "Sapphire crystal 28 mm", dimensions: "28 mm" })), adminId);
    await publishProduct(t.db, id, { web: true, ebay: true }, adminId);
    await expect(updateProduct(t.db, id, productFormInput.parse(fromTemplate({ name: "Sapphire crystal {size} mm", dimensions: "28 mm" })), adminId)).rejects.toThrow(
      "Fill in the placeholders before publishing: {size} in Name.",
    );
  });

  it("unpublishing takes the product off both channels and leaves it published", async () => {
    const { id } = await createProduct(t.db, createProductInput.parse(fromTemplate({ name: "Sapphire crystal 27 mm", dimensions: "27 mm" })), adminId);
    await publishProduct(t.db, id, { web: true, ebay: true }, adminId);
    const publishedAt = (await getAdminProduct(t.db, id)).publishedAt;
    await unpublishProduct(t.db, id, adminId);
    expect(await getAdminProduct(t.db, id)).toMatchObject({ wsStatus: "OFFLINE", ebayStatus: "OFFLINE", publishedAt });
    expect(await shopIds("sapphire crystal 27")).toEqual([]);
    expect((await logEntriesFor(t.db, "PRODUCT", id)).at(-1)?.description).toBe(`Product ${id} taken off the web shop and eBay`);
  });
});

describe("opening stock", () => {
  it("is booked through the ledger as an inventory correction with its reason, with the product", async () => {
    const values = createProductInput.parse(fromTemplate({ name: "Sapphire crystal 26 mm", openingStock: { kind: "correction", quantity: 12, comment: "Opening stock: counted in the drawer" } }));
    const { id } = await createProduct(t.db, values, adminId);
    const history = await stockHistory(t.db, id);
    expect(history).toMatchObject({ stock: 12, ledgerSum: 12 });
    expect(history.rows).toEqual([
      expect.objectContaining({ type: "INVENTORY_CORRECTION", quantity: 12, correctionReason: "OTHER", correctionComment: "Opening stock: counted in the drawer" }),
    ]);
  });

  it("goes into an open box as a purchase with its cost, reaching stock when the box arrives", async () => {
    const open = await createBox(t.db, adminId);
    const values = createProductInput.parse(fromTemplate({ name: "Sapphire crystal 25 mm", openingStock: { kind: "box", boxId: open.id, quantity: 40, unitCost: "150", currency: "PHP" } }));
    const { id } = await createProduct(t.db, values, adminId);
    expect((await getAdminProduct(t.db, id)).stock).toBe(0);
    const [purchase] = (await getBox(t.db, open.id)).purchaseRecords;
    expect(purchase).toMatchObject({ productId: id, purchasedStock: 40 });
    expect(purchase?.purchaseCostEuro.toFixed(2)).toBe("2.50");
    expect((await logEntriesFor(t.db, "PURCHASE_RECORD", purchase!.id))[0]?.description).toBe(`40 × Sapphire crystal 25 mm added to box ${open.id}`);
  });

  it("into a box no longer open is refused, and the product is not made either", async () => {
    const shipped = await createBox(t.db, adminId);
    const other = await makeProduct(t.db, { name: "Mineral crystal 30 mm" });
    await addPurchaseRecord(t.db, { boxId: shipped.id, productId: other.id, quantity: 2, unitCost: "1.00", currency: "EUR" }, adminId);
    await shipBox(t.db, { boxId: shipped.id, trackingNumber: "LX123456789PH", estimatedDeliveryDate: "2026-12-20" }, adminId);
    const values = createProductInput.parse(fromTemplate({ name: "Sapphire crystal 24.5 mm", openingStock: { kind: "box", boxId: shipped.id, quantity: 4, unitCost: "3", currency: "EUR" } }));
    await expect(createProduct(t.db, values, adminId)).rejects.toThrow(/SHIPPED/);
    expect(await t.db.select().from(product).where(eq(product.name, "Sapphire crystal 24.5 mm"))).toEqual([]);
  });
});
