import { formatShippingDay, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { emailButton, emailHeading, emailItemRow, escapeHtml, mailColours, mailTextStyle, renderOrderEmail, shippingToHtml, shippingToText } from "@/server/integrations/mail/layout";
import type { MailMessage } from "@/server/integrations/mail/port";
import type { OrderView } from "./schemas";

const formatDay = (day: string | null): string | null => (day ? formatShippingDay(day) : null);

/**
 * The order confirmation e-mail: the items, the totals, where it goes and how, as branded HTML (table layout and
 * inline styles, which mail clients render alike) and the same content as plain text.
 */
export function renderOrderConfirmationEmail(order: OrderView, confirmationUrl: string, shopName: string): MailMessage {
  const { totals } = order;
  const method = shippingMethodLabels[order.shipping.method];
  const delivery = formatDay(order.shipping.estimatedDeliveryDate);
  const shipDay = formatDay(order.shipping.estimatedShippingDate);
  // A counter sale was paid and taken along in the shop: nothing ships and nothing follows.
  const collected = order.shipping.method === "COLLECTED";
  const totalLines: [string, string][] = [
    ["Items", formatEuro(totals.items)],
    ...(totals.discount.isZero() ? [] : ([["Discount", `−${formatEuro(totals.discount)}`]] as [string, string][])),
    ...(collected ? [] : ([[`Shipping: ${method}`, formatEuro(totals.shipping)]] as [string, string][])),
    ...(totals.surcharge.isZero() ? [] : ([["Insurance surcharge", formatEuro(totals.surcharge)]] as [string, string][])),
  ];
  const text = [
    `Thank you for your order ${order.orderNumber}`,
    "",
    ...order.items.map((item) => `${item.quantity} × ${item.name}: ${formatEuro(item.paid)}`),
    "",
    ...totalLines.map(([label, value]) => `${label}: ${value}`),
    `Total paid: ${formatEuro(totals.total)}`,
    "",
    ...(collected ? [`Bought by ${order.address.name}, collected in the shop.`] : [...shippingToText(order.address), "", `${method}${shipDay ? `, leaving us on ${shipDay}` : ""}${delivery ? `, expected ${delivery}` : ""}.`]),
  ];

  const cell = mailTextStyle;
  const itemRows = order.items.map((item) => emailItemRow(item, formatEuro(item.paid))).join("");
  const totalRows = totalLines
    .map(([label, value]) => `<tr><td style="${cell}color:${mailColours.muted};padding:4px 0;">${escapeHtml(label)}</td><td align="right" style="${cell}padding:4px 0;">${escapeHtml(value)}</td></tr>`)
    .join("");
  return renderOrderEmail(order, {
    kind: "order-confirmation",
    key: order.orderNumber,
    subject: `Your order ${order.orderNumber} at ${shopName}`,
    preheader: `Order ${order.orderNumber}: ${formatEuro(totals.total)} paid${delivery ? `, expected ${delivery}` : ""}.`,
    body: `${emailHeading("Thank you for your order")}
      <p style="${cell}margin:0 0 24px;">Order <strong>${escapeHtml(order.orderNumber)}</strong> is paid. ${collected ? "You took it along from our shop: thank you for your visit." : "We will let you know when it is on its way."}</p>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;">${itemRows}</table>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 8px;">${totalRows}
        <tr><td style="${cell}font-weight:bold;padding:10px 0 0;border-top:1px solid ${mailColours.rule};">Total paid</td><td align="right" style="${cell}font-weight:bold;padding:10px 0 0;border-top:1px solid ${mailColours.rule};">${escapeHtml(formatEuro(totals.total))}</td></tr>
      </table>
      ${collected ? "" : `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:24px 0;"><tr>
        <td valign="top" style="${cell}width:50%;padding-right:12px;">${shippingToHtml(order.address)}</td>
        <td valign="top" style="${cell}width:50%;"><strong>${escapeHtml(method)}</strong><br>${shipDay ? `Leaves us on ${escapeHtml(shipDay)}<br>` : ""}${delivery ? `Expected ${escapeHtml(delivery)}` : ""}</td>
      </tr></table>`}
      ${emailButton(confirmationUrl, "View your order")}`,
    text,
    orderUrl: confirmationUrl,
    shopName,
  });
}
