import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { logbook, order, orderAddress, orderDetail, orderItem, paymentDetail, product, refund, stockRecord, user, webhookEvent } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { productImageKey } from "@/server/integrations/storage/port";
import { mailStatesOfOrder, type MailState } from "@/server/messages/outbox";
import type { AdminOrder, OrderEmailState } from "./admin-schemas";
import { withOrderDetails } from "./order-rows";
import { orderStanding } from "./order-standing";
import { staffTransitions } from "./staff-status-changes";
import { mergeTimeline } from "./timeline";
import { getOrderView } from "./view";

/**
 * One order's page in the order admin: the order's one view, the rest of what is stored about it, and its timeline.
 * Besides the order's own rows it reads through logbook_entity_idx (entity_type, entity_id),
 * stock_record_order_item_idx (order_item_id) and webhook_event_payment_status_unique (provider, external_payment_id,
 * status), probed once per payment provider.
 */

/**
 * The names payment providers record webhook events under. A record, so that a provider added to the port fails
 * the type check here until it is listed; the events are then found through the (provider, payment, status) index.
 */
const paymentProviderNames: Record<PaymentsPort["provider"], true> = { mollie: true, paypal: true, sandbox: true };

/**
 * Everything the order page shows: the order's one view (`getOrderView`, totals included), the rest of what is
 * stored about it, and its timeline. NOT_FOUND for an unknown number. `imageUrl` turns a storage key into the
 * address a browser loads a picture from.
 */
/** An order's e-mail for staff: its flag says it went (also for orders older than the outbox); else its message's state. */
function emailState(sent: boolean, message: MailState | undefined): OrderEmailState {
  if (sent || message?.status === "SENT") return { state: "sent", attempts: message?.attempts ?? 1, lastError: null };
  if (!message) return { state: "none", attempts: 0, lastError: null };
  return { state: message.status === "FAILED" ? "failed" : "queued", attempts: message.attempts, lastError: message.lastError };
}

