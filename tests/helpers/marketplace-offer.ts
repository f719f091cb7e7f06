import { Decimal } from "decimal.js";
import type { MarketplaceOfferRecord } from "@/server/integrations/marketplace/port";

/**
 * One offer both marketplace adapters' tests write, and the details eBay keeps of it (the Inventory API's offer:
 * format FIXED_PRICE, the price as two-decimal text in euro, the description's HTML as sent). The live adapter's test
 * checks that it sends these details, the sandbox's that it stores them: the sandbox stands in for eBay only while the
 * two agree.
 */
export function sampleOffer(sku: string, overrides: Partial<MarketplaceOfferRecord> = {}): MarketplaceOfferRecord {
  return {
    sku,
    marketplaceId: "EBAY_NL",
    price: new Decimal("12.5"),
    quantity: 1,
    categoryId: "31387",
    storeCategoryNames: ["/Horloges/Omega"],
    listingDescription: "<p>Omega Seamaster 300, 1967.</p><p>Loopt &amp; houdt de tijd.</p>",
    ...overrides,
  };
}

/** `sampleOffer(sku)` as eBay keeps it. */
export function sampleOfferInEbay(sku: string) {
  return {
    sku,
    marketplaceId: "EBAY_NL",
    format: "FIXED_PRICE",
    availableQuantity: 1,
    categoryId: "31387",
    storeCategoryNames: ["/Horloges/Omega"],
    listingDescription: "<p>Omega Seamaster 300, 1967.</p><p>Loopt &amp; houdt de tijd.</p>",
    pricingSummary: { price: { value: "12.50", currency: "EUR" } },
  };
}

/**
 * What eBay's wristwatch category (31387) requires of an item before it publishes it, as the sandbox marketplace
 * enforces it (sandbox-taxonomy.ts): items the tests write straight to a marketplace carry these.
 */
export const wristwatchAspects = { Brand: ["Omega"], Model: ["Seamaster"], Type: ["Wristwatch"], Department: ["Men"], Movement: ["Mechanical (Automatic)"] };
