import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { refundKindOf } from "@/lib/refund-kind";
import { orderTotals } from "@/server/orders/totals";
import { refundMachine } from "./refund-machine";
import {
  attemptKey,
  cancellationRefunds,
  followUpDelayMs,
  isRefundedInFull,
  orderRefusal,
  proposedLineAmounts,
  refundChannel,
  refundLedger,
  refundRefusal,
  type RefundOrderLine,
  type RefundRecord,
  type RefundRequest,
} from "./rules";

const euro = (value: string) => new Decimal(value);
const shown = (amounts: Decimal[]) => amounts.map((amount) => amount.toFixed(2));

// Three crowns listed at €4 each with a coupon's share off (€10 paid for the line), one strap at €25 listed at €30,
// and €6.95 shipping of which €1.50 is the insurance surcharge: €41.95 paid in all.
const crowns: RefundOrderLine = { orderItemId: 1, name: "Seiko 5 crown", quantity: 3, totalPrice: euro("10.00") };
const strap: RefundOrderLine = { orderItemId: 2, name: "Leather strap", quantity: 1, totalPrice: euro("25.00") };
const totals = orderTotals(
  [
    { totalPrice: crowns.totalPrice, totalDiscountAmount: euro("2.00") },
    { totalPrice: strap.totalPrice, totalDiscountAmount: euro("5.00") },
  ],
  { shippingTotal: euro("6.95"), surcharge: euro("1.50") },
);
const order = { orderNumber: "BC-2026-000042", status: "SHIPPED" as const };

const productRefund = (orderItemId: number, quantity: number, amount: string, status: RefundRecord["status"] = "REFUNDED"): RefundRecord => ({
  type: "PRODUCT",
  orderItemId,
  quantity,
  amount: euro(amount),
  status,
});
const ledgerWith = (...refunds: RefundRecord[]) => refundLedger([crowns, strap], totals, refunds);
const lineOf = (ledger: ReturnType<typeof ledgerWith>, orderItemId: number) => ledger.lines.find((entry) => entry.line.orderItemId === orderItemId)!;
const request = (values: Omit<Partial<RefundRequest>, "amount"> & { amount: string }): RefundRequest => ({ kind: "PRODUCT", restock: false, ...values, amount: euro(values.amount) });

describe("what is left to refund", () => {
  it("starts from what was paid: the lines after their discounts, the shipping with its surcharge, the order's total", () => {
    const ledger = ledgerWith();
    expect(ledger.paid.toFixed(2)).toBe("41.95");
    expect(ledger.shipping.paid.toFixed(2)).toBe("6.95");
    expect(lineOf(ledger, 1)).toMatchObject({ leftQuantity: 3, refundedQuantity: 0 });
    expect(lineOf(ledger, 1).leftAmount.toFixed(2)).toBe("10.00");
    // The strap's list price was €30: the refund proposes what was paid, never the price before the promotion.
    expect(shown(proposedLineAmounts(ledger, lineOf(ledger, 2)))).toEqual(["25.00"]);
  });

  it("counts PENDING and REFUNDED refunds, and leaves what a FAILED one would have given back", () => {
    const ledger = ledgerWith(
      productRefund(1, 1, "3.33", "PENDING"),
      productRefund(1, 1, "3.33", "FAILED"),
      { type: "SHIPPING", orderItemId: null, quantity: null, amount: euro("6.95"), status: "REFUNDED" },
      { type: "PRODUCT", orderItemId: null, quantity: null, amount: euro("2.00"), status: "REFUNDED" },
    );
    expect(lineOf(ledger, 1)).toMatchObject({ refundedQuantity: 1, leftQuantity: 2 });
    expect(lineOf(ledger, 1).leftAmount.toFixed(2)).toBe("6.67");
    expect(ledger.shipping.left.toFixed(2)).toBe("0.00");
    expect(ledger.refunded.toFixed(2)).toBe("12.28");
    expect(ledger.left.toFixed(2)).toBe("29.67");
  });
});

