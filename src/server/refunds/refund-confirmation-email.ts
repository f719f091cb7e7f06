import type { PaymentProvider, RefundReason } from "@/lib/enums";
import { paymentMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { OrderView } from "@/server/orders/schemas";
import { emailButton, emailHeading, emailLineRow, escapeHtml, mailColours, mailTextStyle, renderOrderEmail } from "@/server/integrations/mail/layout";
import type { MailMessage } from "@/server/integrations/mail/port";
import type { RefundView } from "./schemas";

/** What the refund e-mail says about one refund. */
export type RefundForEmail = Pick<RefundView, "id" | "kind" | "productName" | "quantity" | "amount" | "reason" | "monetary" | "status">;

/** Why the money comes back, in the customer's words; OTHER says nothing, as staff agreed it with the customer. */
const reasonTexts: Record<RefundReason, string | null> = {
  LOST_IN_TRANSIT: "Your parcel was lost on its way to you, and we are sorry it never reached you.",
  DAMAGED: "It reached you damaged, and we are sorry for that.",
  WRONG_ITEM: "We sent you the wrong item, and we are sorry for the mix-up.",
  WRONG_ADDRESS: "It went to the wrong address, and we are sorry for the trouble.",
  OTHER: null,
};

/** What came back: "1 × Seiko 5 crown", "Shipping costs", "A goodwill amount". */
function refundedThing(refund: RefundForEmail): string {
  if (refund.kind === "SHIPPING") return "Shipping costs";
  if (refund.kind === "GOODWILL") return "A goodwill amount";
  return `${refund.quantity ?? 1} × ${refund.productName ?? "item"}`;
}

/** How the money reaches the customer: back the way they paid online, or settled by us for an order paid otherwise. */
function howItComesBack(refund: RefundForEmail, paymentMethod: PaymentProvider): string {
  const method = paymentMethodLabels[paymentMethod];
  if (!refund.monetary) {
    const paid = paymentMethod === "ACCOUNT" ? "on account" : `by ${method.toLowerCase()}`;
    return `As this order was paid ${paid}, we settle the refund with you directly.`;
  }
  return refund.status === "REFUNDED"
    ? `It has gone back to you through ${method}; depending on your bank or card it can take a few working days to show on your statement.`
    : `It is on its way back to you through ${method}; depending on your bank or card it can take a few working days to show on your statement.`;
}

/**
 * The refund e-mail: what was refunded of which order, how much, why in plain words and how the money comes back,
 * with a link to the order page. Branded HTML and the same content as plain text. One per refund
 * (`refund-confirmation/<refund id>` names it for the mail service).
 */
export function renderRefundConfirmationEmail(order: OrderView, refund: RefundForEmail, orderUrl: string, shopName: string): MailMessage {
  const amount = formatEuro(refund.amount);
  const thing = refundedThing(refund);
  const reason = reasonTexts[refund.reason];
  const how = howItComesBack(refund, order.paymentMethod);
  const earlier = order.refundedTotal !== refund.amount ? `In all we have refunded ${formatEuro(order.refundedTotal)} of this order.` : null;

  const text = [
    `We have refunded ${amount} for your order ${order.orderNumber}.`,
    "",
    `${thing}: ${amount}`,
    ...(reason ? ["", reason] : []),
    "",
    how,
    ...(earlier ? ["", earlier] : []),
  ];

  const cell = mailTextStyle;
  return renderOrderEmail(order, {
    kind: "refund-confirmation",
    key: refund.id,
    subject: `A refund of ${amount} for your order ${order.orderNumber}`,
    preheader: `${amount} refunded for order ${order.orderNumber}: ${thing}.`,
    body: `${emailHeading("Your refund")}
      <p style="${cell}margin:0 0 24px;">We have refunded <strong>${escapeHtml(amount)}</strong> for order <strong>${escapeHtml(order.orderNumber)}</strong>.${reason ? ` ${escapeHtml(reason)}` : ""}</p>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 24px;border-top:1px solid ${mailColours.rule};">${emailLineRow(thing, amount)}</table>
      <p style="${cell}margin:0 0 16px;">${escapeHtml(how)}</p>
      ${earlier ? `<p style="${cell}margin:0 0 24px;color:${mailColours.muted};">${escapeHtml(earlier)}</p>` : ""}
      ${emailButton(orderUrl, "See your order")}`,
    text,
    orderUrl,
    shopName,
  });
}
