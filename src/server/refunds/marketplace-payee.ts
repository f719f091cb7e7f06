import "server-only";
import type { Decimal } from "decimal.js";
import type { RefundReason } from "@/lib/enums";
import { errorMessage } from "@/lib/error-message";
import { MarketplaceError, type MarketplacePort, type MarketplaceRefund, type MarketplaceRefundRequest } from "@/server/integrations/marketplace/port";
import type { PaymentsPort, ProviderRefund } from "@/server/integrations/payments/port";

/** Whoever pays a refund out: the payment provider that took the money, or the marketplace the order was sold on. */
export type RefundPayee = { provider: PaymentsPort["provider"] | "ebay" } & Pick<PaymentsPort, "refundPayment" | "getRefund">;

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
 * the refund is for pieces. eBay has no idempotency key on refunds, so a request that got no answer is not sent again
 * on its own: it fails with words that send staff to Seller Hub first, and a retry is their call.
 */
export function marketplaceRefundPayee(
  port: MarketplacePort,
  refund: { marketplaceOrderId: string; lineItemId: string | null; amount: Decimal; reason: RefundReason; comment: string | null },
): RefundPayee {
  return {
    provider: "ebay",
    async refundPayment(input) {
      const { amount } = refund;
      try {
        const answer = await port.refundOrder({
          orderId: refund.marketplaceOrderId,
          amount,
          reason: marketplaceReasons[refund.reason],
          comment: refund.comment ?? input.description ?? null,
          lines: refund.lineItemId ? [{ lineItemId: refund.lineItemId, amount }] : null,
        });
        return toProviderRefund(answer, amount);
      } catch (error) {
        if (error instanceof MarketplaceError && error.status === null) {
          throw new MarketplaceError(error.call, null, error.details, `eBay gave no answer (${errorMessage(error)}): look in Seller Hub whether the refund was made before retrying`, { cause: error });
        }
        throw error;
      }
    },
    async getRefund(_externalPaymentId, externalRefundId) {
      return toProviderRefund(await port.getRefund(refund.marketplaceOrderId, externalRefundId), refund.amount);
    },
  };
}
