import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import type { RefundProposal } from "@/server/refunds/schemas";
import { blank, proposedFor, refundLimit, refundResolver, restockFor, type RefundFormValues } from "./refund-form-values";

vi.mock("@/components/toast", () => ({ toast: { error: vi.fn(), success: vi.fn(), warning: vi.fn() } }));

/** A shipped order of two straps at €45.00 each (one refunded before at €40.00), a crown fully refunded, €6.95 shipping. */
const proposal: RefundProposal = {
  orderNumber: "BC-1001",
  orderStatus: "SHIPPED",
  shop: "WEBSHOP",
  paymentProvider: "IDEAL",
  monetary: true,
  paidTotal: "136.95",
  refundedTotal: "80.00",
  leftToRefund: "56.95",
  lines: [
    { orderItemId: 11, productId: 1, name: "Leather strap", quantity: 2, refundedQuantity: 1, refundableQuantity: 1, paid: "90.00", leftToRefund: "50.00", proposedAmounts: ["50.00"] },
    { orderItemId: 12, productId: 2, name: "Crown", quantity: 1, refundedQuantity: 1, refundableQuantity: 0, paid: "40.00", leftToRefund: "0.00", proposedAmounts: [] },
  ],
  shipping: { paid: "6.95", refunded: "0.00", leftToRefund: "6.95" },
  refunds: [],
  refusal: null,
  cancellation: { amount: "0.00", refunds: [] },
};

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<RefundFormValues>;
const resolve = (values: Partial<RefundFormValues>, of: RefundProposal = proposal) => refundResolver(of)({ ...blank, ...values }, undefined, options);

describe("the refund form's resolver", () => {
  it("asks for what, reason and amount first (SPEC section 5), and for the pieces of a line", async () => {
    expect(Object.keys((await resolve({})).errors)).toEqual(["target", "reason", "amount"]);
    const line = await resolve({ target: "item-11", reason: "DAMAGED", amount: "10" });
    expect(Object.keys(line.errors)).toEqual(["quantity"]);
    expect(line.errors.quantity?.type).toBe("required");
  });

  it("sends the input the server parses: the line's pieces, never restocked when damaged", async () => {
    const result = await resolve({ target: "item-11", quantity: 1, restock: true, amount: "45,50", reason: "DAMAGED", comment: "  Crystal cracked  " });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ orderNumber: "BC-1001", kind: "PRODUCT", orderItemId: 11, quantity: 1, restock: false, amount: "45,50", reason: "DAMAGED", comment: "Crystal cracked" });
  });

  it("sends shipping and goodwill without a line, pieces or restock", async () => {
    const shipping = await resolve({ target: "SHIPPING", quantity: 3, restock: true, amount: "6.95", reason: "LOST_IN_TRANSIT" });
    expect(shipping.values).toEqual({ orderNumber: "BC-1001", kind: "SHIPPING", orderItemId: undefined, quantity: undefined, restock: false, amount: "6.95", reason: "LOST_IN_TRANSIT", comment: undefined });
    expect((await resolve({ target: "GOODWILL", amount: "5", reason: "OTHER" })).values).toMatchObject({ kind: "GOODWILL", amount: "5" });
  });

  it("refuses more than is left before sending: of the line, of the shipping, of the order", async () => {
    expect((await resolve({ target: "item-11", quantity: 1, amount: "50.01", reason: "OTHER" })).errors.amount?.message).toBe("At most €50.00 can be refunded");
    expect((await resolve({ target: "item-11", quantity: 1, amount: "50.00", reason: "OTHER" })).errors).toEqual({});
    expect((await resolve({ target: "SHIPPING", amount: "7", reason: "LOST_IN_TRANSIT" })).errors.amount?.message).toBe("At most €6.95 can be refunded");
    expect((await resolve({ target: "GOODWILL", amount: "60", reason: "OTHER" })).errors.amount?.message).toBe("At most €56.95 can be refunded");
  });

  it("shows the schema's own refusals at the form's fields", async () => {
    expect((await resolve({ target: "GOODWILL", amount: "0", reason: "OTHER" })).errors.amount?.message).toBe("must be more than zero");
    expect((await resolve({ target: "GOODWILL", amount: "ten", reason: "OTHER" })).errors.amount?.message).toBe("must be an amount in euros, like 49.95");
  });
});

describe("the refund form's proposals", () => {
  it("proposes what was paid for the pieces, and nothing for a count out of range", () => {
    const [strap] = proposal.lines;
    expect(proposedFor(strap!, 1)).toBe("50.00");
    expect(proposedFor(strap!, 2)).toBeNull();
    expect(proposedFor(strap!, Number.NaN)).toBeNull();
  });

  it("limits a line to what is left of it and of the order", () => {
    expect(refundLimit(proposal, "item-11")?.toFixed(2)).toBe("50.00");
    expect(refundLimit({ ...proposal, leftToRefund: "20.00" }, "item-11")?.toFixed(2)).toBe("20.00");
    expect(refundLimit(proposal, "")).toBeNull();
  });

  it("ticks 'Put back in stock' for a wrong item or address, never for damaged pieces or a cancelled order", () => {
    expect(restockFor("WRONG_ITEM", "SHIPPED")).toBe(true);
    expect(restockFor("WRONG_ADDRESS", "SHIPPED")).toBe(true);
    expect(restockFor("DAMAGED", "SHIPPED")).toBe(false);
    expect(restockFor("LOST_IN_TRANSIT", "SHIPPED")).toBe(false);
    expect(restockFor("WRONG_ITEM", "CANCELLED")).toBe(false);
    expect(restockFor("", "SHIPPED")).toBe(false);
  });
});
