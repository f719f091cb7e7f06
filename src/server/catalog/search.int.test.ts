import { beforeAll, describe, expect, it } from "vitest";
import { listProducts } from "../../../tests/helpers/catalog";
import { makeBrands } from "../../../tests/helpers/brands";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { makeCategory, makeProduct } from "../../../tests/helpers/factories";

// Runs on PGlite by default and on PostgreSQL when TEST_DATABASE_URL is set: typo tolerance lives in SQL
// (full-text, the search_term table, fuzzystrmatch), so both engines must agree.

const testDb = databaseForFile();
const ids: Record<string, number> = {};
const search = (input: Record<string, unknown>) => listProducts(testDb.db, input);
const namesFor = async (input: Record<string, unknown>) => (await search(input)).products.map((p) => p.name);
const makersFor = async (term: string) => [...new Set((await search({ search: term, orderBy: { relevance: "desc" } })).products.map((p) => p.manufacturer))];

beforeAll(async () => {
  const db = testDb.db;
  const makers = await makeBrands(db, ["Omega", "Seiko", "Longines", "Tissot", "Zenith", "Junghans", "Certina", "Heuer"]);
  for (const [name, maker] of Object.entries(makers)) ids[name] = maker.id;
  const watches = await makeCategory(db, "Wristwatches");
  const parts = await makeCategory(db, "Parts");
  const crystals = await makeCategory(db, "Crystals", parts.id);
  ids.parts = parts.id;
  ids.crystals = crystals.id;
  await makeProduct(db, { name: "Omega Seamaster 565 automatic", price: "950.00", manufacturer: makers.Omega, category: watches, caliber: "AUTOMATIC", gender: "MENS", itemType: "WRISTWATCH" });
  await makeProduct(db, { name: "Omega Constellation crystal", price: "35.00", manufacturer: makers.Omega, category: crystals, itemType: "CRYSTAL", state: "NEW", stock: 0 });
  await makeProduct(db, { name: "Seiko 6139 chronograph Pogue", price: "420.00", manufacturer: makers.Seiko, category: watches, caliber: "CHRONOGRAPH", gender: "MENS", itemType: "WRISTWATCH" });
  await makeProduct(db, { name: "Seiko 7S26 automatic movement", price: "79.00", manufacturer: makers.Seiko, category: parts, caliber: "AUTOMATIC", itemType: "MOVEMENT", state: "USED" });
  await makeProduct(db, { name: "Longines Conquest L633", price: "780.00", manufacturer: makers.Longines, category: watches, caliber: "AUTOMATIC", gender: "MENS", itemType: "WRISTWATCH" });
  await makeProduct(db, { name: "Tissot Seastar crystal", price: "24.50", manufacturer: makers.Tissot, category: crystals, itemType: "CRYSTAL", state: "NEW" });
  await makeProduct(db, { name: "Zenith El Primero 400", price: "2400.00", manufacturer: makers.Zenith, category: watches, caliber: "CHRONOGRAPH", gender: "UNISEX", itemType: "WRISTWATCH" });
  await makeProduct(db, { name: "Junghans Max Bill handwound", price: "640.00", manufacturer: makers.Junghans, category: watches, caliber: "HANDWIND", gender: "LADIES", itemType: "WRISTWATCH" });
  await makeProduct(db, { name: "Certina DS crown", price: "18.00", manufacturer: makers.Certina, category: parts, itemType: "CROWN", state: "NEW" });
  await makeProduct(db, { name: "Heuer Carrera Valjoux 72", price: "3100.00", manufacturer: makers.Heuer, category: watches, caliber: "CHRONOGRAPH", gender: "MENS", itemType: "WRISTWATCH" });
  // Words that are not plain words of letters: a reference with digits, one with a dot, a hyphenated one.
  const spares = await makeCategory(db, "Spares");
  await makeProduct(db, { name: "Valjoux72 minute counter bridge", price: "60.00", category: spares, itemType: "MOVEMENT" });
  await makeProduct(db, { name: "Lemania cal.2310 balance", price: "85.00", category: spares, itemType: "MOVEMENT" });
  await makeProduct(db, { name: "Calibre 321 service kit", price: "40.00", category: spares });
  await makeProduct(db, { name: "Gold-plated bezel", price: "30.00", category: spares });
});

describe("typo-tolerant search", () => {
  it.each([
    ["sieko", "Seiko"],
    ["omgea", "Omega"],
    ["longnies", "Longines"],
    ["tisot", "Tissot"],
    ["zenit", "Zenith"],
    ["junhgans", "Junghans"],
    ["certnia", "Certina"],
    ["hueer", "Heuer"],
  ])("finds %s as %s", async (misspelt, brand) => {
    expect(await makersFor(misspelt)).toEqual([brand]);
  });

  it("corrects one word of several and keeps the others exact", async () => {
    expect(await namesFor({ search: "omgea crystal" })).toEqual(["Omega Constellation crystal"]);
    expect(await namesFor({ search: "sieko chronograph" })).toEqual(["Seiko 6139 chronograph Pogue"]);
  });

  it("matches the start of a word while a visitor is still typing, and numbers exactly", async () => {
    expect(await makersFor("sei")).toEqual(["Seiko"]);
    expect(await namesFor({ search: "6139" })).toEqual(["Seiko 6139 chronograph Pogue"]);
    expect(await namesFor({ search: "6138" })).toEqual([]);
  });

  it("finds every catalogue word a typed start begins, with digits, dots or hyphens in it", async () => {
    expect(await namesFor({ search: "valj", orderBy: { name: "asc" } })).toEqual(["Heuer Carrera Valjoux 72", "Valjoux72 minute counter bridge"]);
    expect(await namesFor({ search: "cal", orderBy: { name: "asc" } })).toEqual(["Calibre 321 service kit", "Lemania cal.2310 balance"]);
    expect(await namesFor({ search: "gold" })).toEqual(["Gold-plated bezel"]);
    expect(await namesFor({ search: "plated bez" })).toEqual(["Gold-plated bezel"]);
  });

  it("finds nothing for words far from any in the catalogue", async () => {
    expect(await namesFor({ search: "xylophone" })).toEqual([]);
  });

  it("ranks the products matching more of the words first", async () => {
    const [first] = await namesFor({ search: "seiko automatic movement", orderBy: { relevance: "desc" } });
    expect(first).toBe("Seiko 7S26 automatic movement");
  });
});

