import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configParams, product } from "@/server/db/schema";
import { makeProduct } from "../../../tests/helpers/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { getBulkOfferProgress } from "./service";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(() => t?.dispose());

describe("bulk marketplace progress", () => {
  it("is absent while no bulk update runs and a percentage of the marketplace products while one does", async () => {
    await t.db.insert(configParams).values({ param: "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID", value: "0" });
    expect(await getBulkOfferProgress(t.db)).toEqual({ progress: null });
    const listed = [];
    for (let i = 0; i < 4; i++) listed.push(await makeProduct(t.db, { name: `Listed ${i}` }));
    for (const row of listed) await t.db.update(product).set({ ebayStatus: "ONLINE" }).where(eq(product.id, row.id));
    await t.db.update(configParams).set({ value: String(listed[0]!.id) }).where(eq(configParams.param, "BULK_UPDATE_EBAY_OFFERS_CURRENT_ID"));
    expect(await getBulkOfferProgress(t.db)).toEqual({
      progress: { currentPercent: "25", estimatedTimeToCompletion: null, currentCount: 1, totalCount: 4 },
    });
  });
});
