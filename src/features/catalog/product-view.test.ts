import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import type { ProductCard } from "@/server/catalog/schemas";
import { toCardView } from "./product-view";

const card: ProductCard = {
  id: 7,
  manufacturer: "Omega",
  name: "Speedmaster crown",
  price: new Decimal("1234.5"),
  category: "Crowns",
  caliber: "HANDWIND",
  state: "USED",
  itemType: "CROWN",
  gender: "MENS",
  discount: { value: "-15%", discountedPrice: new Decimal("1049.33") },
  isNew: false,
  createdAt: new Date("2024-01-01T00:00:00Z"),
  stock: 2,
  image: "/storage/products/7/1.webp",
};

describe("toCardView: what a card shows, written on the server", () => {
  it("keeps amounts as exact decimal text for the cart and writes them in euro for display", () => {
    const view = toCardView(card);
    expect(view.price).toBe("1234.50");
    expect(view.priceText).toBe("€1,234.50");
    expect(view.discount).toEqual({ value: "-15%", discountedPrice: "1049.33", discountedPriceText: "€1,049.33" });
    expect(toCardView({ ...card, discount: null }).discount).toBeNull();
  });
});
