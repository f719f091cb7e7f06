import "server-only";
import { eq } from "drizzle-orm";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { order, paymentDetail } from "@/server/db/schema";
import { renderOrderConfirmationEmail } from "./order-confirmation-email";
import { queueMail } from "@/server/messages/outbox";
import type { OnPaymentUpdate } from "@/server/webhooks/schemas";
import { paidOrderStatuses } from "./order-machine";
import { issueOrderToken } from "./order-token";
import { applyPaymentUpdate } from "./service";
import { getOrderView } from "./view";

/** Where a buyer sees an order: the confirmation page, with a signed token so a guest can open it too. */
export async function confirmationUrl(origin: string, orderNumber: string, tokenSecret: string): Promise<string> {
  const token = await issueOrderToken(tokenSecret, orderNumber);
  return `${origin.replace(/\/+$/, "")}/checkout/confirmation/${encodeURIComponent(orderNumber)}?token=${encodeURIComponent(token)}`;
}

/**
 * Writes a paid order's confirmation e-mail to the outbox (src/server/messages), in the caller's transaction: the one
 * that recorded the payment, so that it goes if and only if the payment is recorded. A second call for the order
 * (a replayed webhook, the sweep) writes nothing more: the e-mail is keyed by the order's number.
 */
export async function queueOrderConfirmation(tx: Db, orderNumber: string): Promise<void> {
  const view = await getOrderView(tx, orderNumber);
  if (!(paidOrderStatuses as readonly string[]).includes(view.status)) return;
  const message = renderOrderConfirmationEmail(view, await confirmationUrl(shopUrl(), orderNumber, env.TOKEN_SECRET), env.SHOP_NAME);
  await queueMail(tx, {
    ...message,
    idempotencyKey: message.idempotencyKey ?? `order-confirmation/${orderNumber}`,
    orderId: view.orderId,
    orderFlag: "orderEmailSent",
    description: `Order confirmation e-mail of ${orderNumber} sent to ${view.email}`,
  });
}

/**
 * What the payment webhooks (and the unpaid-order sweep) do with a settled payment (`applyPaymentUpdate`), and when
 * that made its order paid, the order's confirmation e-mail is written in the same transaction. An authorized payment
 * is not paid until captured, so it writes nothing. `now` is for tests; `note` goes into the logbook's description.
 */
export function settlePaymentAndConfirm(now?: Date, note?: string): OnPaymentUpdate {
  return async (tx, update) => {
    const followUp = await applyPaymentUpdate(tx, update, now, note);
    if (update.status !== "paid") return followUp;
    const [paid] = await tx
      .select({ orderNumber: order.orderNumber, status: order.status })
      .from(paymentDetail)
      .innerJoin(order, eq(order.id, paymentDetail.orderId))
      .where(eq(paymentDetail.externalPaymentId, update.externalPaymentId));
    if (paid && (paidOrderStatuses as readonly string[]).includes(paid.status)) await queueOrderConfirmation(tx, paid.orderNumber);
    return followUp;
  };
}
