import { describe, expect, it } from "vitest";
import { purchaseRecordInput } from "./schemas";

const purchase = { boxId: 1, productId: 2, quantity: 3, unitCost: "12.50", currency: "EUR" };
const messages = (change: object) => purchaseRecordInput.safeParse({ ...purchase, ...change }).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

// Issue 28: the box purchase form answered these with "Please fill out all required fields", naming no field, and
// took 100,000 pieces.
describe("a purchase for a box", () => {
  it.each([
    ["no pieces", { quantity: 0 }, "quantity: At least one piece"],
    ["pieces that are no number", { quantity: Number.NaN }, "quantity: Enter the number of pieces"],
    ["half a piece", { quantity: 1.5 }, "quantity: Whole pieces only"],
    ["more pieces than one purchase holds", { quantity: 10_001 }, "quantity: At most 10,000 pieces in one purchase: split a larger lot into several purchases"],
    ["a cost that is no amount", { unitCost: "abc" }, "unitCost: Enter an amount like 12.50"],
    ["a cost with a thousands separator, or three decimals", { unitCost: "1.234" }, "unitCost: Write the amount without a thousands separator: 1234 or 1.23"],
    ["a cost with a Dutch thousands separator and cents", { unitCost: "1.234,50" }, "unitCost: Enter an amount like 12.50"],
  ])("refuses %s on its field", (_case, change, message) => {
    expect(messages(change)).toEqual([message]);
  });

  it("takes 10,000 pieces and a cost with a decimal comma", () => {
    expect(purchaseRecordInput.parse({ ...purchase, quantity: 10_000, unitCost: "1234,5" })).toMatchObject({ quantity: 10_000, unitCost: "1234.5" });
  });
});
