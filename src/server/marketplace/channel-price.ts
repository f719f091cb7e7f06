import { Decimal } from "decimal.js";

/*
 * The price a product sells at on eBay: a fixed eBay price staff set on the product, or else the shop's list price
 * with the shop-wide markup (eBay's fees are higher than the web shop's payment costs). The list price is the price
 * before any discount: a sale on the web shop (a PRODUCT or GLOBAL discount) is the web shop's, and reaches eBay only
 * when staff mean it to, by setting the fixed eBay price. Pure, so that the product form and the offers table show
 * the very number that is sent (marketplace/schemas.ts hands it to the browser).
 */

/** The markup staff may set, in percent of the list price: an eBay price from half the shop's to four times it. */
export const MARKUP_PERCENT_RANGE = { min: -50, max: 300 } as const;

export type ChannelPriceSource = {
  /** The shop's list price, before any discount. */
  price: Decimal;
  /** The fixed eBay price; null for the list price with the markup. */
  ebayPrice: Decimal | null;
};

/** The eBay price of a product, to whole cents (half a cent up, as every amount in the shop). */
export function channelPrice(source: ChannelPriceSource, markupPercent: Decimal): Decimal {
  if (source.ebayPrice !== null) return source.ebayPrice.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return source.price.times(markupPercent.plus(100)).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** How the eBay price came about, for staff: "fixed" or "+12%" ("−5%", "no markup"). */
export function channelPriceBasis(source: Pick<ChannelPriceSource, "ebayPrice">, markupPercent: Decimal): string {
  if (source.ebayPrice !== null) return "fixed";
  if (markupPercent.isZero()) return "no markup";
  return `${markupPercent.isNegative() ? "−" : "+"}${markupPercent.abs().toString()}%`;
}
