import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { priceCart, type PricingProduct } from "./cart-pricing";

const percent = (value: string) => ({ value: new Decimal(value), pricingType: "PERCENT" as const });
const fixed = (value: string) => ({ value: new Decimal(value), pricingType: "FIXED" as const });

function product(id: number, price: string, lineDiscounts: PricingProduct["lineDiscounts"] = []): PricingProduct {
  return { productId: id, name: `P${id}`, price: new Decimal(price), stock: 10, image: "", lineDiscounts };
}

describe("the pricing precedence rule (docs/pricing.md)", () => {
  it("gives each piece the best single PRODUCT or GLOBAL discount, never both", () => {
    const priced = priceCart([product(1, "100.00", [percent("0.10"), fixed("15")])], new Map([[1, 2]]), []);
    expect(priced.items[0]!.unitPrice.toFixed(2)).toBe("85.00");
    expect(priced.items[0]!.discountLabel).toBe("-€15.00");
    expect(priced.subtotal.toFixed(2)).toBe("170.00");
  });

  it("applies only the better of USER and COUPON to the subtotal of sale prices", () => {
    const products = [product(1, "100.00", [percent("0.20")]), product(2, "50.00")];
    const quantities = new Map([[1, 1], [2, 2]]);
    const priced = priceCart(products, quantities, [
      { source: "USER", name: "Loyal", ...percent("0.10") },
      { source: "COUPON", name: "CROWN5", ...fixed("5") },
    ]);
    expect(priced.subtotal.toFixed(2)).toBe("180.00");
    expect(priced.discount).toMatchObject({ source: "USER", label: "-10%" });
    expect(priced.discount!.amount.toFixed(2)).toBe("18.00");
    expect(priced.total.toFixed(2)).toBe("162.00");
  });

  it("keeps the customer's own discount on a tie", () => {
    const priced = priceCart([product(1, "50.00")], new Map([[1, 1]]), [
      { source: "USER", name: "Trade", ...fixed("5") },
      { source: "COUPON", name: "CROWN5", ...fixed("5") },
    ]);
    expect(priced.discount?.source).toBe("USER");
  });

  it("never takes a fixed discount below zero", () => {
    const priced = priceCart([product(1, "3.00")], new Map([[1, 1]]), [{ source: "COUPON", name: "CROWN5", ...fixed("5") }]);
    expect(priced.discount!.amount.toFixed(2)).toBe("3.00");
    expect(priced.total.toFixed(2)).toBe("0.00");
  });
});

describe("the discounts a priced cart used", () => {
  const sale = { discountId: 7, discountType: "PRODUCT" as const, name: "Spring sale" };
  const shopWide = { discountId: 9, discountType: "GLOBAL" as const, name: "Anniversary" };

  it("adds up what each line discount took off, and names the cart discount with its amount", () => {
    const priced = priceCart(
      [product(1, "100.00", [{ ...percent("0.10"), ...sale }, { ...fixed("5"), ...shopWide }]), product(2, "20.00", [{ ...fixed("3"), ...sale }, { ...fixed("5"), ...shopWide }]), product(3, "8.00")],
      new Map([[1, 2], [2, 1], [3, 1]]),
      [{ source: "COUPON", name: "CROWN5", discountId: 11, ...fixed("5") }],
    );
    // Piece 1: 10% (−10.00) beats −5; piece 2: GLOBAL −5 beats −3; piece 3 has none.
    expect(priced.discountUses.map((use) => [use.discountId, use.discountType, use.amount.toFixed(2)])).toEqual([
      [7, "PRODUCT", "20.00"],
      [9, "GLOBAL", "5.00"],
      [11, "COUPON", "5.00"],
    ]);
    expect(priced.lineDiscountUses.get(1)?.amount.toFixed(2)).toBe("20.00");
    expect(priced.lineDiscountUses.has(3)).toBe(false);
  });

  it("lists no discount that does not name its row", () => {
    const priced = priceCart([product(1, "100.00", [percent("0.10")])], new Map([[1, 1]]), [{ source: "USER", name: "Loyal", ...percent("0.10") }]);
    expect(priced.discount).not.toBeNull();
    expect(priced.discountUses).toEqual([]);
  });
});
