import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { orderTotals, storedOrderTotals } from "./totals";

const line = (totalPrice: string, totalDiscountAmount = "0") => ({ totalPrice: new Decimal(totalPrice), totalDiscountAmount: new Decimal(totalDiscountAmount) });
const shown = (totals: ReturnType<typeof orderTotals>) => Object.fromEntries(Object.entries(totals).map(([name, value]) => [name, value.toFixed(2)]));

describe("orderTotals", () => {
  it("gives the list price of the items, the discount off it, shipping without the surcharge, and what is paid", () => {
    // Two crowns listed at €40 with 10% off (€72 paid), €6.95 shipping of which €1.50 is the insurance surcharge.
    const totals = orderTotals([line("72.00", "8.00")], { shippingTotal: new Decimal("6.95"), surcharge: new Decimal("1.50") });
    expect(shown(totals)).toEqual({ items: "80.00", discount: "8.00", shipping: "5.45", surcharge: "1.50", total: "78.95" });
  });

  it("adds up every line, with and without discounts", () => {
    const totals = orderTotals([line("54.00", "6.00"), line("10.00"), line("17.33", "0.67")], { shippingTotal: new Decimal("4.50"), surcharge: new Decimal(0) });
    expect(shown(totals)).toEqual({ items: "88.00", discount: "6.67", shipping: "4.50", surcharge: "0.00", total: "85.83" });
  });

  it("is all zero for an order without lines or shipping", () => {
    const totals = orderTotals([], { shippingTotal: new Decimal(0), surcharge: new Decimal(0) });
    expect(Object.values(totals).every((value) => value.isZero())).toBe(true);
  });

  it("reads an order's totals back from its payment detail, a surcharge never recorded counting as none", () => {
    const lines = [line("72.00", "8.00")];
    expect(shown(storedOrderTotals(lines, { shippingTotal: new Decimal("6.95"), additionalShippingFees: new Decimal("1.50") }))).toEqual({ items: "80.00", discount: "8.00", shipping: "5.45", surcharge: "1.50", total: "78.95" });
    expect(shown(storedOrderTotals(lines, { shippingTotal: new Decimal("6.95"), additionalShippingFees: null }))).toEqual({ items: "80.00", discount: "8.00", shipping: "6.95", surcharge: "0.00", total: "78.95" });
  });
});
