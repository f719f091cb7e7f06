import { Decimal } from "decimal.js";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bulkProductInput, type BulkProductInput } from "@/server/catalog/admin-schemas";
import { bulkChangeProducts, changedPrice } from "@/server/catalog/bulk-products";
import { product } from "@/server/db/schema";
import { createBox, getBox } from "@/server/stock/boxes";
import { logEntriesFor, makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";
import { listProducts } from "../../../tests/helpers/catalog";
import { makeCategory, makeProducts } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";

/** The product table's bulk actions: one transaction each, every product's change in the logbook, all or nothing. */

const t = databaseForFile();
let adminId: string;
let crystals: { id: number; name: string };
let crowns: { id: number; name: string };

beforeAll(async () => {
  adminId = (await makeUser(t.db, "ADMIN")).id;
  crystals = await makeCategory(t.db, "Crystals");
  crowns = await makeCategory(t.db, "Crowns");
  await setExchangeRate(t.db, "60");
});

const bulk = (input: BulkProductInput) => bulkChangeProducts(t.db, bulkProductInput.parse(input), adminId);

async function threeProducts(prices: [string, string, string], prefix: string) {
  return makeProducts(t.db, prices.map((price, index) => ({ name: `${prefix} ${index + 1}`, price, category: crystals })));
}

/** A product's own changes in the logbook, without the factory's stock booking. */
const productChanges = async (id: number) => (await logEntriesFor(t.db, "PRODUCT", id)).filter((entry) => entry.eventType === "PRODUCT");

async function pricesOf(ids: number[]) {
  const rows = await t.db.select({ id: product.id, price: product.price }).from(product).where(inArray(product.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id)!.price.toFixed(2));
}

describe("a bulk price change", () => {
  it("moves each price by a percentage or an amount, to the cent, each logged", async () => {
    const rows = await threeProducts(["10.00", "24.95", "99.99"], "Crystal price");
    const ids = rows.map((row) => row.id);
    await bulk({ action: "price", productIds: ids, change: { by: "percent", direction: "up", value: "10" } });
    expect(await pricesOf(ids)).toEqual(["11.00", "27.45", "109.99"]);
    await bulk({ action: "price", productIds: ids, change: { by: "amount", direction: "down", value: "1,50" } });
    expect(await pricesOf(ids)).toEqual(["9.50", "25.95", "108.49"]);
    for (const id of ids) {
      const entries = await productChanges(id);
      expect(entries.map((entry) => entry.newState)).toEqual([{ price: expect.any(String) }, { price: expect.any(String) }]);
    }
    expect((await productChanges(ids[0]!)).at(-1)?.description).toBe(`Product ${ids[0]} changed: price 11.00 → 9.50 (bulk −€1.50)`);
  });

  it("rounds half a cent up", () => {
    expect(changedPrice(new Decimal("0.05"), { by: "percent", direction: "up", value: "10" }).toFixed(2)).toBe("0.06");
    expect(changedPrice(new Decimal("19.99"), { by: "percent", direction: "down", value: "33.33" }).toFixed(2)).toBe("13.33");
  });

  it("refuses a price of zero or less for one product, naming it, and changes none of them", async () => {
    const rows = await threeProducts(["30.00", "5.00", "12.00"], "Crystal cheap");
    const ids = rows.map((row) => row.id);
    await expect(bulk({ action: "price", productIds: ids, change: { by: "amount", direction: "down", value: "5" } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(`#${ids[1]} Crystal cheap 2 costs €5.00: −€5.00 leaves no price above €0.00. Nothing was changed`),
    });
    expect(await pricesOf(ids)).toEqual(["30.00", "5.00", "12.00"]);
    for (const id of ids) expect(await productChanges(id)).toEqual([]);
    expect(() => bulkProductInput.parse({ action: "price", productIds: ids, change: { by: "percent", direction: "up", value: "0" } })).toThrow(/more than 0/);
  });
});

describe("bulk publishing", () => {
  it("publishes drafts on the chosen channels and takes them off again, each logged", async () => {
    // Drafts as the product form makes them: on no channel, never published.
    const rows = await makeProducts(t.db, [{ name: "Crown 5.0 mm", category: crowns }, { name: "Crown 5.5 mm", category: crowns }]);
    const ids = rows.map((row) => row.id);
    await t.db.update(product).set({ wsStatus: "OFFLINE", ebayStatus: "OFFLINE", publishedAt: null }).where(inArray(product.id, ids));

    await bulk({ action: "publish", productIds: ids, channels: { web: true, ebay: true } });
    const published = await t.db.select().from(product).where(inArray(product.id, ids));
    expect(published.map((row) => [row.wsStatus, row.ebayStatus, row.publishedAt !== null])).toEqual([["ONLINE", "ONLINE", true], ["ONLINE", "ONLINE", true]]);
    expect((await listProducts(t.db, { search: "crown 5.5" })).products.map((card) => card.id)).toEqual([ids[1]]);

    await bulk({ action: "unpublish", productIds: ids });
    const off = await t.db.select().from(product).where(inArray(product.id, ids));
    expect(off.map((row) => [row.wsStatus, row.ebayStatus, row.publishedAt !== null])).toEqual([["OFFLINE", "OFFLINE", true], ["OFFLINE", "OFFLINE", true]]);
    for (const id of ids) {
      expect((await productChanges(id)).map((entry) => entry.description)).toEqual([
        `Product ${id} published on the web shop and eBay`,
        `Product ${id} taken off the web shop and eBay`,
      ]);
    }
  });

  it("refuses the lot when one product still holds a placeholder", async () => {
    const rows = await makeProducts(t.db, [{ name: "Crown 6.0 mm", category: crowns }, { name: "Crown {size} mm", category: crowns }]);
    const ids = rows.map((row) => row.id);
    await t.db.update(product).set({ wsStatus: "OFFLINE", ebayStatus: "OFFLINE", publishedAt: null }).where(inArray(product.id, ids));
    await expect(bulk({ action: "publish", productIds: ids, channels: { web: true, ebay: false } })).rejects.toThrow(
      `#${ids[1]} Crown {size} mm: Fill in the placeholders before publishing: {size} in Name.`,
    );
    const after = await t.db.select({ publishedAt: product.publishedAt, wsStatus: product.wsStatus }).from(product).where(inArray(product.id, ids));
    expect(after).toEqual([{ publishedAt: null, wsStatus: "OFFLINE" }, { publishedAt: null, wsStatus: "OFFLINE" }]);
  });
});

describe("a bulk category change", () => {
  it("moves the products and their search text to the category, each logged", async () => {
    const rows = await threeProducts(["1.00", "2.00", "3.00"], "Glass disc");
    const ids = rows.map((row) => row.id);
    await bulk({ action: "category", productIds: ids, categoryId: crowns.id });
    const moved = await t.db.select({ categoryId: product.categoryId, searchText: product.searchText }).from(product).where(inArray(product.id, ids));
    expect(moved.every((row) => row.categoryId === crowns.id && row.searchText.includes("crowns") && !row.searchText.includes("crystals"))).toBe(true);
    expect((await productChanges(ids[2]!))[0]).toMatchObject({ previousState: { categoryId: crystals.id }, newState: { categoryId: crowns.id } });
    await expect(bulk({ action: "category", productIds: ids, categoryId: 999_999 })).rejects.toThrow("Category 999999 does not exist.");
  });
});

describe("adding to a box", () => {
  it("adds a purchase of each product to an open box with its pieces and cost per piece", async () => {
    const open = await createBox(t.db, adminId);
    const rows = await threeProducts(["5.00", "6.00", "7.00"], "Gasket");
    await bulk({ action: "box", productIds: rows.map((row) => row.id), boxId: open.id, quantity: 25, unitCost: "0.40", currency: "EUR" });
    const purchases = (await getBox(t.db, open.id)).purchaseRecords;
    expect(purchases.map((record) => [record.productId, record.purchasedStock, record.purchaseCostEuro.toFixed(2)]).sort()).toEqual(
      rows.map((row) => [row.id, 25, "0.40"]).sort(),
    );
    for (const record of purchases) expect(await logEntriesFor(t.db, "PURCHASE_RECORD", record.id)).toHaveLength(1);
    // The stock comes when the box is exploded, not now.
    const [first] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, rows[0]!.id));
    expect(first?.stock).toBe(1);
  });

  it("refuses a box that is not there and adds nothing", async () => {
    const rows = await threeProducts(["5.00", "6.00", "7.00"], "Spring bar");
    await expect(bulk({ action: "box", productIds: rows.map((row) => row.id), boxId: 999_999, quantity: 1, unitCost: "1", currency: "EUR" })).rejects.toThrow();
  });
});
