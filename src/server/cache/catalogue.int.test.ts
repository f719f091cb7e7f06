import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../tests/helpers/test-database";
import { catalogueChanged, catalogueTags, listenForCatalogueChanges } from "./catalogue";
import ShopCacheHandler from "./next-cache-handler.mjs";

/** A change reaches every listening instance when its transaction commits, and never when it rolls back. */
describe("catalogue change notifications", async () => {
  const t = await createTestDatabase();
  afterAll(() => t.dispose());

  async function heardDuring(change: () => Promise<unknown>): Promise<string[][]> {
    const heard: string[][] = [];
    const stop = await t.database.listen("catalogue_changed", { onMessage: (payload) => heard.push(payload.split(",")), onReconnect: () => undefined });
    try {
      await change();
      // Delivery is asynchronous to the committing connection.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await stop();
    }
    return heard;
  }

  it("a committed change names the listings and each product changed", async () => {
    const heard = await heardDuring(() => t.db.transaction((tx) => catalogueChanged(tx, { productIds: [7, 8, 7] })));
    expect(heard).toEqual([[catalogueTags.listings, catalogueTags.product(7), catalogueTags.product(8)]]);
  });

  it("a rolled back change is never heard", async () => {
    const heard = await heardDuring(() =>
      t.db
        .transaction(async (tx) => {
          await catalogueChanged(tx, { productIds: [7] });
          throw new Error("the sale failed");
        })
        .catch(() => undefined),
    );
    expect(heard).toEqual([]);
  });

  it("a change too large to name refreshes the whole catalogue, as do the menus and discounts on their own tags", async () => {
    const many = Array.from({ length: 500 }, (_, index) => index + 1);
    const heard = await heardDuring(async () => {
      await t.db.transaction((tx) => catalogueChanged(tx, { productIds: many }));
      await t.db.transaction((tx) => catalogueChanged(tx, { menus: true }));
      await t.db.transaction((tx) => catalogueChanged(tx, { everything: true }));
    });
    expect(heard).toEqual([[catalogueTags.all], [catalogueTags.menus], [catalogueTags.all]]);
  });

  it("the server's listener marks the tags another instance's change names", async () => {
    const stop = await listenForCatalogueChanges(t.database);
    try {
      const handler = new ShopCacheHandler({});
      await handler.get("page-a");
      await handler.set("page-a", { kind: "FETCH", data: { body: "old" }, revalidate: 60 }, { tags: [catalogueTags.product(42)] });
      expect(await handler.get("page-a")).not.toBeNull();
      // As another instance's sale commits: only the notification reaches this process.
      await t.db.execute(sql`select pg_notify('catalogue_changed', ${catalogueTags.product(42)})`);
      await expect.poll(() => handler.get("page-a"), { timeout: 2_000, interval: 20 }).toBeNull();
    } finally {
      await stop();
    }
  });
});
