import { describe, expect, it } from "vitest";
import type { RefundProposal } from "@/server/refunds/schemas";
import { cancelQuestion } from "./cancel-question";

const order = { orderNumber: "BC-2026-000042", status: "PAID_READY_TO_SHIP" as const };

/** An order paid by iDEAL: a crown, two crystals and the shipping, nothing refunded yet. */
const proposal = (overrides: Partial<RefundProposal> = {}): RefundProposal => ({
  orderNumber: order.orderNumber,
  orderStatus: order.status,
  shop: "WEBSHOP",
  paymentProvider: "IDEAL",
  monetary: true,
  paidTotal: "78.95",
  refundedTotal: "0.00",
  leftToRefund: "78.95",
  lines: [],
  shipping: { paid: "8.95", refunded: "0.00", leftToRefund: "8.95" },
  refunds: [],
  refusal: null,
  cancellation: {
    amount: "78.95",
    refunds: [
      { kind: "PRODUCT", productName: "Hamilton crown", quantity: 1, amount: "30.00" },
      { kind: "PRODUCT", productName: "Hamilton crystal", quantity: 2, amount: "40.00" },
      { kind: "SHIPPING", productName: null, quantity: null, amount: "8.95" },
    ],
  },
  ...overrides,
});

describe("what cancelling an order asks first", () => {
  it("names the amount a paid order's cancel pays back, how, and its refunds", () => {
    expect(cancelQuestion(order, proposal())).toBe(
      "Cancel order BC-2026-000042? Its items go back into stock, and €78.95 goes back to the customer through iDEAL in 3 refunds (1 × Hamilton crown €30.00, 2 × Hamilton crystal €40.00, the shipping €8.95).",
    );
  });

  it("tells staff to pay back by hand what an order paid outside a provider is owed", () => {
    const byHand = proposal({ paymentProvider: "BANKTRANSFER", monetary: false, cancellation: { amount: "150.00", refunds: [{ kind: "GOODWILL", productName: null, quantity: null, amount: "150.00" }] } });
    expect(cancelQuestion(order, byHand)).toBe(
      "Cancel order BC-2026-000042? Its items go back into stock, and €150.00 is recorded as paid back by hand (paid bank transfer): pay it back to the customer yourself.",
    );
  });

  it("says when nothing is refunded, and why", () => {
    expect(cancelQuestion({ ...order, status: "PENDING" }, undefined)).toBe("Cancel order BC-2026-000042? Its items go back into stock; it was not paid, so nothing is refunded.");
    expect(cancelQuestion(order, proposal({ cancellation: { amount: "0.00", refunds: [] } }))).toBe(
      "Cancel order BC-2026-000042? Its items go back into stock. Everything paid has been refunded already.",
    );
    const refusal = "Order BC-2026-000042 was sold on eBay but not imported from it, so eBay would not know it: refund it in eBay's Seller Hub.";
    expect(cancelQuestion(order, proposal({ refusal, cancellation: { amount: "0.00", refunds: [] } }))).toBe(`Cancel order BC-2026-000042? Its items go back into stock. Nothing is refunded here: ${refusal}`);
  });
});
