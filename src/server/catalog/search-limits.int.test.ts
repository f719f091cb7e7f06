import { beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_PAGE_SIZE } from "@/server/catalog/schemas";
import { MATCH_COUNT_LIMIT, RANKED_MATCHES } from "@/server/catalog/service";
import { listProducts } from "../../../tests/helpers/catalog";
import { makeBrands } from "../../../tests/helpers/brands";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { makeCategory, makeProduct, makeProducts, type ProductSpec } from "../../../tests/helpers/factories";

// A search matching more products than the shop counts: the counts stop and say so, relevance ranks the latest
// matches, and paging still reaches every match once. Runs on PGlite and on PostgreSQL (TEST_DATABASE_URL).

const testDb = databaseForFile();
const ids: Record<string, number> = {};
const search = (input: Record<string, unknown>) => listProducts(testDb.db, input);

/** Broad matches: more "crystal" products than the count limit, a few of them chronographs. */
const BROAD = MATCH_COUNT_LIMIT + 130;
const CHRONOGRAPHS = 20;
const SAPPHIRES = 30;

beforeAll(async () => {
  const db = testDb.db;
  const { Seiko: seiko, Omega: omega } = await makeBrands(db, ["Seiko", "Omega"]);
  const crystals = await makeCategory(db, "Crystals");
  const watches = await makeCategory(db, "Wristwatches");
  ids.crystals = crystals.id;
  ids.seiko = seiko.id;

  // The best match for "crystal", listed first and so outside the ranked latest matches.
  ids.oldBest = (await makeProduct(db, { name: "Crystal crystal crystal for Seiko", manufacturer: seiko, category: crystals })).id;
  const broad: ProductSpec[] = Array.from({ length: BROAD }, (_, index) => ({
    name: `Domed crystal ${index}`,
    manufacturer: index % 2 === 0 ? seiko : omega,
    category: crystals,
    caliber: index < CHRONOGRAPHS ? "CHRONOGRAPH" : "AUTOMATIC",
    stock: index % 3 === 0 ? 0 : 2,
  }));
  await makeProducts(db, broad);
  await makeProducts(db, Array.from({ length: SAPPHIRES }, (_, index) => ({ name: `Sapphire glass ${index}`, manufacturer: omega, category: watches })));
  // The best match among the latest ones.
  ids.newBest = (await makeProduct(db, { name: "Crystal crystal crystal for Omega", manufacturer: omega, category: crystals })).id;
});

describe("a search matching more products than are counted", () => {
  it("stops counting at the limit and says so", async () => {
    const page = await search({ search: "crystal", facets: true });
    expect(page.pagination).toMatchObject({ totalItems: MATCH_COUNT_LIMIT, totalItemsExact: false });
    expect(page.pagination.totalPages).toBe(Math.ceil(MATCH_COUNT_LIMIT / PRODUCT_PAGE_SIZE));
    const facets = page.facets!;
    expect(facets.exact).toBe(false);
    // Lower bounds: as many as were counted, never more than there are.
    const [crystals] = facets.category;
    expect(crystals).toMatchObject({ name: "Crystals" });
    expect(crystals!.count).toBeGreaterThanOrEqual(MATCH_COUNT_LIMIT);
    expect(crystals!.count).toBeLessThanOrEqual(BROAD + 2);
    const automatic = facets.caliber.find((option) => option.value === "AUTOMATIC");
    expect(automatic!.count).toBeLessThanOrEqual(BROAD - CHRONOGRAPHS);
  });

  it("counts exactly what a narrower search or filter matches, also without facets", async () => {
    const narrow = await search({ search: "sapphire", facets: true });
    expect(narrow.pagination).toMatchObject({ totalItems: SAPPHIRES, totalItemsExact: true });
    expect(narrow.facets!.exact).toBe(true);
    expect(narrow.facets!.manufacturer[0]!.children).toEqual([expect.objectContaining({ name: "Omega", count: SAPPHIRES })]);

    const chronographs = await search({ search: "crystal", caliber: ["CHRONOGRAPH"], facets: true });
    expect(chronographs.pagination).toMatchObject({ totalItems: CHRONOGRAPHS, totalItemsExact: true });
    // The caliber options are counted over every crystal, which is more than the limit.
    expect(chronographs.facets!.exact).toBe(false);

    const withoutFacets = await search({ search: "crystal", caliber: ["CHRONOGRAPH"] });
    expect(withoutFacets.pagination).toMatchObject({ totalItems: CHRONOGRAPHS, totalItemsExact: true });
  });

  it("counts on from the page asked for, so every page knows whether another follows", async () => {
    const deep = await search({ search: "crystal", page: 30 });
    expect(deep.pagination).toMatchObject({ totalItems: BROAD + 2, totalItemsExact: true });
  });

  it("ranks the latest matches by relevance and pages on through every match exactly once", async () => {
    const first = await search({ search: "crystal", orderBy: { relevance: "desc" } });
    expect(first.products[0]!.id).toBe(ids.newBest);

    const seen: number[] = [];
    const pages = Math.ceil((BROAD + 2) / PRODUCT_PAGE_SIZE);
    for (let page = 1; page <= pages; page++) {
      seen.push(...(await search({ search: "crystal", orderBy: { relevance: "desc" }, page })).products.map((p) => p.id));
    }
    expect(seen).toHaveLength(BROAD + 2);
    expect(new Set(seen).size).toBe(BROAD + 2);
    // Listed first, the best match waits past the ranked latest matches, with the other earliest ones.
    expect(seen.indexOf(ids.oldBest!)).toBeGreaterThanOrEqual(RANKED_MATCHES);
  });

  it("reads the same pages with facets as without, whether the page comes from the matches counted or the products", async () => {
    const inputs = [
      // Counting stops early; relevance ranks the latest matches, which the counting read.
      { search: "crystal", orderBy: { relevance: "desc" } },
      // Counting stops early and the page needs every match: it is read from the products.
      { search: "crystal", orderBy: { price: "asc" } },
      // Few pass the filter: counting reads every match.
      { search: "crystal", caliber: ["CHRONOGRAPH"], orderBy: { relevance: "desc" } },
      { search: "domed", manufacturerId: [ids.seiko], inStock: true, orderBy: { name: "desc" } },
    ];
    for (const input of inputs) {
      for (const page of [1, 2, RANKED_MATCHES / PRODUCT_PAGE_SIZE, RANKED_MATCHES / PRODUCT_PAGE_SIZE + 1]) {
        const plain = await search({ ...input, page });
        const faceted = await search({ ...input, page, facets: true });
        expect(faceted.products.map((p) => p.id), JSON.stringify({ ...input, page })).toEqual(plain.products.map((p) => p.id));
      }
    }
  });
});
