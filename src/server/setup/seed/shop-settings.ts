import "server-only";
import { Decimal } from "decimal.js";
import { configParamKeys, type ConfigParamKey } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { EBAY_ACCESS_TOKEN_PARAM } from "@/server/integrations/marketplace/token-store";
import { EXCHANGE_RATE_PARAM } from "@/server/stock/exchange-rate";
import { insertInChunks } from "@/server/db/bulk-insert";
import { DAY } from "./durations";
import { countries, DEMO_EUR_TO_PHP, discounts, regions, shippingDays, surchargeBands } from "./reference-data";

/**
 * The demo shop's settings: where it ships and at what cost (countries, regions, surcharge bands, the shipping
 * calendar), its discounts, and every setting it keeps in configParams. Answers the ids the catalogue refers to.
 */
export async function seedShopSettings(
  tx: Db,
  { now, productCount, serverUrl }: { now: Date; productCount: number; serverUrl?: string },
): Promise<{ countryIds: Map<string, number>; discountIds: Map<string, number>; countries: number }> {
  const countryIds = new Map<string, number>();
  const discountIds = new Map<string, number>();

  // Shipping settings.
  const countryRows = countries.map((c, i) => {
    countryIds.set(c.code, i + 1);
    return {
      id: i + 1, code: c.code, name: c.name, phoneCode: c.phoneCode, untrackedCost: new Decimal(c.untrackedCost), tntCost: new Decimal(c.tntCost),
      untrackedEtaDays: c.untrackedEtaDays, tntEtaDays: c.tntEtaDays, maxOrderUntracked: new Decimal(c.maxOrderUntracked), active: c.active, eu: c.eu,
    };
  });
  await insertInChunks(tx, schema.country, countryRows);
  await insertInChunks(tx, schema.region, regions.map((r) => ({
    countryId: countryIds.get(r.countryCode) ?? 0, code: r.code, name: r.name, active: r.active,
    maxOrderUntracked: r.maxOrderUntracked === null ? null : new Decimal(r.maxOrderUntracked),
  })));
  await insertInChunks(tx, schema.shippingSurcharge, surchargeBands.map((band) => ({
    minPrice: new Decimal(band.minPrice), maxPrice: new Decimal(band.maxPrice), percentage: new Decimal(band.percentage),
  })));
  const calendar = shippingDays(now, 8);
  await insertInChunks(tx, schema.shippingCalendar, calendar.map((shortDate) => ({ shortDate })));

  // Discounts.
  const inDays = (days: number | null) => (days === null ? null : new Date(now.getTime() + days * DAY));
  await insertInChunks(tx, schema.discount, discounts.map((d, i) => {
    discountIds.set(d.key, i + 1);
    return {
      id: i + 1, name: d.name, discountType: d.discountType, pricingType: d.pricingType, value: new Decimal(d.value), active: d.active,
      startsAt: inDays(d.startsInDays), expiresAt: inDays(d.expiresInDays),
    };
  }));

  // Every setting the shop keeps in configParams, as a fresh shop has it.
  const settings: Record<ConfigParamKey, string> = {
    [EXCHANGE_RATE_PARAM]: DEMO_EUR_TO_PHP,
    NAVBAR_BANNER_TEXT: `New pieces from our latest box arrive every week — see them ${(serverUrl ?? "http://localhost:3000").replace(/\/+$/, "")}/search?sort=createdAt:desc`,
    NEXT_PRODUCT_ID: String(productCount + 1),
    CALC_START_PRODUCTID: "1",
    BULK_UPDATE_EBAY_OFFERS_CURRENT_ID: "0",
    // eBay at the shop's list prices, listings kept at 0 (marketplace/channel-settings.ts).
    EBAY_PRICE_MARKUP_PERCENT: "0",
    EBAY_OUT_OF_STOCK: "KEEP",
    // Filled in by the marketplace and carrier logins once they run.
    [EBAY_ACCESS_TOKEN_PARAM]: "",
    UPS_ACCESS_TOKEN: "",
    // eBay's signing key, made on the first call that needs one, and the keys the sandbox marketplace issued.
    EBAY_SIGNING_KEY: "",
    SANDBOX_EBAY_SIGNING_KEYS: "",
  };
  await insertInChunks(tx, schema.configParams, configParamKeys.map((param) => ({ param, value: settings[param] })));

  return { countryIds, discountIds, countries: countryRows.length };
}
