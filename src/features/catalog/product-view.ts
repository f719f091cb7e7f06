import type { Caliber, Gender, ItemType, ProductState } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { ProductCard } from "@/server/catalog/schemas";

/**
 * A product card as client components receive it: plain strings instead of Decimal and Date, since props crossing
 * from a server component to a client component must be serialisable. Amounts stay exact decimal text, and come
 * written for display as well (`priceText`), so that cards format no money in the browser (see PriceText).
 */
export type ProductCardView = {
  id: number;
  name: string;
  manufacturer: string | null;
  category: string | null;
  price: string;
  priceText: string;
  discount: { value: string; discountedPrice: string; discountedPriceText: string } | null;
  isNew: boolean;
  stock: number;
  image: string;
  caliber: Caliber | null;
  state: ProductState;
  itemType: ItemType;
  gender: Gender;
};

export function toCardView(card: ProductCard): ProductCardView {
  return {
    id: card.id,
    name: card.name,
    manufacturer: card.manufacturer,
    category: card.category,
    price: card.price.toFixed(2),
    priceText: formatEuro(card.price),
    discount: card.discount
      ? { value: card.discount.value, discountedPrice: card.discount.discountedPrice.toFixed(2), discountedPriceText: formatEuro(card.discount.discountedPrice) }
      : null,
    isNew: card.isNew ?? false,
    stock: card.stock,
    image: card.image,
    caliber: card.caliber,
    state: card.state,
    itemType: card.itemType,
    gender: card.gender,
  };
}
