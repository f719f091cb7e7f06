import sharp from "sharp";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "@/server/db/raw-rows";
import { currentHoldings } from "@/server/stock/holdings";
import { product, productSelectOptions } from "@/server/db/schema";
import { addProductImages, deleteProductImage, listProductImages, reorderProductImages } from "@/server/catalog/admin-images";
import { decideRestock, listRestock, requestRestock, restockCandidates } from "@/server/stock/restock-service";
import { addPurchaseRecord, createBox, explodeBox, shipBox } from "@/server/stock/boxes";
import { productFormInput, templateFormInput, type ProductFormInput, type TemplateFormInput } from "@/server/catalog/admin-schemas";
import { createProduct, getAdminProduct, listAdminProducts, productFormChoices, updateProduct } from "@/server/catalog/admin-service";
import { createTemplate, getTemplate } from "@/server/catalog/product-templates";
import { publishProduct } from "@/server/catalog/publishing";
import { getManyProducts } from "@/server/catalog/service";
import { getManyProductsInput } from "@/server/catalog/schemas";
import { productImageKey } from "@/server/integrations/storage/port";
import { buildSearchText } from "@/server/catalog/search-text";
import { makeBrands } from "../../../tests/helpers/brands";
import { makeCategory, makeManufacturer, makeProduct, makeProducts } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { logEntriesFor, makeUser, setExchangeRate, temporaryStorage } from "../../../tests/helpers/admin-fixtures";

const t = databaseForFile();
let adminId: string;
let crowns: { id: number; name: string };
let omega: { id: number; name: string };

beforeAll(async () => {
  adminId = (await makeUser(t.db, "ADMIN")).id;
  const parts = await makeCategory(t.db, "Parts");
  crowns = await makeCategory(t.db, "Crowns", parts.id);
  ({ Omega: omega } = await makeBrands(t.db, ["Omega"]));
  await t.db.insert(productSelectOptions).values([
    { selectRow: "condition", optionText: "New old stock (NOS), never fitted" },
    { selectRow: "crown", optionText: "Signed original crown" },
  ]);
});

/** A signed Omega crown as staff describe it, in the product form and in a template alike. */
function omegaCrown() {
  return {
    price: "39.95",
    isBulk: false,
    categoryId: crowns.id,
    manufacturerId: omega.id,
    countryId: null,
    state: "NEW",
    itemType: "CROWN",
    gender: "UNISEX",
    condition: "New old stock (NOS), never fitted",
  } as const;
}

function form(overrides: Partial<ProductFormInput> = {}) {
  return productFormInput.parse({
    ...omegaCrown(),
    name: "Omega Seamaster crown 5.5 mm",
    shippingFee: "",
    wsStatus: "ONLINE",
    ebayStatus: "OFFLINE",
    caliber: "AUTOMATIC",
    crown: "Signed original crown",
    ...overrides,
  } satisfies ProductFormInput);
}