describe("what was paid for the order (SECURITY-REVIEW N-L9)", () => {
  it("is the payment's amount, not the order's total as an edit left it", () => {
    // Paid €51.95; an edit since took €10 off the order (its totals say €41.95): the €10 is left to refund as well.
    const lowered = refundLedger([crowns, strap], totals, [], euro("51.95"));
    expect([lowered.paid, lowered.left].map((amount) => amount.toFixed(2))).toEqual(["51.95", "51.95"]);
    expect(refundRefusal(lowered, request({ kind: "GOODWILL", amount: "51.95" }), order)).toBeNull();
    // Totals that say more than was paid never raise what may go back.
    const raised = refundLedger([crowns, strap], totals, [], euro("31.95"));
    expect(refundRefusal(raised, request({ kind: "GOODWILL", amount: "41.95" }), order)).toEqual({
      code: "CONFLICT",
      message: "€41.95 is more than is left to refund of order BC-2026-000042: at most €31.95.",
    });
  });
});

describe("what cancelling a paid order refunds", () => {
  const shownRefunds = (ledger: ReturnType<typeof ledgerWith>) =>
    cancellationRefunds(ledger).map(({ kind, orderItemId, quantity, amount }) => [kind, orderItemId ?? null, quantity ?? null, amount.toFixed(2)]);

  it("is every line's pieces left, and the shipping: all that was paid", () => {
    expect(shownRefunds(ledgerWith())).toEqual([
      ["PRODUCT", 1, 3, "10.00"],
      ["PRODUCT", 2, 1, "25.00"],
      ["SHIPPING", null, null, "6.95"],
    ]);
  });

  it("leaves out what went back already, and gives a rest no line holds as one amount", () => {
    // One crown refunded for €8 (its pieces' share left: €2); two crowns are left.
    expect(shownRefunds(ledgerWith(productRefund(1, 1, "8.00"), productRefund(2, 1, "25.00")))).toEqual([
      ["PRODUCT", 1, 2, "2.00"],
      ["SHIPPING", null, null, "6.95"],
    ]);
    // All three crowns refunded for €9 of their €10: the euro left is no piece's, so it goes back without a line.
    expect(shownRefunds(ledgerWith(productRefund(1, 3, "9.00")))).toEqual([
      ["PRODUCT", 2, 1, "25.00"],
      ["SHIPPING", null, null, "6.95"],
      ["GOODWILL", null, null, "1.00"],
    ]);
    // What an edit took off after the order was paid (€10) is left to refund as well.
    expect(shownRefunds(refundLedger([crowns, strap], totals, [], euro("51.95"))).at(-1)).toEqual(["GOODWILL", null, null, "10.00"]);
  });

  it("never comes to more than is left of the order", () => {
    // A goodwill refund of €40 leaves €1.95, which the first line takes.
    expect(shownRefunds(ledgerWith({ type: "PRODUCT", orderItemId: null, quantity: null, amount: euro("40.00"), status: "REFUNDED" }))).toEqual([["PRODUCT", 1, 3, "1.95"]]);
    expect(shownRefunds(ledgerWith({ type: "PRODUCT", orderItemId: null, quantity: null, amount: euro("41.95"), status: "REFUNDED" }))).toEqual([]);
  });
});

describe("the proposed amount", () => {
  it("is the line's price per piece rounded half up, and the last pieces take exactly what is left", () => {
    expect(shown(proposedLineAmounts(ledgerWith(), lineOf(ledgerWith(), 1)))).toEqual(["3.33", "6.67", "10.00"]);
    const afterOne = ledgerWith(productRefund(1, 1, "3.33"));
    expect(shown(proposedLineAmounts(afterOne, lineOf(afterOne, 1)))).toEqual(["3.33", "6.67"]);
    const afterTwo = ledgerWith(productRefund(1, 1, "3.33"), productRefund(1, 1, "3.33"));
    // 3.33 + 3.33 + 3.34: the pieces add up to the line to the cent.
    expect(shown(proposedLineAmounts(afterTwo, lineOf(afterTwo, 1)))).toEqual(["3.34"]);
    const allGone = ledgerWith(productRefund(1, 3, "10.00"));
    expect(proposedLineAmounts(allGone, lineOf(allGone, 1))).toEqual([]);
  });

  it("rounds half a cent up", () => {
    const tiny: RefundOrderLine = { orderItemId: 7, name: "Spring bar", quantity: 2, totalPrice: euro("0.05") };
    const ledger = refundLedger([tiny], orderTotals([{ totalPrice: tiny.totalPrice, totalDiscountAmount: euro("0") }], { shippingTotal: euro("0"), surcharge: euro("0") }), []);
    expect(shown(proposedLineAmounts(ledger, ledger.lines[0]!))).toEqual(["0.03", "0.05"]);
  });

  it("never proposes more than is left of the line or of the order", () => {
    // One crown refunded for €8, more than its share (a refund may take up to what is left of its line): €2 is left
    // for the other two pieces.
    const generous = ledgerWith(productRefund(1, 1, "8.00"));
    expect(shown(proposedLineAmounts(generous, lineOf(generous, 1)))).toEqual(["2.00", "2.00"]);
    // A goodwill refund of €40 leaves €1.95 of the order for anything else.
    const goodwill = ledgerWith({ type: "PRODUCT", orderItemId: null, quantity: null, amount: euro("40.00"), status: "PENDING" });
    expect(shown(proposedLineAmounts(goodwill, lineOf(goodwill, 2)))).toEqual(["1.95"]);
  });
});

