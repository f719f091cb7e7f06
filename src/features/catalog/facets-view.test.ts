import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import type { ProductFacets } from "@/server/catalog/schemas";
import { toFacetsView } from "./facets-view";

describe("toFacetsView: the filters' counts and price bounds as the shop writes them", () => {
  const facets: ProductFacets = {
    category: [{ id: 1, name: "Parts", count: 1000, children: [{ id: 2, name: "Crowns", count: 12, children: [] }] }],
    manufacturer: [],
    caliber: [{ value: "HANDWIND", count: 1500 }],
    state: [],
    gender: [],
    itemType: [],
    price: { min: new Decimal("24.5"), max: new Decimal("35") },
    inStock: 1000,
    exact: false,
  };

  it("writes every count, nested ones too, with '+' when counting stopped", () => {
    const view = toFacetsView(facets);
    expect(view.category[0]).toMatchObject({ id: 1, count: 1000, countText: "1,000+" });
    expect(view.category[0]?.children[0]).toMatchObject({ name: "Crowns", countText: "12+" });
    expect(view.caliber).toEqual([{ value: "HANDWIND", count: 1500, countText: "1,500+" }]);
    expect(view.inStockText).toBe("1,000+");
    expect(toFacetsView({ ...facets, exact: true }).inStockText).toBe("1,000");
  });

  it("writes the price bounds in euro, and none when nothing has a price", () => {
    expect(toFacetsView(facets).price).toEqual({ min: "€24.50", max: "€35.00" });
    expect(toFacetsView({ ...facets, price: null }).price).toBeNull();
  });
});