describe("products", () => {
  it("creates a product with its description, search text and a logbook entry, and the shop lists it once published", async () => {
    const { id } = await createProduct(t.db, form(), adminId);
    const saved = await getAdminProduct(t.db, id);
    expect(saved).toMatchObject({ name: "Omega Seamaster crown 5.5 mm", stock: 0, itemType: "CROWN", crown: "Signed original crown", shippingFee: null });
    expect(saved.price.toFixed(2)).toBe("39.95");
    const [row] = await t.db.select({ searchText: product.searchText }).from(product).where(eq(product.id, id));
    expect(row?.searchText).toContain("omega");
    expect(row?.searchText).toContain("crowns");
    expect(row?.searchText).toContain("signed original crown");
    expect((await logEntriesFor(t.db, "PRODUCT", id))[0]).toMatchObject({ eventType: "PRODUCT", newState: expect.objectContaining({ name: saved.name }) });
    // A draft until it is published, whatever the form's channel boxes said.
    const shopIds = async () => (await getManyProducts(t.db, getManyProductsInput.parse({ search: "seamaster" }), { imageUrl: (key) => `/storage/${key}` })).products.map((card) => card.id);
    expect(saved).toMatchObject({ publishedAt: null, wsStatus: "OFFLINE", ebayStatus: "OFFLINE" });
    expect(await shopIds()).not.toContain(id);
    await publishProduct(t.db, id, { web: true, ebay: false }, adminId);
    expect(await shopIds()).toContain(id);
  });

  it("writes the same search text as the seed: no serial number, notes or fields that do not apply", async () => {
    const values = form({ serialNumber: "Case serial 8812", additional: "Ships insured", language: "Not applicable", bezel: "Not applicable" });
    const { id } = await createProduct(t.db, values, adminId);
    const [row] = await t.db.select({ searchText: product.searchText }).from(product).where(eq(product.id, id));
    expect(row?.searchText).toBe(
      buildSearchText({ name: values.name, manufacturer: omega.name, category: crowns.name, caliber: values.caliber, itemType: values.itemType, description: values }),
    );
    expect(row?.searchText).not.toMatch(/serial|insured|not applicable/);
  });

  it("updates fields and logs only what changed, previous beside new", async () => {
    const { id } = await createProduct(t.db, form({ name: "Omega crown 6.0 mm" }), adminId);
    await publishProduct(t.db, id, { web: true, ebay: false }, adminId);
    await updateProduct(t.db, id, form({ name: "Omega crown 6.0 mm", price: "44.50", wsStatus: "OFFLINE" }), adminId);
    const entry = (await logEntriesFor(t.db, "PRODUCT", id)).at(-1);
    expect(entry?.previousState).toEqual({ price: "39.95", wsStatus: "ONLINE" });
    expect(entry?.newState).toEqual({ price: "44.50", wsStatus: "OFFLINE" });
  });

  it("refuses a form without the required fields", () => {
    expect(() => form({ name: "", condition: "" })).toThrow();
  });

  it("offers the select options grouped by field", async () => {
    const choices = await productFormChoices(t.db);
    expect(choices.selectOptions.crown).toEqual(["Signed original crown"]);
    expect(choices.categories).toEqual([{ id: crowns.id, label: "Parts › Crowns" }]);
    expect(choices.manufacturers).toEqual([{ id: omega.id, label: "Brands › Omega" }]);
  });

  it("lists the table with search, filters, sorting and pages", async () => {
    const seiko = await makeManufacturer(t.db, "Seiko");
    for (const [name, price, stock] of [["Seiko 6139 chronograph movement", "89.00", 0], ["Seiko 7S26 movement", "59.00", 2], ["Seiko 5 dial", "19.00", 7]] as const) {
      await makeProduct(t.db, { name, price, stock, manufacturer: seiko });
    }
    const list = (input: Parameters<typeof listAdminProducts>[1]) => listAdminProducts(t.db, input, (key) => `/storage/${key}`);
    const base = { sort: "price", direction: "asc", page: 1, pageSize: 25 } as const;
    expect((await list({ ...base, search: "seiko movement" })).rows.map((row) => row.name)).toEqual(["Seiko 7S26 movement", "Seiko 6139 chronograph movement"]);
    expect((await list({ ...base, search: "6139" })).rows.map((row) => row.name)).toEqual(["Seiko 6139 chronograph movement"]);
    // Sizes are searched whole, and "#id" is the product with that id alone.
    const crown = await makeProduct(t.db, { name: "Waterproof crown 4.5 mm", price: "12.00", stock: 3 });
    expect((await list({ ...base, search: "Waterproof crown 4.5" })).rows.map((row) => row.name)).toEqual(["Waterproof crown 4.5 mm"]);
    expect((await list({ ...base, search: `#${crown.id}` })).rows.map((row) => row.id)).toEqual([crown.id]);
    // Every spelling staff use: a size with a point or a Dutch comma, "#id", and a bare id, which comes first.
    const sapphire = await makeProduct(t.db, { name: "Sapphire crystal 31.5 mm, domed", price: "45.00" });
    await makeProduct(t.db, { name: "Sapphire crystal 31 mm, flat", price: "45.00" });
    expect((await list({ ...base, search: "sapphire crystal 31.5" })).rows.map((row) => row.id)).toEqual([sapphire.id]);
    expect((await list({ ...base, search: "sapphire crystal 31,5" })).rows.map((row) => row.id)).toEqual([sapphire.id]);
    expect((await list({ ...base, search: `#${sapphire.id}` })).rows.map((row) => row.id)).toEqual([sapphire.id]);
    const tube = await makeProduct(t.db, { name: "Zenith crown tube", price: "8.00" });
    const straps = await makeProducts(t.db, ["Bracelet", "Leather strap", "NATO strap"].map((name) => ({ name: `${name} ${tube.id} mm`, price: "20.00" })));
    const byId = await list({ ...base, sort: "name", search: String(tube.id) });
    expect(byId.rows.map((row) => row.id)).toEqual([tube.id, ...straps.map((row) => row.id)]);
    expect((await list({ ...base, manufacturerId: seiko.id, stock: "out" })).rows.map((row) => row.name)).toEqual(["Seiko 6139 chronograph movement"]);
    expect((await list({ ...base, manufacturerId: seiko.id, stock: "low" })).rows.map((row) => row.name)).toEqual(["Seiko 7S26 movement"]);
    const page = await list({ ...base, manufacturerId: seiko.id, sort: "stock", direction: "desc", pageSize: 25 });
    expect(page.rows.map((row) => row.stock)).toEqual([7, 2, 0]);
    expect(page).toMatchObject({ totalItems: 3, totalPages: 1 });
    expect(page.rows[0]?.image).toBe(`/storage/${productImageKey(page.rows[0]!.id)}`);
  });
});

