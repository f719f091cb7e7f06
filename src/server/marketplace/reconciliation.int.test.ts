import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { product, productCategory, sandboxMarketplaceItem, sandboxMarketplaceOffer } from "@/server/db/schema";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { productImageKey } from "@/server/integrations/storage/port";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { makeCategory, makeManufacturer, makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { picturesIn, productSku } from "./offer-record";
import { publishOffers, withdrawOffers } from "./offers";
import { findQuantityMismatches } from "./reconciliation";

/** The reconciliation view on the sandbox marketplace: published offers whose quantity there differs from the stock. */

const t = databaseForFile();
const storageRoot = mkdtempSync(path.join(os.tmpdir(), "marketplace-reconciliation-test-"));
const storage = createSandboxStorage({ root: storageRoot });
const pictures = picturesIn(storage, "https://shop.example");
let port: MarketplacePort;

beforeAll(async () => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "https://shop.example" });
});

afterAll(() => rmSync(storageRoot, { recursive: true, force: true }));

const system = { userId: null };

describe("quantity reconciliation", () => {
  it("finds published offers whose marketplace quantity differs from the stock, a page at a time", async () => {
    const category = await makeCategory(t.db, "Wristwatches");
    await t.db.update(productCategory).set({ ebayMainCategory: "31387" }).where(eq(productCategory.id, category.id));
    const tissot = await makeManufacturer(t.db, "Tissot");
    const watches = [];
    for (const name of ["Tissot Visodate", "Tissot Seastar", "Tissot PR 516", "Tissot Le Locle", "Tissot Navigator"]) {
      // New pieces, with what eBay's wristwatch category requires (brand, model in the name, type, department, movement).
      const row = await makeProduct(t.db, { name, stock: 2, category, manufacturer: tissot, state: "NEW", caliber: "AUTOMATIC", gender: "MENS", itemType: "WRISTWATCH" });
      await storage.put(productImageKey(row.id), Buffer.from("RIFF....WEBP"), "image/webp");
      watches.push(row);
    }
    const [, seastar, pr516, , navigator] = watches;
    expect((await publishOffers(t.db, port, watches.map((row) => row.id), system, pictures)).succeeded).toBe(5);
    await withdrawOffers(t.db, port, [navigator!.id], system, pictures);

    // The shop sold one Seastar that never reached the marketplace; the marketplace lost its PR 516 item.
    await t.db.update(product).set({ stock: 1 }).where(eq(product.id, seastar!.id));
    await t.db.delete(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.sku, productSku(pr516!.id)));
    await t.db.delete(sandboxMarketplaceItem).where(eq(sandboxMarketplaceItem.sku, productSku(pr516!.id)));

    const first = await findQuantityMismatches(t.db, port, { afterId: 0, limit: 3 });
    expect(first).toEqual({
      checked: 3,
      mismatches: [
        { productId: seastar!.id, name: "Tissot Seastar", sku: productSku(seastar!.id), shopQuantity: 1, marketplaceQuantity: 2 },
        { productId: pr516!.id, name: "Tissot PR 516", sku: productSku(pr516!.id), shopQuantity: 2, marketplaceQuantity: null },
      ],
      nextAfterId: pr516!.id,
    });
    // The withdrawn Navigator is not asked about.
    expect(await findQuantityMismatches(t.db, port, { afterId: first.nextAfterId!, limit: 3 })).toEqual({ checked: 1, mismatches: [], nextAfterId: null });
  });
});
