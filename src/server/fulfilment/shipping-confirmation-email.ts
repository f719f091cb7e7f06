import { carrierNames, type OrderView } from "@/server/orders/schemas";
import { emailButton, emailHeading, emailItemRow, escapeHtml, mailColours, mailTextStyle, renderOrderEmail, shippingToHtml, shippingToText } from "@/server/integrations/mail/layout";
import type { MailMessage } from "@/server/integrations/mail/port";

/**
 * The shipping e-mail: the order is on its way, with what is in the parcel, the carrier, the tracking number and
 * its link, and a link to the order page. Branded HTML and the same content as plain text.
 */
export function renderShippingConfirmationEmail(order: OrderView, orderUrl: string, shopName: string): MailMessage {
  const { trackingNumber, trackingUrl } = order.shipping;
  const carrier = order.shipping.carrier ? carrierNames[order.shipping.carrier] : null;
  const withCarrier = carrier ? ` with ${carrier}` : "";
  const text = [
    `Your order ${order.orderNumber} is on its way${withCarrier}.`,
    "",
    ...order.items.map((item) => `${item.quantity} × ${item.name}`),
    "",
    ...(trackingNumber ? [`Tracking number: ${trackingNumber}`] : []),
    ...(trackingUrl ? [`Follow your parcel: ${trackingUrl}`] : []),
    "",
    ...shippingToText(order.address),
  ];

  const cell = mailTextStyle;
  const itemRows = order.items.map((item) => emailItemRow(item)).join("");
  const tracking = trackingNumber
    ? `<p style="${cell}margin:0 0 16px;">Tracking number${carrier ? ` (${escapeHtml(carrier)})` : ""}: ${
        trackingUrl
          ? `<a href="${escapeHtml(trackingUrl)}" target="_blank" style="color:${mailColours.brass};font-weight:bold;">${escapeHtml(trackingNumber)}</a>`
          : `<strong>${escapeHtml(trackingNumber)}</strong>`
      }</p>`
    : "";
  return renderOrderEmail(order, {
    kind: "shipping-confirmation",
    key: order.orderNumber,
    subject: `Your order ${order.orderNumber} is on its way`,
    preheader: `Order ${order.orderNumber} has left our workshop${withCarrier}${trackingNumber ? `, tracking ${trackingNumber}` : ""}.`,
    body: `${emailHeading("Your order is on its way")}
      <p style="${cell}margin:0 0 24px;">Order <strong>${escapeHtml(order.orderNumber)}</strong> has left our workshop${escapeHtml(withCarrier)}. It was packed with care; we hope it gives you many good years.</p>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 24px;">${itemRows}</table>
      ${tracking}
      ${trackingUrl ? emailButton(trackingUrl, "Follow your parcel") : ""}
      <p style="${cell}margin:0 0 8px;">${shippingToHtml(order.address)}</p>
      <p style="${cell}margin:16px 0 0;"><a href="${escapeHtml(orderUrl)}" target="_blank" style="color:${mailColours.brass};">See your order</a></p>`,
    text,
    orderUrl,
    links: trackingUrl ? [trackingUrl] : [],
    shopName,
  });
}
