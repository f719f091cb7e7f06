import "server-only";
import { eq } from "drizzle-orm";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { order, orderDetail, refund } from "@/server/db/schema";
import { queueMail } from "@/server/messages/outbox";
import { confirmationUrl } from "@/server/orders/confirmation";
import { getOrderView } from "@/server/orders/view";
import { renderRefundConfirmationEmail } from "./refund-confirmation-email";
import { readRefundRows, toRefundView } from "./refund-rows";

/**
 * Writes the customer's e-mail of one refund to the outbox (src/server/messages), in the caller's transaction: the
 * one in which the provider accepted the refund (or staff recorded one paid by hand), so that it goes only then. A
 * refund that failed gave nothing back and is not announced. Keyed by the refund: writing it again writes nothing.
 */
export async function queueRefundEmail(tx: Db, refundId: number): Promise<void> {
  const [row] = await readRefundRows(tx, eq(refund.id, refundId));
  if (!row || row.status === "FAILED") return;
  const [found] = await tx.select({ orderNumber: order.orderNumber, shop: orderDetail.shop }).from(order).innerJoin(orderDetail, eq(orderDetail.orderId, order.id)).where(eq(order.id, row.orderId));
  if (!found) throw new Error(`Order ${row.orderId} of refund ${refundId} does not exist`);
  // A marketplace buyer hears of the refund from eBay, as of the sale: the shop writes them no e-mail of its own.
  if (found.shop === "EBAY") return;
  const view = await getOrderView(tx, found.orderNumber);
  const refunded = toRefundView(row);
  const message = renderRefundConfirmationEmail(view, refunded, await confirmationUrl(shopUrl(), found.orderNumber, env.TOKEN_SECRET), env.SHOP_NAME);
  await queueMail(tx, {
    ...message,
    idempotencyKey: message.idempotencyKey ?? `refund-confirmation/${refundId}`,
    orderId: row.orderId,
    refundId,
    description: `Refund e-mail of refund ${refundId} (order ${found.orderNumber}, ${refunded.amount}) sent to ${view.email}`,
  });
}
