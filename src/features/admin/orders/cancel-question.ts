import type { OrderStatus } from "@/lib/enums";
import { paymentMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { RefundProposal } from "@/server/refunds/schemas";

type CancellationRefund = RefundProposal["cancellation"]["refunds"][number];

/** One refund the cancel gives, as staff read it: "2 × Hamilton crystal €40.00", "the shipping €8.95". */
function refundLine(refund: CancellationRefund): string {
  const what = refund.kind === "SHIPPING" ? "the shipping" : refund.kind === "GOODWILL" ? "the rest of what was paid" : `${refund.quantity ?? 1} × ${refund.productName ?? "a product"}`;
  return `${what} ${formatEuro(refund.amount)}`;
}

/**
 * What "Cancel order" asks before it cancels (`admin.refunds.cancelOrder`): the items go back into stock and, for a
 * paid order, what goes back to the customer, how, and as which refunds, as the server's proposal has it. `proposal`
 * is undefined while it loads.
 */
export function cancelQuestion(order: { orderNumber: string; status: OrderStatus }, proposal: RefundProposal | undefined): string {
  const ask = `Cancel order ${order.orderNumber}? Its items go back into stock`;
  if (order.status === "PENDING") return `${ask}; it was not paid, so nothing is refunded.`;
  if (!proposal) return `${ask}, and all that is left to refund goes back to the customer.`;
  if (proposal.refusal) return `${ask}. Nothing is refunded here: ${proposal.refusal}`;
  const { amount, refunds } = proposal.cancellation;
  if (refunds.length === 0) return `${ask}. Everything paid has been refunded already.`;
  const method = proposal.paymentProvider ? paymentMethodLabels[proposal.paymentProvider] : "the payment";
  const how = proposal.monetary
    ? `goes back to the customer through ${method}`
    : `is recorded as paid back by hand (paid ${method.toLowerCase()}): pay it back to the customer yourself`;
  const split = refunds.length === 1 ? "" : ` in ${refunds.length} refunds (${refunds.map(refundLine).join(", ")})`;
  return `${ask}, and ${formatEuro(amount)} ${how}${split}.`;
}
