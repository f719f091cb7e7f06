import { Decimal } from "decimal.js";
import { and, asc, eq } from "drizzle-orm";
import { formatShippingDay, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, orderAddress, orderDetail, orderItem, paymentDetail, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { emailButton, emailHeading, escapeHtml, mailColours as colours, renderEmailLayout } from "@/server/integrations/mail/layout";
import type { MailMessage, MailPort } from "@/server/integrations/mail/port";
import { logChange } from "@/server/logbook/service";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { orderTokenMatches } from "./order-token";
import type { OrderConfirmation } from "./schemas";

/** An order as its confirmation page and e-mail show it; NOT_FOUND for an unknown number. */
export async function getOrderConfirmation(db: Db, orderNumber: string): Promise<OrderConfirmation & { userId: string | null }> {
  const [row] = await db
    .select({ order, address: orderAddress, detail: orderDetail, payment: paymentDetail })
    .from(order)
    .innerJoin(orderAddress, eq(orderAddress.orderId, order.id))
    .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .innerJoin(paymentDetail, eq(paymentDetail.orderId, order.id))
    .where(eq(order.orderNumber, orderNumber))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  const items = await db
    .select({ productId: orderItem.productId, name: product.name, quantity: orderItem.quantity, totalPrice: orderItem.totalPrice })
    .from(orderItem)
    .innerJoin(product, eq(product.id, orderItem.productId))
    .where(eq(orderItem.orderId, row.order.id))
    .orderBy(asc(orderItem.id));
  const a = row.address;
  const surcharge = row.payment.additionalShippingFees ?? new Decimal(0);
  return {
    orderId: row.order.id,
    orderNumber: row.order.orderNumber,
    userId: row.order.userId,
    status: row.order.status,
    createdAt: row.order.createdAt,
    email: a.email,
    items,
    address: {
      name: [a.firstName, a.lastName].join(" "),
      lines: [
        a.companyName,
        `${a.street} ${a.houseNumber}`,
        a.addressLine2,
        `${a.postCode} ${a.city}`,
        a.state,
        a.country,
      ].filter((line): line is string => Boolean(line)),
    },
    shippingMethod: row.detail.shippingMethod,
    estimatedShippingDate: row.detail.estimatedShippingDate,
    estimatedDeliveryDate: row.detail.estimatedDeliveryDate,
    paymentMethod: row.payment.provider,
    itemTotal: row.payment.itemTotal,
    discount: row.payment.itemTotalDiscountAmount,
    surcharge,
    shipping: row.payment.shippingTotal,
    total: row.payment.total,
    orderEmailSent: row.detail.orderEmailSent,
  };
}

/**
 * Sends the order confirmation e-mail once the order is paid, and marks it sent. The mark is claimed before
 * sending, so a replayed webhook or a second return visit never sends it twice; when sending fails the claim is
 * given back and the failure logged, for the next attempt. Returns whether it sent the e-mail now.
 */
export async function sendOrderConfirmation(db: Db, mail: MailPort, orderNumber: string, confirmationUrl: string, shopName: string): Promise<boolean> {
  const confirmation = await getOrderConfirmation(db, orderNumber);
  if (!(paidOrderStatuses as readonly string[]).includes(confirmation.status)) return false;
  const claimed = await db
    .update(orderDetail)
    .set({ orderEmailSent: true })
    .where(and(eq(orderDetail.orderId, confirmation.orderId), eq(orderDetail.orderEmailSent, false)))
    .returning({ id: orderDetail.id });
  if (claimed.length === 0) return false;
  try {
    await mail.send(renderOrderConfirmationEmail(confirmation, confirmationUrl, shopName));
  } catch (error) {
    await db.transaction(async (tx) => {
      await tx.update(orderDetail).set({ orderEmailSent: false }).where(eq(orderDetail.orderId, confirmation.orderId));
      await logChange(tx, {
        userId: null,
        eventType: "EMAIL",
        entityType: "ORDER",
        entityId: confirmation.orderId,
        logLevel: "ERROR",
        errorData: { message: error instanceof Error ? error.message : String(error) },
        description: `The confirmation e-mail of order ${orderNumber} could not be sent`,
      });
    });
    throw error;
  }
  await logChange(db, {
    userId: null,
    eventType: "EMAIL",
    entityType: "ORDER",
    entityId: confirmation.orderId,
    newState: { orderEmailSent: true, to: confirmation.email },
    description: `Order confirmation e-mail of ${orderNumber} sent to ${confirmation.email}`,
  });
  return true;
}

const formatDay = (day: string | null): string | null => (day ? formatShippingDay(day) : null);

/**
 * The order confirmation e-mail: the items, the totals, where it goes and how, as branded HTML (table layout and
 * inline styles, which mail clients render alike) and the same content as plain text.
 */
export function renderOrderConfirmationEmail(c: OrderConfirmation, confirmationUrl: string, shopName: string): MailMessage {
  const e = escapeHtml;
  const subject = `Your order ${c.orderNumber} at ${shopName}`;
  const delivery = formatDay(c.estimatedDeliveryDate);
  const shipDay = formatDay(c.estimatedShippingDate);
  const totals: [string, string][] = [
    ["Items", formatEuro(c.itemTotal)],
    ...(c.discount.isZero() ? [] : ([["Discount", `−${formatEuro(c.discount)}`]] as [string, string][])),
    [`Shipping: ${shippingMethodLabels[c.shippingMethod]}`, formatEuro(c.shipping.minus(c.surcharge))],
    ...(c.surcharge.isZero() ? [] : ([["Insurance surcharge", formatEuro(c.surcharge)]] as [string, string][])),
  ];
  const text = [
    `Thank you for your order ${c.orderNumber}`,
    "",
    ...c.items.map((item) => `${item.quantity} × ${item.name}: ${formatEuro(item.totalPrice)}`),
    "",
    ...totals.map(([label, value]) => `${label}: ${value}`),
    `Total paid: ${formatEuro(c.total)}`,
    "",
    "Shipping to:",
    c.address.name,
    ...c.address.lines,
    "",
    `${shippingMethodLabels[c.shippingMethod]}${shipDay ? `, leaving us on ${shipDay}` : ""}${delivery ? `, expected ${delivery}` : ""}.`,
    "",
    `See your order: ${confirmationUrl}`,
    "",
    shopName,
  ].join("\n");

  const cell = `font-family:Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:${colours.ink};`;
  const itemRows = c.items
    .map(
      (item) =>
        `<tr><td style="${cell}padding:8px 0;border-bottom:1px solid ${colours.rule};">${item.quantity} × ${e(item.name)}</td><td align="right" style="${cell}padding:8px 0;border-bottom:1px solid ${colours.rule};white-space:nowrap;">${e(formatEuro(item.totalPrice))}</td></tr>`,
    )
    .join("");
  const totalRows = totals
    .map(([label, value]) => `<tr><td style="${cell}color:${colours.muted};padding:4px 0;">${e(label)}</td><td align="right" style="${cell}padding:4px 0;">${e(value)}</td></tr>`)
    .join("");
  const html = renderEmailLayout({
    subject,
    preheader: `Order ${c.orderNumber}: ${formatEuro(c.total)} paid${delivery ? `, expected ${delivery}` : ""}.`,
    shopName,
    maxWidth: 560,
    body: `${emailHeading("Thank you for your order")}
      <p style="${cell}margin:0 0 24px;">Order <strong>${e(c.orderNumber)}</strong> is paid. We will let you know when it is on its way.</p>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 16px;">${itemRows}</table>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 8px;">${totalRows}
        <tr><td style="${cell}font-weight:bold;padding:10px 0 0;border-top:1px solid ${colours.rule};">Total paid</td><td align="right" style="${cell}font-weight:bold;padding:10px 0 0;border-top:1px solid ${colours.rule};">${e(formatEuro(c.total))}</td></tr>
      </table>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:24px 0;"><tr>
        <td valign="top" style="${cell}width:50%;padding-right:12px;"><strong>Shipping to</strong><br>${[c.address.name, ...c.address.lines].map(e).join("<br>")}</td>
        <td valign="top" style="${cell}width:50%;"><strong>${e(shippingMethodLabels[c.shippingMethod])}</strong><br>${shipDay ? `Leaves us on ${e(shipDay)}<br>` : ""}${delivery ? `Expected ${e(delivery)}` : ""}</td>
      </tr></table>
      ${emailButton(confirmationUrl, "View your order")}`,
    footer: `${e(shopName)} · Sent to ${e(c.email)} about order ${e(c.orderNumber)}`,
  });
  return { to: c.email, subject, html, text, kind: "order-confirmation", links: [confirmationUrl] };
}

/**
 * The confirmation of an order for whoever asks: the signed-in customer who placed it, or anyone holding the
 * order's signed token (a guest's return link and e-mail). Anyone else gets NOT_FOUND, which reveals nothing.
 */
export async function viewOrderConfirmation(
  db: Db,
  orderNumber: string,
  viewer: { userId: string | null; token: string | null; tokenSecret: string },
): Promise<OrderConfirmation> {
  const notFound = new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  if (!/^BC-\d{4}-\d{6,}$/.test(orderNumber)) throw notFound;
  const { userId, ...confirmation } = await getOrderConfirmation(db, orderNumber);
  const owner = userId !== null && userId === viewer.userId;
  if (!owner && !(await orderTokenMatches(viewer.tokenSecret, viewer.token, orderNumber))) throw notFound;
  return confirmation;
}
