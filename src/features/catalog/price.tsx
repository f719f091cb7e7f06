import { formatEuro } from "@/lib/money";
import { PriceText } from "./price-text";

/** The price from its decimal text, or under a discount the new price with the old one struck through (PriceText). */
export function Price({ price, discountedPrice, className }: { price: string; discountedPrice?: string; className?: string }) {
  return <PriceText text={formatEuro(price)} discountedText={discountedPrice ? formatEuro(discountedPrice) : undefined} className={className} />;
}
