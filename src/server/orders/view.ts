import "server-only";
import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { order } from "@/server/db/schema";
import { oneLine } from "@/lib/text";
import { AppError } from "@/server/errors";
import { getCarrier } from "@/server/integrations/carriers/carriers";
import { readOrderLines, selectOrderWithDetails } from "./order-rows";
import { readCustomerRefunds } from "./customer-refunds";
import { orderTokenMatches } from "./order-token";
import type { OrderView } from "./schemas";
import { storedOrderTotals } from "./totals";

/** The order `where` picks, as the one read model, with its owner; null when there is none. */
async function readOrder(db: Db, where: SQL): Promise<{ userId: string | null; view: OrderView } | null> {
  const [row] = await selectOrderWithDetails(db).where(where).limit(1);
  if (!row) return null;
  const lines = await readOrderLines(db, row.order.id);
  const { refunds, refundedTotal } = await readCustomerRefunds(db, row.order.id);
  const { address, detail, payment } = row;
  return {
    userId: row.order.userId,
    view: {
      orderId: row.order.id,
      orderNumber: row.order.orderNumber,
      status: row.order.status,
      createdAt: row.order.createdAt,
      shippedAt: detail.shippedAt,
      deliveredAt: detail.deliveredAt,
      email: address.email,
      items: lines.map((line) => ({ productId: line.productId, name: oneLine(line.name), quantity: line.quantity, paid: line.totalPrice, discount: line.totalDiscountAmount })),
      // Each field one line as documents and e-mails print it, also for an address stored before line breaks were
      // refused (SECURITY-REVIEW N-M5).
      address: {
        name: oneLine([address.firstName, address.lastName].join(" ")),
        // A counter sale was collected in the shop: its buyer has a name (and company) but no address on file.
        lines: (detail.shippingMethod === "COLLECTED"
          ? [address.companyName]
          : [
              address.companyName,
              `${address.street} ${address.houseNumber}`,
              address.addressLine2,
              `${address.postCode} ${address.city}`,
              address.state,
              address.country,
            ]
        )
          .map(oneLine)
          .filter((line): line is string => Boolean(line)),
      },
      shipping: {
        method: detail.shippingMethod,
        carrier: detail.carrier,
        trackingNumber: detail.trackingNumber,
        trackingUrl:
          detail.carrier && detail.trackingNumber
            ? getCarrier(detail.carrier).trackingUrl(detail.trackingNumber, { countryCode: address.countryCode, postCode: address.postCode })
            : null,
        estimatedShippingDate: detail.estimatedShippingDate,
        estimatedDeliveryDate: detail.estimatedDeliveryDate,
      },
      paymentMethod: payment.provider,
      totals: storedOrderTotals(lines, payment),
      refunds,
      refundedTotal,
    },
  };
}

/** An order by its number, for the shop's own use (the confirmation e-mail); NOT_FOUND for an unknown number. */
export async function getOrderView(db: Db, orderNumber: string): Promise<OrderView> {
  const found = await readOrder(db, eq(order.orderNumber, orderNumber));
  if (!found) throw new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  return found.view;
}

/** One of the customer's own orders; someone else's order is NOT_FOUND, never FORBIDDEN, to reveal nothing. */
export async function getCustomerOrder(db: Db, userId: string, orderId: number): Promise<OrderView> {
  const found = await readOrder(db, and(eq(order.id, orderId), eq(order.userId, userId))!);
  if (!found) throw new AppError("NOT_FOUND", "That order is not in your order history.");
  return found.view;
}

/**
 * An order for whoever opens its confirmation page: the signed-in customer who placed it, or anyone holding the
 * order's signed token (a guest's return link and e-mail). Anyone else gets NOT_FOUND, which reveals nothing.
 */
export async function viewOrderConfirmation(
  db: Db,
  orderNumber: string,
  viewer: { userId: string | null; token: string | null; tokenSecret: string },
): Promise<OrderView> {
  const notFound = new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  if (!/^BC-\d{4}-\d{6,}$/.test(orderNumber)) throw notFound;
  const found = await readOrder(db, eq(order.orderNumber, orderNumber));
  if (!found) throw notFound;
  const owner = found.userId !== null && found.userId === viewer.userId;
  if (!owner && !(await orderTokenMatches(viewer.tokenSecret, viewer.token, orderNumber))) throw notFound;
  return found.view;
}