describe("refusing a refund that does not fit", () => {
  it("takes a line's pieces, its shipping and goodwill up to what is left", () => {
    expect(refundRefusal(ledgerWith(), request({ orderItemId: 1, quantity: 2, amount: "6.67" }), order)).toBeNull();
    expect(refundRefusal(ledgerWith(), request({ orderItemId: 1, quantity: 1, amount: "1.00", restock: true }), order)).toBeNull();
    expect(refundRefusal(ledgerWith(), request({ kind: "SHIPPING", amount: "6.95" }), order)).toBeNull();
    expect(refundRefusal(ledgerWith(), request({ kind: "GOODWILL", amount: "41.95" }), order)).toBeNull();
  });

  it("says the most that can be refunded when the amount is above it", () => {
    expect(refundRefusal(ledgerWith(), request({ orderItemId: 1, quantity: 1, amount: "10.01" }), order)).toEqual({
      code: "CONFLICT",
      message: "€10.01 is more than is left to refund of the 3 × Seiko 5 crown: at most €10.00.",
    });
    expect(refundRefusal(ledgerWith(), request({ kind: "SHIPPING", amount: "7.00" }), order)?.message).toBe(
      "€7.00 is more than is left to refund of the shipping of order BC-2026-000042: at most €6.95.",
    );
    const goodwill = ledgerWith({ type: "PRODUCT", orderItemId: null, quantity: null, amount: euro("40.00"), status: "REFUNDED" });
    expect(refundRefusal(goodwill, request({ kind: "GOODWILL", amount: "2.00" }), order)?.message).toBe("€2.00 is more than is left to refund of order BC-2026-000042: at most €1.95.");
    expect(refundRefusal(goodwill, request({ orderItemId: 2, quantity: 1, amount: "25.00" }), order)?.message).toBe(
      "€25.00 is more than is left to refund of order BC-2026-000042: at most €1.95.",
    );
  });

  it("refunds each piece once, however the refunds were split", () => {
    const afterTwo = ledgerWith(productRefund(1, 2, "6.67"));
    expect(refundRefusal(afterTwo, request({ orderItemId: 1, quantity: 2, amount: "1.00" }), order)?.message).toBe("Only 1 of the 3 × Seiko 5 crown is left to refund.");
    expect(refundRefusal(afterTwo, request({ orderItemId: 1, quantity: 1, amount: "3.33" }), order)).toBeNull();
    const allGone = ledgerWith(productRefund(1, 2, "6.67"), productRefund(1, 1, "3.33", "PENDING"));
    expect(refundRefusal(allGone, request({ orderItemId: 1, quantity: 1, amount: "0.01" }), order)).toEqual({
      code: "CONFLICT",
      message: "All of the 3 × Seiko 5 crown are refunded already.",
    });
    const shippingGone = ledgerWith({ type: "SHIPPING", orderItemId: null, quantity: null, amount: euro("6.95"), status: "PENDING" });
    expect(refundRefusal(shippingGone, request({ kind: "SHIPPING", amount: "0.01" }), order)?.message).toBe("Nothing is left to refund of the shipping of order BC-2026-000042.");
  });

  it("refuses a line the order does not have, and putting back pieces a cancellation already returned", () => {
    expect(refundRefusal(ledgerWith(), request({ orderItemId: 99, quantity: 1, amount: "1.00" }), order)?.code).toBe("NOT_FOUND");
    const cancelled = { ...order, status: "CANCELLED" as const };
    expect(refundRefusal(ledgerWith(), request({ orderItemId: 1, quantity: 1, amount: "1.00", restock: true }), cancelled)?.message).toContain("went back in stock");
    expect(refundRefusal(ledgerWith(), request({ orderItemId: 1, quantity: 1, amount: "1.00" }), cancelled)).toBeNull();
  });
});