describe("templates", () => {
  it("keeps a template's fields for starting a new product", async () => {
    // As the form sends it: what it leaves out (the caliber, the other description fields) stays open.
    const template = templateFormInput.parse({
      ...omegaCrown(),
      templateName: "Signed crown, NOS",
      templateDescription: "Fill in size",
      name: "Omega crown {size} mm",
    } satisfies TemplateFormInput);
    const { id } = await createTemplate(t.db, template, adminId);
    expect(await getTemplate(t.db, id)).toMatchObject({ templateName: "Signed crown, NOS", itemType: "CROWN", categoryId: crowns.id });
  });
});

describe("product images through the storage port", () => {
  const picture = (colour: string) =>
    sharp({ create: { width: 2400, height: 1200, channels: 3, background: colour } }).png().toBuffer();

  it("uploads as WebP at products/{id}/1.webp onwards, reorders and deletes without gaps", async () => {
    const storage = temporaryStorage();
    const item = await makeProduct(t.db, { name: "Dial" });
    const [red, green, blue] = await Promise.all([picture("#ff0000"), picture("#00ff00"), picture("#0000ff")]);
    await addProductImages(t.db, storage, item.id, [red, green], adminId);
    let images = await addProductImages(t.db, storage, item.id, [blue], adminId);
    expect(images.map((image) => image.key)).toEqual([1, 2, 3].map((n) => productImageKey(item.id, n)));
    const first = await storage.get(productImageKey(item.id, 1));
    const meta = await sharp(first!.body).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 1600, height: 800 });

    const colourOf = async (position: number) => {
      const stored = await storage.get(productImageKey(item.id, position));
      const { dominant } = await sharp(stored!.body).stats();
      return dominant.r > 200 ? "red" : dominant.g > 200 ? "green" : "blue";
    };
    images = await reorderProductImages(t.db, storage, item.id, [3, 1, 2], adminId);
    expect([await colourOf(1), await colourOf(2), await colourOf(3)]).toEqual(["blue", "red", "green"]);

    images = await deleteProductImage(t.db, storage, item.id, 1, adminId);
    expect(images.map((image) => image.position)).toEqual([1, 2]);
    expect([await colourOf(1), await colourOf(2)]).toEqual(["red", "green"]);
    expect(await storage.get(productImageKey(item.id, 3))).toBeNull();
    expect((await listProductImages(storage, item.id)).length).toBe(2);
    expect((await logEntriesFor(t.db, "PRODUCT", item.id)).map((entry) => entry.description)).toEqual([
      // The factory's stock, booked through the ledger, comes first.
      "Test stock",
      `2 pictures added to product ${item.id}`,
      `1 picture added to product ${item.id}`,
      `Pictures of product ${item.id} reordered`,
      `Picture 1 of product ${item.id} deleted`,
    ]);
  });

  it("refuses a file that is not a picture and stores nothing", async () => {
    const storage = temporaryStorage();
    const item = await makeProduct(t.db, { name: "Hands" });
    await expect(addProductImages(t.db, storage, item.id, [Buffer.from("not a picture")], adminId)).rejects.toThrow(/not a picture/);
    expect(await listProductImages(storage, item.id)).toEqual([]);
  });
});

