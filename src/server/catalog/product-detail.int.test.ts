import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { productCategory } from "@/server/db/schema";
import { makeCategory, makeProducts } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import type { ProductCard } from "./schemas";
import { getProductDetail, relatedPieces } from "./service";

const testDb = databaseForFile();
const now = new Date("2026-11-22T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
const imageUrl = (key: string) => `/storage/${key}`;
let crownIds: number[];
let crownSetIds: number[];
let crownsId: number;
let setsId: number;

beforeAll(async () => {
  const db = testDb.db;
  const crowns = await makeCategory(db, "Crowns");
  const sets = await makeCategory(db, "Crown sets");
  const dials = await makeCategory(db, "Dials");
  crownsId = crowns.id;
  setsId = sets.id;
  // A crown relates to crown sets: the page of a crown shows both.
  await db.update(productCategory).set({ relatedTo: sets.id }).where(eq(productCategory.id, crowns.id));
  // Crowns and crown sets alternate by age (crown 1 newest); crown 6 is sold out, so it comes after every piece in stock.
  const made = await makeProducts(db, [
    ...[1, 2, 3, 4, 5, 6].map((n) => ({ name: `Crown ${n}`, category: crowns, createdAt: daysAgo(n), stock: n === 6 ? 0 : 1 })),
    ...[1, 2, 3, 4].map((n) => ({ name: `Crown set ${n}`, category: sets, createdAt: daysAgo(n + 0.5) })),
    { name: "Dial", category: dials, createdAt: daysAgo(0.1) },
    { name: "Crown offline", category: crowns, createdAt: daysAgo(0.2), wsStatus: "OFFLINE" as const },
  ]);
  crownIds = made.slice(0, 6).map((row) => row.id);
  crownSetIds = made.slice(6, 10).map((row) => row.id);
});

const names = (cards: ProductCard[]) => cards.map((card) => card.name);

describe("the product page's read", () => {
  it("shows eight pieces of the product's category and the one it relates to, in stock first, newest first, itself left out", async () => {
    const related = (categoryIds: number[]) => relatedPieces(testDb.db, categoryIds, { imageUrl, now });
    const crown = await getProductDetail(testDb.db, crownIds[0]!, { imageUrl, imageKeys: async () => [], related, now });
    expect(names(crown.related)).toEqual(["Crown set 1", "Crown 2", "Crown set 2", "Crown 3", "Crown set 3", "Crown 4", "Crown set 4", "Crown 5"]);
    // The last in stock leaves itself out as well; the sold-out crown, ninth after every piece in stock, stays out.
    const crown5 = await getProductDetail(testDb.db, crownIds[4]!, { imageUrl, imageKeys: async () => [], related, now });
    expect(names(crown5.related)).toEqual(["Crown 1", "Crown set 1", "Crown 2", "Crown set 2", "Crown 3", "Crown set 3", "Crown 4", "Crown set 4"]);
    const set = await getProductDetail(testDb.db, crownSetIds[0]!, { imageUrl, imageKeys: async () => [], related, now });
    expect(names(set.related)).toEqual(["Crown set 2", "Crown set 3", "Crown set 4"]);
  });

  it("reads the related pieces once per pair of categories, whichever of their products is shown", async () => {
    const related = vi.fn((categoryIds: number[]) => relatedPieces(testDb.db, categoryIds, { imageUrl, now }));
    for (const id of crownIds.slice(0, 3)) await getProductDetail(testDb.db, id, { imageUrl, imageKeys: async () => [], related, now });
    expect(related.mock.calls).toEqual([[[crownsId, setsId]], [[crownsId, setsId]], [[crownsId, setsId]]]);
    // One more than a page: enough for any of them to leave itself out.
    expect(names(await relatedPieces(testDb.db, [crownsId, setsId], { imageUrl, now }))).toHaveLength(9);
  });

  it("answers the product's own card, description and pictures", async () => {
    const crown = await getProductDetail(testDb.db, crownIds[5]!, { imageUrl, imageKeys: async (id) => [`products/${id}/1.webp`, `products/${id}/2.webp`], related: async () => [], now });
    expect(crown).toMatchObject({ name: "Crown 6", stock: 0, category: "Crowns", categoryId: crownsId, related: [] });
    expect(crown.images).toEqual([`/storage/products/${crownIds[5]}/1.webp`, `/storage/products/${crownIds[5]}/2.webp`]);
    expect(Object.keys(crown.description)).toContain("condition");
  });
});