describe("which orders can be refunded, and how the money goes back", () => {
  it("goes back through the provider that took it, by hand for orders paid without one, and through eBay for eBay's", () => {
    expect(refundChannel("WEBSHOP", { provider: "IDEAL", externalPaymentId: "tr_1" })).toBe("provider");
    expect(refundChannel("WEBSHOP", { provider: "PAYPAL", externalPaymentId: "5O190127TN364715T" })).toBe("provider");
    // A manual order marked paid by bank transfer has no payment at Mollie, although BANKTRANSFER is a Mollie method.
    expect(refundChannel("WEBSHOP", { provider: "BANKTRANSFER", externalPaymentId: null })).toBe("manual");
    expect(refundChannel("WEBSHOP", { provider: "ACCOUNT", externalPaymentId: null })).toBe("manual");
    expect(refundChannel("EBAY", { provider: "EBAY", externalPaymentId: "12-34567-89012" })).toBe("marketplace");
  });

  it("refuses unpaid orders and eBay orders eBay would not know, with the reason", () => {
    const paid = { orderNumber: "BC-2026-000042", soldAt: new Date(), channel: "provider" as const, marketplaceOrderId: null };
    expect(orderRefusal({ ...paid, status: "SHIPPED" })).toBeNull();
    expect(orderRefusal({ ...paid, status: "PENDING", soldAt: null })).toContain("not paid yet");
    expect(orderRefusal({ ...paid, status: "CANCELLED", soldAt: null })).toContain("cancelled before it was paid");
    // A paid order staff cancelled is refunded after the fact.
    expect(orderRefusal({ ...paid, status: "CANCELLED" })).toBeNull();
    expect(orderRefusal({ ...paid, status: "SHIPPED", channel: "marketplace" })).toContain("Seller Hub");
    expect(orderRefusal({ ...paid, status: "SHIPPED", channel: "marketplace", marketplaceOrderId: "12-34567-89012" })).toBeNull();
  });

  it("knows goodwill as a PRODUCT refund without a line", () => {
    expect(refundKindOf({ type: "PRODUCT", orderItemId: 3 })).toBe("PRODUCT");
    expect(refundKindOf({ type: "PRODUCT", orderItemId: null })).toBe("GOODWILL");
    expect(refundKindOf({ type: "SHIPPING", orderItemId: null })).toBe("SHIPPING");
  });

  it("is refunded in full when nothing of what was paid is left", () => {
    expect(isRefundedInFull(ledgerWith(productRefund(1, 3, "10.00"), productRefund(2, 1, "25.00")))).toBe(false);
    expect(isRefundedInFull(ledgerWith(productRefund(1, 3, "10.00"), productRefund(2, 1, "25.00"), { type: "SHIPPING", orderItemId: null, quantity: null, amount: euro("6.95"), status: "PENDING" }))).toBe(true);
  });
});

describe("attempts at the provider", () => {
  it("names each attempt with a key of its own; a repeat of one attempt reuses it", () => {
    expect(attemptKey(12)).toBe("refund-12-1");
    expect(attemptKey(12, "refund-12-1")).toBe("refund-12-2");
    expect(attemptKey(12, "refund-12-9")).toBe("refund-12-10");
    // Refunds recorded before refunds went through the shop carry `refund-<id>` (migration 0012).
    expect(attemptKey(12, "refund-12")).toBe("refund-12-2");
  });

  it("asks about a refund the provider has not paid out further apart each time, up to twelve hours", () => {
    expect([1, 2, 3, 7, 8, 48].map((check) => followUpDelayMs(check) / 60_000)).toEqual([10, 20, 40, 640, 720, 720]);
  });

  it("moves a refund from PENDING to REFUNDED or FAILED, and a FAILED one back to PENDING only", () => {
    expect(refundMachine.can("PENDING", "REFUNDED")).toBe(true);
    expect(refundMachine.can("FAILED", "PENDING")).toBe(true);
    expect(() => refundMachine.assert(5, "REFUNDED", "PENDING")).toThrow("Refund 5 is REFUNDED and cannot become PENDING");
    expect(refundMachine.can("FAILED", "REFUNDED")).toBe(false);
  });
});
