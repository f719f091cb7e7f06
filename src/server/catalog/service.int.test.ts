import { Decimal } from "decimal.js";
import { beforeAll, describe, expect, it } from "vitest";
import { makeBrands } from "../../../tests/helpers/brands";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { makeCategory, makeDiscount, makeProduct } from "../../../tests/helpers/factories";
import { getManyProductsInput } from "./schemas";
import { getManyProducts } from "./service";

const testDb = databaseForFile();
let seikoId: number;
let partsId: number;
const now = new Date("2026-11-22T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const list = (input: Record<string, unknown>) =>
  getManyProducts(testDb.db, getManyProductsInput.parse(input), { imageUrl: (key) => `/storage/${key}`, now });

beforeAll(async () => {
  const db = testDb.db;
  const { Omega: omega, Seiko: seiko } = await makeBrands(db, ["Omega", "Seiko"]);
  const parts = await makeCategory(db, "Parts");
  const crowns = await makeCategory(db, "Crowns", parts.id);
  seikoId = seiko.id;
  partsId = parts.id;
  const watches = await makeCategory(db, "Wristwatches");
  const tenOff = await makeDiscount(db, { value: "0.10", pricingType: "PERCENT", discountType: "PRODUCT" });
  const expired = await makeDiscount(db, { value: "5", pricingType: "FIXED", discountType: "PRODUCT", expiresAt: daysAgo(1) });

  await makeProduct(db, { name: "Omega Seamaster crown 5.5mm", price: "45.00", manufacturer: omega, category: crowns, itemType: "CROWN", createdAt: daysAgo(3), discountId: tenOff.id });
  await makeProduct(db, { name: "Seiko 5 automatic SNK809", price: "129.50", manufacturer: seiko, category: watches, itemType: "WRISTWATCH", caliber: "AUTOMATIC", gender: "MENS", createdAt: daysAgo(60) });
  await makeProduct(db, { name: "Seiko 7S26 movement", price: "79.99", stock: 0, manufacturer: seiko, category: parts, itemType: "MOVEMENT", caliber: "AUTOMATIC", createdAt: daysAgo(90), discountId: expired.id });
  await makeProduct(db, { name: "Hidden draft product", price: "10.00", manufacturer: omega, wsStatus: "OFFLINE" });
});

describe("getManyProducts", () => {
  it("lists web shop products newest first with the total count", async () => {
    const page = await list({});
    expect(page.products.map((p) => p.name)).toEqual(["Omega Seamaster crown 5.5mm", "Seiko 5 automatic SNK809", "Seiko 7S26 movement"]);
    expect(page.pagination.totalItems).toBe(3);
    expect(page.products[0]!.price).toBeInstanceOf(Decimal);
    expect(page.products[0]!.image).toBe(`/storage/products/${page.products[0]!.id}/1.webp`);
  });

  it("applies a product discount in force and marks recent products as new", async () => {
    const [crown, watch, movement] = (await list({})).products;
    expect(crown!.discount).toEqual({ value: "-10%", discountedPrice: new Decimal("40.50") });
    expect(crown!.isNew).toBe(true);
    expect(watch!.isNew).toBe(false);
    expect(movement!.discount).toBeNull();
  });

  it("filters by a manufacturer or category including everything below it", async () => {
    const seiko = await list({ search: "", manufacturerId: [seikoId] });
    expect(seiko.products.every((p) => p.manufacturer === "Seiko")).toBe(true);
    const parts = await list({ categoryId: [partsId] });
    expect(parts.products.map((p) => p.category).sort()).toEqual(["Crowns", "Parts"]);
  });

  it("filters by attributes, price and stock", async () => {
    expect((await list({ caliber: ["AUTOMATIC"], inStock: true })).products.map((p) => p.name)).toEqual(["Seiko 5 automatic SNK809"]);
    expect((await list({ priceMin: "50", priceMax: "100" })).products.map((p) => p.name)).toEqual(["Seiko 7S26 movement"]);
  });

  it("sorts by price", async () => {
    const ascending = await list({ orderBy: { price: "asc" } });
    expect(ascending.products.map((p) => p.price.toFixed(2))).toEqual(["45.00", "79.99", "129.50"]);
  });

  it("finds products by words of their name, manufacturer, category and caliber", async () => {
    expect((await list({ search: "seamaster" })).products.map((p) => p.name)).toEqual(["Omega Seamaster crown 5.5mm"]);
    expect((await list({ search: "seiko automatic" })).products.map((p) => p.name).sort()).toEqual([
      "Seiko 5 automatic SNK809",
      "Seiko 7S26 movement",
    ]);
    expect((await list({ search: "crowns" })).products.map((p) => p.name)).toEqual(["Omega Seamaster crown 5.5mm"]);
  });

  it("pages with a fixed server-side page size", async () => {
    const beyond = await list({ page: 2 });
    expect(beyond.products).toEqual([]);
    expect(beyond.pagination).toMatchObject({ page: 2, pageSize: 24, totalItems: 3, totalPages: 1 });
  });
});
