import { describe, expect, it } from "vitest";
import { purchaseRecordInput } from "@/server/stock/schemas";
import { bulkProductInput, openingStockInput } from "./admin-schemas";

/** The purchase of a box, however staff book it: the box page, a new product's opening stock, the bulk bar. */
describe("a purchase booked from the product screens", () => {
  const line = { quantity: 10_001, unitCost: "1.234", currency: "EUR" as const };
  const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path.at(-1)), issue.message]));

  it("is held to the box page's bounds and amounts, with its words", () => {
    const onBoxPage = messages(purchaseRecordInput.safeParse({ ...line, boxId: 1, productId: 1 }));
    expect(onBoxPage).toMatchObject({ quantity: expect.stringContaining("10,000"), unitCost: expect.stringContaining("thousands separator") });
    expect(messages(openingStockInput.safeParse({ ...line, kind: "box", boxId: 1 }))).toEqual(onBoxPage);
    expect(messages(bulkProductInput.safeParse({ ...line, action: "box", productIds: [1, 2], boxId: 1 }))).toEqual(onBoxPage);
  });

  it("takes what the box page takes", () => {
    expect(openingStockInput.safeParse({ kind: "box", boxId: 1, quantity: 10_000, unitCost: "2,50", currency: "PHP" }).success).toBe(true);
    expect(bulkProductInput.safeParse({ action: "box", productIds: [1], boxId: 1, quantity: 1, unitCost: "2.50", currency: "EUR" }).success).toBe(true);
  });
});
