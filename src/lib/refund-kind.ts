import type { RefundType } from "./enums";

/**
 * What a refund gives back, in the words staff and the customer use: some pieces of one line (PRODUCT), the shipping
 * (SHIPPING), or a goodwill amount with no line (GOODWILL). SPEC section 4 stores only two types, so a goodwill refund
 * is a PRODUCT refund without an order item. Refunds give them; the customer's order view (orders) names them.
 */
export const refundKinds = ["PRODUCT", "SHIPPING", "GOODWILL"] as const;
export type RefundKind = (typeof refundKinds)[number];

/** A refund's kind, from how it is stored. */
export function refundKindOf(refund: { type: RefundType; orderItemId: number | null }): RefundKind {
  if (refund.type === "SHIPPING") return "SHIPPING";
  return refund.orderItemId === null ? "GOODWILL" : "PRODUCT";
}

/** How a refund of this kind is stored. */
export function refundTypeOf(kind: RefundKind): RefundType {
  return kind === "SHIPPING" ? "SHIPPING" : "PRODUCT";
}