describe("facets", () => {
  it("counts each option with the search and the other filters applied, leaving UNKNOWN out", async () => {
    const page = await search({ search: "crystal", facets: true });
    expect(page.pagination.totalItems).toBe(2);
    const facets = page.facets!;
    expect(facets.manufacturer[0]).toMatchObject({ name: "Brands", count: 2 });
    expect(facets.manufacturer[0]!.children.map((m) => [m.name, m.count])).toEqual([["Omega", 1], ["Tissot", 1]]);
    expect(facets.category.map((c) => [c.name, c.count])).toEqual([["Parts", 2]]);
    expect(facets.category[0]!.children.map((c) => [c.name, c.count])).toEqual([["Crystals", 2]]);
    expect(facets.state).toEqual([{ value: "NEW", count: 2 }]);
    expect(facets.caliber).toEqual([]);
    expect(facets.inStock).toBe(1);
    expect(facets.price!.min.toFixed(2)).toBe("24.50");
    expect(facets.price!.max.toFixed(2)).toBe("35.00");
  });

  it("keeps the other options of a ticked filter countable, so a second brand adds to the results", async () => {
    const page = await search({ manufacturerId: [ids.Seiko], caliber: ["CHRONOGRAPH"], facets: true });
    expect(page.products.map((p) => p.name)).toEqual(["Seiko 6139 chronograph Pogue"]);
    const brands = page.facets!.manufacturer[0]!.children.map((m) => [m.name, m.count]);
    expect(brands).toEqual([["Heuer", 1], ["Seiko", 1], ["Zenith", 1]]);
    expect(page.facets!.caliber).toEqual([
      { value: "CHRONOGRAPH", count: 1 },
      { value: "AUTOMATIC", count: 1 },
    ]);
    const both = await search({ manufacturerId: [ids.Seiko, ids.Heuer], caliber: ["CHRONOGRAPH"] });
    expect(both.pagination.totalItems).toBe(2);
  });

  it("filters a parent category by everything below it", async () => {
    expect((await namesFor({ categoryId: [ids.parts], orderBy: { price: "asc" } }))).toEqual([
      "Certina DS crown", "Tissot Seastar crystal", "Omega Constellation crystal", "Seiko 7S26 automatic movement",
    ]);
  });
});

// Last in the file: the facets above count the catalogue without these.
describe("sizes", () => {
  beforeAll(async () => {
    const sizes = await makeCategory(testDb.db, "Sized parts");
    await makeProduct(testDb.db, { name: "Sapphire crystal 31.5 mm, domed", price: "45.00", category: sizes, itemType: "CRYSTAL" });
    await makeProduct(testDb.db, { name: "Sapphire crystal 31 mm, flat", price: "45.00", category: sizes, itemType: "CRYSTAL" });
    await makeProduct(testDb.db, { name: "Waterproof crown 4.5 mm, steel", price: "12.00", category: sizes, itemType: "CROWN" });
  });

  it("keeps a size with a decimal point (or a decimal comma) one word, as the product's text holds it", async () => {
    expect(await namesFor({ search: "sapphire crystal 31.5" })).toEqual(["Sapphire crystal 31.5 mm, domed"]);
    expect(await namesFor({ search: "Waterproof crown 4.5" })).toEqual(["Waterproof crown 4.5 mm, steel"]);
    expect(await namesFor({ search: "31 flat" })).toEqual(["Sapphire crystal 31 mm, flat"]);
    expect(await namesFor({ search: "crown 4,5" })).toEqual(["Waterproof crown 4.5 mm, steel"]);
    expect(await namesFor({ search: "sapphire crystal 31,5" })).toEqual(["Sapphire crystal 31.5 mm, domed"]);
  });

  it("finds a product by '#id' alone, and a bare number as the word it starts", async () => {
    const strap = await makeProduct(testDb.db, { name: "Leather strap 15 mm", price: "15.00", itemType: "LEATHER_STRAP" });
    const crystal = (await search({ search: "sapphire crystal 31.5" })).products[0]!;
    expect((await search({ search: `#${crystal.id}` })).products.map((card) => card.id)).toEqual([crystal.id]);
    expect((await search({ search: `#${crystal.id}`, facets: true })).pagination.totalItems).toBe(1);
    expect(await namesFor({ search: "15" })).toEqual(["Leather strap 15 mm"]);
    expect(strap.id).toBeGreaterThan(0);
  });
});
