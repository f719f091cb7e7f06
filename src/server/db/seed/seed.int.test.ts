import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/server/db/schema";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { createTestDatabase, type TestDatabase } from "../../../../tests/helpers/test-database";
import { seedDatabase, seedIfEmpty } from "./seed";

let t: TestDatabase;
let storageRoot: string;

beforeAll(async () => {
  t = await createTestDatabase();
  storageRoot = mkdtempSync(path.join(os.tmpdir(), "seed-storage-"));
});

afterAll(async () => {
  await t.dispose();
  rmSync(storageRoot, { recursive: true, force: true });
});

describe("demo seed", () => {
  it("seeds an empty database once, with a stock ledger that adds up and pictures in storage", async () => {
    const storage = createSandboxStorage({ root: storageRoot });
    const first = await seedIfEmpty(t.db, storage, { products: 80, images: 3 });
    expect(first?.products).toBe(80);
    expect(await seedIfEmpty(t.db, storage, { products: 80, images: 3 })).toBeNull();

    const mismatched = await t.db
      .select({ id: schema.product.id })
      .from(schema.product)
      .where(sql`${schema.product.stock} <> coalesce((select sum(${schema.stockRecord.quantity}) from ${schema.stockRecord} where ${schema.stockRecord.productId} = ${schema.product.id}), 0)`);
    expect(mismatched).toEqual([]);

    const [descriptions] = await t.db.select({ value: count() }).from(schema.productDescription);
    expect(descriptions?.value).toBe(80);
    const image = await storage.get("products/1/1.webp");
    expect(image?.contentType).toBe("image/webp");
    expect(await storage.get("products/4/1.webp")).toBeNull();
  });

  it("replaces the demo data on a reseed and keeps the demo users", async () => {
    const storage = createSandboxStorage({ root: storageRoot });
    const [before] = await t.db.select({ id: schema.user.id }).from(schema.user).where(eq(schema.user.email, "customer@example.com"));
    await seedDatabase(t.db, storage, { products: 40, images: 0 });
    const [products] = await t.db.select({ value: count() }).from(schema.product);
    expect(products?.value).toBe(40);
    const [after] = await t.db.select({ id: schema.user.id, discountId: schema.user.discountId }).from(schema.user).where(eq(schema.user.email, "customer@example.com"));
    expect(after?.id).toBe(before?.id);
    expect(after?.discountId).not.toBeNull();
    // New rows continue after the ids the seed wrote itself.
    const [created] = await t.db.insert(schema.product).values({ name: "Test crown", price: new Decimal("1.00") }).returning({ id: schema.product.id });
    expect(created?.id).toBe(41);
  });
});
