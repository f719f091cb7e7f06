import { describe, expect, it } from "vitest";
import type { RefundableLine, RefundProposal } from "@/server/refunds/schemas";
import { oversoldRefundAmount } from "./oversold-notice";

const line = (orderItemId: number, refundableQuantity: number, proposedAmounts: string[]): RefundableLine => ({
  orderItemId,
  productId: orderItemId,
  name: `Piece ${orderItemId}`,
  quantity: refundableQuantity,
  refundedQuantity: 0,
  refundableQuantity,
  paid: proposedAmounts.at(-1) ?? "0.00",
  leftToRefund: proposedAmounts.at(-1) ?? "0.00",
  proposedAmounts,
});

/** An eBay order paid through eBay: its lines, and €6.95 shipping on top. */
const proposal = (lines: RefundableLine[], leftToRefund: string): RefundProposal => ({
  orderNumber: "BC-2001",
  orderStatus: "PAID_READY_TO_SHIP",
  shop: "EBAY",
  paymentProvider: "EBAY",
  monetary: true,
  paidTotal: leftToRefund,
  refundedTotal: "0.00",
  leftToRefund,
  lines,
  shipping: { paid: "6.95", refunded: "0.00", leftToRefund: "6.95" },
  refunds: [],
  refusal: null,
  cancellation: { amount: "0.00", refunds: [] },
});

describe("the refund proposed for pieces sold twice", () => {
  it("gives everything back, shipping included, when every piece left was sold twice", () => {
    expect(oversoldRefundAmount(proposal([line(1, 1, ["450.00"])], "456.95"), 1)?.toFixed(2)).toBe("456.95");
  });

  it("takes the line's own proposal when only some of its pieces were sold twice", () => {
    expect(oversoldRefundAmount(proposal([line(1, 3, ["20.00", "40.00", "60.00"])], "66.95"), 2)?.toFixed(2)).toBe("40.00");
  });

  it("proposes no amount when several lines share the pieces sold twice", () => {
    expect(oversoldRefundAmount(proposal([line(1, 2, ["20.00", "40.00"]), line(2, 1, ["15.00"])], "61.95"), 1)).toBeNull();
  });

  it("proposes nothing once nothing is left to refund", () => {
    expect(oversoldRefundAmount(proposal([line(1, 0, [])], "0.00"), 1)).toBeNull();
  });
});
