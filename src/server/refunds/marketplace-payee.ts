import "server-only";
import type { Decimal } from "decimal.js";
import type { RefundReason } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { MarketplaceError, type MarketplacePort, type MarketplaceRefund, type MarketplaceRefundRequest } from "@/server/integrations/marketplace/port";
import { PaymentProviderError, type PaymentsPort, type ProviderRefund } from "@/server/integrations/payments/port";

/**
 * Whoever pays a refund out: the payment provider that took the money, or the marketplace the order was sold on. A
 * payee that takes no idempotency key (eBay) has `findRefund` instead: a request sent once is never sent again on its
 * own, since a second one would pay twice; a repeat asks the payee for the refund the first one made.
 */
export type RefundPayee = { provider: PaymentsPort["provider"] | "ebay" } & Pick<PaymentsPort, "refundPayment" | "getRefund"> & {
  /** The refund this request made, when the payee lists one that none of `knownRefundIds` is; null when it lists none. */
  findRefund?: (knownRefundIds: readonly string[]) => Promise<ProviderRefund | null>;
};

/** The shop's refund reasons in eBay's words: a piece sold twice is OTHER, with the comment saying why. */
const marketplaceReasons: Record<RefundReason, MarketplaceRefundRequest["reason"]> = {
  LOST_IN_TRANSIT: "ITEM_NOT_RECEIVED",
  DAMAGED: "BUYER_RETURN",
  WRONG_ITEM: "SELLER_WRONG_ITEM",
  WRONG_ADDRESS: "OTHER",
  OTHER: "OTHER",
};

function toProviderRefund(answer: MarketplaceRefund, amount: Decimal): ProviderRefund {
  const status = answer.status === "REFUNDED" ? "refunded" : answer.status === "FAILED" ? "failed" : "pending";
  return { externalRefundId: answer.refundId, status, amount, providerFees: null, failureReason: null };
}

/**
 * A refund of a marketplace order, paid out by the marketplace: the whole amount for the order, or for one line when
 * the refund is for pieces. eBay has no idempotency key on refunds, so a request that got no clear answer is not
 * sent again: `findRefund` looks for the refund it made among the order's refunds on eBay, by its amount and line.
 */
export function marketplaceRefundPayee(
  port: MarketplacePort,
  refund: { marketplaceOrderId: string; lineItemId: string | null; amount: Decimal; reason: RefundReason; comment: string | null },
): RefundPayee {
  const { marketplaceOrderId, lineItemId, amount } = refund;
  return {
    provider: "ebay",
    async refundPayment(input) {
      try {
        const answer = await port.refundOrder({
          orderId: marketplaceOrderId,
          amount,
          reason: marketplaceReasons[refund.reason],
          comment: refund.comment ?? input.description ?? null,
          lines: lineItemId ? [{ lineItemId, amount }] : null,
        });
        return toProviderRefund(answer, amount);
      } catch (error) {
        // No answer, eBay's own trouble or its rate limit: the refund may have been made all the same.
        if (error instanceof MarketplaceError && error.retryable) {
          throw new PaymentProviderError("ebay", error.status, `eBay gave no clear answer (${errorMessage(error)})`, undefined, { cause: error });
        }
        throw error;
      }
    },
    async getRefund(_externalPaymentId, externalRefundId) {
      const found = (await port.getRefunds(marketplaceOrderId)).find((entry) => entry.refundId === externalRefundId);
      if (!found) throw new MarketplaceError("getOrder", 404, [], `eBay knows no refund ${externalRefundId} on order ${marketplaceOrderId}.`);
      return toProviderRefund(found, amount);
    },
    async findRefund(knownRefundIds) {
      const listed = await port.getRefunds(marketplaceOrderId);
      const made = listed.find((entry) => entry.lineItemId === lineItemId && entry.amount.equals(amount) && !knownRefundIds.includes(entry.refundId));
      return made ? toProviderRefund(made, amount) : null;
    },
  };
}
