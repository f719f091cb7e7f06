import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { PaymentStatus, ProviderPayment, ProviderRefund, RefundStatus } from "./port";
import { fromProviderAmount, orderIdFromMetadata, PaymentProviderError } from "./port";

/*
 * PayPal's documents as its REST API sends them (orders, refunds, tokens, webhook events, errors), checked with zod,
 * and their reshaping into the port's terms: the provider's shapes stop here (`paypal.ts` makes the calls).
 */

const money = z.object({ currency_code: z.string(), value: z.string() });

export const orderResponse = z.object({
  id: z.string(),
  status: z.string(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).optional(),
  purchase_units: z
    .array(
      z.object({
        custom_id: z.string().optional(),
        amount: money.optional(),
        payments: z.object({ captures: z.array(z.object({ id: z.string(), status: z.string(), amount: money.optional() })).optional() }).optional(),
      }),
    )
    .optional(),
});
export type PayPalOrder = z.infer<typeof orderResponse>;

export const refundResponse = z.object({
  id: z.string(),
  status: z.string(),
  amount: money.optional(),
  /** Why a refund is PENDING or FAILED (PayPal documents ECHECK). */
  status_details: z.object({ reason: z.string().optional() }).optional(),
  /** What the refund did to our balance: `paypal_fee` is the part of PayPal's fee it gave back with the refund. */
  seller_payable_breakdown: z.object({ paypal_fee: money.optional() }).optional(),
});
export type PayPalRefund = z.infer<typeof refundResponse>;
// PENDING (and any status PayPal adds later) stays pending for the shop.
const refundStatuses = new Map<string, RefundStatus>([
  ["COMPLETED", "refunded"],
  ["FAILED", "failed"],
  ["CANCELLED", "canceled"],
]);
export const tokenResponse = z.object({ access_token: z.string(), expires_in: z.number() });
export const verificationResponse = z.object({ verification_status: z.string() });

export const errorResponse = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z.array(z.object({ issue: z.string().optional(), description: z.string().optional(), field: z.string().optional() })).optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** The webhook event fields we read; PayPal sends many more. */
export const payPalWebhookEvent = z.object({
  id: z.string().min(1),
  event_type: z.string(),
  resource_type: z.string().optional(),
  resource: z
    .object({
      id: z.string().optional(),
      supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }).optional() }).optional(),
    })
    .passthrough(),
});
export type PayPalWebhookEvent = z.infer<typeof payPalWebhookEvent>;

/** The PayPal order an event is about: the resource itself for order events, its related order for captures and refunds. */
export function payPalOrderIdOfEvent(event: PayPalWebhookEvent): string | null {
  if (event.resource_type === "checkout-order") return event.resource.id ?? null;
  return event.resource.supplementary_data?.related_ids?.order_id ?? null;
}

/** A refund in our terms; `requested` stands in for the amount should PayPal leave it out of its answer. */
export function reshapeRefund(refund: PayPalRefund, requested?: Decimal): ProviderRefund {
  const amount = refund.amount ? fromProviderAmount("PayPal", refund.amount.value, refund.amount.currency_code) : requested;
  if (!amount) throw new PaymentProviderError("PayPal", null, `PayPal refund ${refund.id} came without an amount`);
  const fee = refund.seller_payable_breakdown?.paypal_fee;
  const status = refundStatuses.get(refund.status) ?? "pending";
  return {
    externalRefundId: refund.id,
    status,
    amount,
    providerFees: fee ? fromProviderAmount("PayPal", fee.value, fee.currency_code) : null,
    failureReason: status === "failed" ? (refund.status_details?.reason ?? null) : null,
  };
}

export function reshapeOrder(order: PayPalOrder): ProviderPayment {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const amount = capture?.amount ?? unit?.amount;
  if (!amount) throw new PaymentProviderError("PayPal", null, `PayPal order ${order.id} came without an amount`);
  return {
    externalPaymentId: order.id,
    status: reshapeStatus(order),
    amount: fromProviderAmount("PayPal", amount.value, amount.currency_code),
    method: "PAYPAL",
    orderId: orderIdFromMetadata(unit?.custom_id),
  };
}

/**
 * PayPal's order and capture states in our vocabulary. An approved order still has to be captured (`authorized`);
 * a completed order is only paid when its capture completed, since COMPLETED alone does not guarantee money
 * (PROVIDERS.md section 2). A later refund does not undo "paid": refunds are tracked on their own.
 */
export function reshapeStatus(order: Pick<PayPalOrder, "status" | "purchase_units">): PaymentStatus {
  switch (order.status) {
    case "APPROVED":
      return "authorized";
    case "VOIDED":
      return "canceled";
    case "COMPLETED": {
      const capture = order.purchase_units?.[0]?.payments?.captures?.[0]?.status;
      if (capture === "COMPLETED" || capture === "PARTIALLY_REFUNDED" || capture === "REFUNDED") return "paid";
      if (capture === "DECLINED" || capture === "FAILED") return "failed";
      return "pending";
    }
    default:
      // CREATED, SAVED, PAYER_ACTION_REQUIRED: the buyer has not approved yet.
      return "open";
  }
}