export async function getAdminOrder(db: Db, orderNumber: string, imageUrl: (key: string) => string): Promise<AdminOrder> {
  const view = await getOrderView(db, orderNumber);
  const [stored] = await withOrderDetails(
    db
    .select({
      userId: order.userId,
      soldAt: order.soldAt,
      address: {
        id: orderAddress.id,
        firstName: orderAddress.firstName,
        lastName: orderAddress.lastName,
        companyName: orderAddress.companyName,
        phoneNumber: orderAddress.phoneNumber,
        countryCode: orderAddress.countryCode,
        referenceLine: orderAddress.referenceLine,
      },
      detail: {
        id: orderDetail.id,
        shop: orderDetail.shop,
        trackingNumber: orderDetail.trackingNumber,
        carrierProduct: orderDetail.carrierProduct,
        labelCreatedAt: orderDetail.labelCreatedAt,
        labelCost: orderDetail.labelCost,
        labelKey: orderDetail.gcsLabelFilename,
        trackingStatus: orderDetail.trackingStatus,
        trackingCheckedAt: orderDetail.trackingCheckedAt,
        totalWeight: orderDetail.totalWeight,
        orderEmailSent: orderDetail.orderEmailSent,
        shippingEmailSent: orderDetail.shippingEmailSent,
        invoiceNumber: orderDetail.invoiceNumber,
        marketplaceOrderId: orderDetail.marketplaceOrderId,
        marketplaceBuyer: orderDetail.marketplaceBuyer,
        oversoldAt: orderDetail.oversoldAt,
      },
      payment: { id: paymentDetail.id, externalPaymentId: paymentDetail.externalPaymentId, providerFees: paymentDetail.providerFees, total: paymentDetail.total },
    })
    .from(order)
    .$dynamic(),
  )
    .where(eq(order.id, view.orderId))
    .limit(1);
  if (!stored) throw new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  const { address, detail, payment } = stored;

  const items = await db
    .select({ id: orderItem.id, productId: orderItem.productId, priceOverrideReason: orderItem.priceOverrideReason, oversoldQuantity: orderItem.oversoldQuantity })
    .from(orderItem)
    .where(eq(orderItem.orderId, view.orderId))
    .orderBy(asc(orderItem.id));
  const itemIds = items.map((item) => item.id);
  const overrideReasons = new Map(items.map((item) => [item.productId, item.priceOverrideReason]));

  const ownEntries = [
    and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(view.orderId))),
    and(eq(logbook.entityType, "ORDER_DETAIL"), eq(logbook.entityId, String(detail.id))),
    and(eq(logbook.entityType, "PAYMENT_DETAIL"), eq(logbook.entityId, String(payment.id))),
    and(eq(logbook.entityType, "ORDER_ADDRESS"), eq(logbook.entityId, String(address.id))),
    itemIds.length > 0 ? and(eq(logbook.entityType, "ORDER_ITEM"), inArray(logbook.entityId, itemIds.map(String))) : undefined,
    and(eq(logbook.entityType, "REFUND"), inArray(logbook.entityId, db.select({ id: sql<string>`${refund.id}::text` }).from(refund).where(eq(refund.orderId, view.orderId)))),
  ];
  const mails = await mailStatesOfOrder(db, view.orderId, ["order-confirmation", "shipping-confirmation"]);
  const [account, log, webhooks, stock] = await Promise.all([
    stored.userId ? db.select({ userId: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, stored.userId)) : Promise.resolve([]),
    db
      .select({
        id: logbook.id,
        at: logbook.createdAt,
        eventType: logbook.eventType,
        entityType: logbook.entityType,
        level: logbook.logLevel,
        description: logbook.description,
        previousState: logbook.previousState,
        newState: logbook.newState,
        by: sql<string | null>`coalesce(${user.name}, ${user.email})`,
      })
      .from(logbook)
      .leftJoin(user, eq(user.id, logbook.userId))
      .where(or(...ownEntries)),
    payment.externalPaymentId
      ? db
          .select({ id: webhookEvent.id, at: webhookEvent.receivedAt, provider: webhookEvent.provider, externalPaymentId: webhookEvent.externalPaymentId, status: webhookEvent.status })
          .from(webhookEvent)
          .where(and(inArray(webhookEvent.provider, Object.keys(paymentProviderNames)), eq(webhookEvent.externalPaymentId, payment.externalPaymentId)))
      : Promise.resolve([]),
    itemIds.length > 0
      ? db
          .select({ id: stockRecord.id, at: stockRecord.createdAt, type: stockRecord.type, quantity: stockRecord.quantity, productName: product.name })
          .from(stockRecord)
          .innerJoin(product, eq(product.id, stockRecord.productId))
          .where(inArray(stockRecord.orderItemId, itemIds))
      : Promise.resolve([]),
  ]);

  return {
    ...view,
    items: view.items.map((item) => ({ ...item, image: imageUrl(productImageKey(item.productId)), priceOverrideReason: overrideReasons.get(item.productId) ?? null })),
    account: account[0] ?? null,
    contact: {
      firstName: address.firstName,
      lastName: address.lastName,
      companyName: address.companyName,
      phoneNumber: address.phoneNumber,
      countryCode: address.countryCode,
      referenceLine: address.referenceLine,
    },
    soldAt: stored.soldAt,
    standing: orderStanding({ status: view.status, shippingMethod: view.shipping.method, wasPaid: stored.soldAt !== null, paid: payment.total, refunded: new Decimal(view.refundedTotal) }),
    shop: detail.shop,
    marketplace: detail.marketplaceOrderId
      ? {
          orderId: detail.marketplaceOrderId,
          buyer: detail.marketplaceBuyer,
          oversoldAt: detail.oversoldAt,
          oversoldPieces: items.reduce((pieces, item) => pieces + item.oversoldQuantity, 0),
        }
      : null,
    payment: { method: view.paymentMethod, externalPaymentId: payment.externalPaymentId, providerFees: payment.providerFees },
    label: {
      carrierProduct: detail.carrierProduct,
      // Without a tracking number the time only marks a label being bought right now (fulfilment's claim).
      createdAt: detail.trackingNumber ? detail.labelCreatedAt : null,
      cost: detail.labelCost,
      downloadUrl: detail.labelKey ? `/admin/orders/label/${encodeURIComponent(view.orderNumber)}` : null,
      trackingStatus: detail.trackingStatus,
      trackingCheckedAt: detail.trackingCheckedAt,
    },
    totalWeightGrams: detail.totalWeight,
    emails: { confirmation: emailState(detail.orderEmailSent, mails.get("order-confirmation")), shipping: emailState(detail.shippingEmailSent, mails.get("shipping-confirmation")) },
    invoiceNumber: detail.invoiceNumber,
    actions: staffTransitions({ orderNumber: view.orderNumber, status: view.status, trackingNumber: detail.trackingNumber }),
    timeline: mergeTimeline({ webhooks, log, stock }),
  };
}