describe("restock manager", () => {
  it("puts a sold-out product forward and moves it through its states", async () => {
    const item = await makeProduct(t.db, { name: "Bezel insert, Pepsi", stock: 0 });
    expect((await restockCandidates(t.db)).map((row) => row.productId)).toContain(item.id);
    const { id } = await requestRestock(t.db, item.id, adminId);
    await expect(requestRestock(t.db, item.id, adminId)).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await listRestock(t.db, "PENDING")).map((row) => row.productId)).toEqual([item.id]);
    await decideRestock(t.db, id, "APPROVED", adminId);
    await expect(decideRestock(t.db, id, "APPROVED", adminId)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(decideRestock(t.db, id, "PENDING", adminId)).rejects.toMatchObject({ code: "CONFLICT" });
    await decideRestock(t.db, id, "REJECTED", adminId);
    await decideRestock(t.db, id, "PENDING", adminId);
    expect((await listRestock(t.db, "PENDING")).map((row) => row.productId)).toEqual([item.id]);
    expect((await restockCandidates(t.db)).map((row) => row.productId)).not.toContain(item.id);
  });

  it("shows the pieces on their way in OPEN and SHIPPED boxes, not those already booked", async () => {
    const item = await makeProduct(t.db, { name: "Crystal 30.0 mm", stock: 0 });
    await requestRestock(t.db, item.id, adminId);
    await setExchangeRate(t.db, "60.00");
    const open = await createBox(t.db, adminId);
    await addPurchaseRecord(t.db, { boxId: open.id, productId: item.id, quantity: 3, unitCost: "2.00", currency: "EUR" }, adminId);
    const exploded = await createBox(t.db, adminId);
    await addPurchaseRecord(t.db, { boxId: exploded.id, productId: item.id, quantity: 5, unitCost: "2.00", currency: "EUR" }, adminId);
    await shipBox(t.db, { boxId: exploded.id, trackingNumber: "LX123456789PH", estimatedDeliveryDate: "2030-01-01" }, adminId);
    const shipped = await listRestock(t.db, "PENDING");
    expect(shipped.find((row) => row.productId === item.id)?.incoming).toBe(8);
    await explodeBox(t.db, exploded.id, adminId);
    expect((await listRestock(t.db, "PENDING")).find((row) => row.productId === item.id)?.incoming).toBe(3);
  });
});

describe("a product moved to another category", () => {
  it("takes what its stock holds (stock value, sell-through) to the new category, box by box, in the same change", async () => {
    const tubes = await makeCategory(t.db, "Crown tubes");
    await setExchangeRate(t.db, "60.00");
    const { id } = await createProduct(t.db, { ...form({ name: "Omega crown 6.5 mm" }), openingStock: { kind: "correction", quantity: 3, comment: "Counted" } }, adminId);
    const box = await createBox(t.db, adminId);
    await addPurchaseRecord(t.db, { boxId: box.id, productId: id, quantity: 2, unitCost: "4.50", currency: "EUR" }, adminId);
    await shipBox(t.db, { boxId: box.id, trackingNumber: "LX123456780PH", estimatedDeliveryDate: "2030-01-01" }, adminId);
    await explodeBox(t.db, box.id, adminId);
    const held = async (categoryId: number) =>
      (
        await rawRows<{ box: number; bought: number; left: number; euro: string; unknown: number }>(
          t.db,
          sql`select box_id as box, pieces_bought as bought, pieces_left as left, cost_left_euro::text as euro, unknown_cost_pieces_left as unknown
              from (${currentHoldings(["category_id", "box_id"])}) h where category_id = ${categoryId} and (box_id = 0 or box_id = ${box.id}) order by box_id`,
        )
      ).filter((row) => row.bought !== 0 || row.left !== 0);
    const crownsBefore = await held(crowns.id);
    expect(crownsBefore.find((row) => row.box === box.id)).toEqual({ box: box.id, bought: 2, left: 2, euro: "9.00", unknown: 0 });

    await updateProduct(t.db, id, form({ name: "Omega crown 6.5 mm", categoryId: tubes.id, wsStatus: "OFFLINE" }), adminId);
    expect(await held(tubes.id)).toEqual([
      { box: 0, bought: 3, left: 3, euro: "0.00", unknown: 3 },
      { box: box.id, bought: 2, left: 2, euro: "9.00", unknown: 0 },
    ]);
    const noBox = (rows: typeof crownsBefore) => rows.find((row) => row.box === 0)?.bought ?? 0;
    expect(noBox(await held(crowns.id))).toBe(noBox(crownsBefore) - 3);
    expect((await held(crowns.id)).find((row) => row.box === box.id)).toBeUndefined();
  });
});
