import "server-only";
import { Decimal } from "decimal.js";
import { inArray } from "drizzle-orm";
import type { OutOfStockAction } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { configParams, product } from "@/server/db/schema";
import { channelPrice } from "./channel-price";
import { logMarketplaceEvent } from "./logbook";
import type { ChannelSettings, ChannelSettingsInput } from "./schemas";

/*
 * The shop-wide eBay settings staff change on /admin/ebay, kept in configParams: the markup on the list price of
 * products without a fixed eBay price, and what a listing does when stock reaches 0. A fresh shop (or one migrated
 * before these settings existed) has no rows: no markup, and listings kept at 0 as they always were.
 */

export const MARKUP_PARAM = "EBAY_PRICE_MARKUP_PERCENT";
export const OUT_OF_STOCK_PARAM = "EBAY_OUT_OF_STOCK";

export const defaultChannelSettings: ChannelSettings = { markupPercent: new Decimal(0), outOfStock: "KEEP" };

export async function readChannelSettings(db: Db): Promise<ChannelSettings> {
  const rows = await db
    .select({ param: configParams.param, value: configParams.value })
    .from(configParams)
    .where(inArray(configParams.param, [MARKUP_PARAM, OUT_OF_STOCK_PARAM]));
  const value = (param: string) => rows.find((row) => row.param === param)?.value.trim() || null;
  const markup = value(MARKUP_PARAM);
  const outOfStock = value(OUT_OF_STOCK_PARAM);
  return {
    markupPercent: markup && /^-?\d+(\.\d+)?$/.test(markup) ? new Decimal(markup) : defaultChannelSettings.markupPercent,
    outOfStock: outOfStock === "END" || outOfStock === "KEEP" ? (outOfStock satisfies OutOfStockAction) : defaultChannelSettings.outOfStock,
  };
}

/** Stores the settings with their logbook entry; answers whether the markup changed (every markup-priced listing must follow). */
export async function saveChannelSettings(db: Db, input: ChannelSettingsInput, userId: string | null): Promise<{ settings: ChannelSettings; markupChanged: boolean }> {
  return db.transaction(async (tx) => {
    const before = await readChannelSettings(tx);
    const settings: ChannelSettings = { markupPercent: new Decimal(input.markupPercent), outOfStock: input.outOfStock };
    const now = new Date();
    for (const [param, value] of [
      [MARKUP_PARAM, settings.markupPercent.toString()],
      [OUT_OF_STOCK_PARAM, settings.outOfStock],
    ] as const) {
      await tx.insert(configParams).values({ param, value }).onConflictDoUpdate({ target: configParams.param, set: { value, updatedAt: now } });
    }
    const markupChanged = !before.markupPercent.equals(settings.markupPercent);
    await logMarketplaceEvent(tx, {
      userId,
      previousState: { markupPercent: before.markupPercent.toString(), outOfStock: before.outOfStock },
      newState: { markupPercent: settings.markupPercent.toString(), outOfStock: settings.outOfStock },
      description: `eBay settings saved: markup ${settings.markupPercent.toString()} %, ${settings.outOfStock === "END" ? "listings end at 0 and are relisted when stock returns" : "listings stay at 0"}`,
    });
    return { settings, markupChanged };
  });
}

/** The eBay price of each product, by id, under the settings as stored now. */
export async function readChannelPrices(db: Db, productIds: readonly number[], settings?: ChannelSettings): Promise<Map<number, Decimal>> {
  if (productIds.length === 0) return new Map();
  const { markupPercent } = settings ?? (await readChannelSettings(db));
  const rows = await db.select({ id: product.id, price: product.price, ebayPrice: product.ebayPrice }).from(product).where(inArray(product.id, [...productIds]));
  return new Map(rows.map((row) => [row.id, channelPrice(row, markupPercent)]));
}

/** One product's eBay price; null when there is no such product. */
export async function readChannelPrice(db: Db, productId: number, settings?: ChannelSettings): Promise<Decimal | null> {
  return (await readChannelPrices(db, [productId], settings)).get(productId) ?? null;
}
