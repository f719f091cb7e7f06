import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { splitCartDiscount } from "./service";

/** How a cart-level discount is shared over the order's lines, without a database. */

const lines = (...totals: string[]) => totals.map((total) => ({ lineTotal: new Decimal(total) }));
const split = (discount: string, ...totals: string[]) => splitCartDiscount(lines(...totals), new Decimal(discount)).map((share) => share.toFixed(2));

describe("cart discount split", () => {
  it("shares the discount in proportion to each line's total", () => {
    expect(split("8.00", "60.00", "20.00")).toEqual(["6.00", "2.00"]);
    expect(split("8.00", "80.00")).toEqual(["8.00"]);
  });

  it("rounds each share half up to the cent and gives the remainder to the last line, so the shares add up to the discount", () => {
    expect(split("10.00", "10.00", "10.00", "10.00")).toEqual(["3.33", "3.33", "3.34"]);
    expect(split("0.05", "10.00", "10.00")).toEqual(["0.03", "0.02"]); // 0.025 rounds up
    const shares = split("7.77", "19.99", "5.01", "133.33", "0.50");
    expect(shares.reduce((sum, share) => sum.plus(share), new Decimal(0)).toFixed(2)).toBe("7.77");
  });

  it("gives every line nothing when there is no discount or nothing to take it from", () => {
    expect(split("0.00", "60.00", "20.00")).toEqual(["0.00", "0.00"]);
    expect(split("5.00", "0.00", "0.00")).toEqual(["0.00", "0.00"]);
    expect(split("5.00")).toEqual([]);
  });

  it("leaves a free line out of the split", () => {
    expect(split("6.00", "0.00", "30.00", "30.00")).toEqual(["0.00", "3.00", "3.00"]);
  });
});
