import "server-only";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { adminNotification, logbook, mailMessage, order, orderAddress, orderDetail, orderPlacer } from "@/server/db/schema";
import { notifyStaff } from "@/server/notifications/service";
import { logMarketplaceEvent } from "./logbook";

/*
 * eBay's MARKETPLACE_ACCOUNT_DELETION notification honoured: the buyer whose eBay account was deleted loses their
 * personal data on the shop's orders imported from eBay, as eBay requires of every application with production keys.
 *
 * The rule is the one a web customer's erasure follows (account/customer-data-request.ts), which the books dictate:
 * every order stays with its lines, payment, refunds and totals; an order with an issued invoice keeps what the
 * invoice printed (name, company, postal address), one without keeps only its country (its VAT); the e-mail address,
 * phone number, label reference line and the eBay user name go from every order; the e-mails sent about the orders
 * are deleted; the logbook's lines and states, and staff notifications, lose the user name and e-mail addresses. An
 * order not shipped yet still needs its address to be delivered: it keeps name, address and phone until staff have
 * sent it, loses the user name and the e-mail, and staff are told. The logbook entry names the orders, not the buyer.
 */

/** What stands in for a name, and for an e-mail address (order addresses must have one), once erased. */
export const ERASED_EBAY_BUYER = "Erased eBay buyer";
export const ERASED_EBAY_EMAIL = "erased-ebay-buyer@erased.invalid";

/** Orders still needing the buyer's address to be delivered. */
const openStatuses = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"] as const;

export type AccountDeletionOutcome = { orders: number; keptForDelivery: string[] };

/** Erases an eBay buyer's personal data from the shop's eBay orders, in the caller's transaction, with its logbook entry. */
export async function honourAccountDeletion(tx: Db, deleted: { username: string }): Promise<AccountDeletionOutcome> {
  const username = deleted.username.trim();
  if (!username) return { orders: 0, keptForDelivery: [] };
  const orders = await tx
    .select({ id: order.id, orderNumber: order.orderNumber, status: order.status, invoiceNumber: orderDetail.invoiceNumber, email: orderAddress.email, marketplaceOrderId: orderDetail.marketplaceOrderId })
    .from(orderDetail)
    .innerJoin(order, eq(order.id, orderDetail.orderId))
    .leftJoin(orderAddress, eq(orderAddress.orderId, order.id))
    .where(and(eq(orderDetail.shop, "EBAY"), sql`lower(${orderDetail.marketplaceBuyer}) = ${username.toLowerCase()}`))
    .orderBy(order.id)
    .for("update", { of: order });
  if (orders.length === 0) {
    await logMarketplaceEvent(tx, { userId: null, logLevel: "INFO", description: "eBay reported a deleted eBay account; no order of the shop is that buyer's" });
    return { orders: 0, keptForDelivery: [] };
  }

  const orderIds = orders.map((one) => one.id);
  const open = orders.filter((one) => (openStatuses as readonly string[]).includes(one.status));
  const closed = orders.filter((one) => !open.includes(one));
  const notInvoiced = closed.filter((one) => one.invoiceNumber === null).map((one) => one.id);
  const emails = [...new Set(orders.map((one) => one.email).filter((email): email is string => !!email && email !== ERASED_EBAY_EMAIL))];

  await tx.update(orderDetail).set({ marketplaceBuyer: null }).where(inArray(orderDetail.orderId, orderIds));
  await tx.update(orderAddress).set({ email: ERASED_EBAY_EMAIL, referenceLine: null }).where(inArray(orderAddress.orderId, orderIds));
  if (closed.length > 0) await tx.update(orderAddress).set({ phoneNumber: null }).where(inArray(orderAddress.orderId, closed.map((one) => one.id)));
  if (notInvoiced.length > 0) {
    await tx
      .update(orderAddress)
      .set({ firstName: ERASED_EBAY_BUYER, lastName: "", companyName: null, street: "", houseNumber: "", addressLine2: null, postCode: "", city: "", state: null, stateCode: null })
      .where(inArray(orderAddress.orderId, notInvoiced));
  }
  await tx.delete(orderPlacer).where(inArray(orderPlacer.orderId, orderIds));
  await tx.delete(mailMessage).where(and(inArray(mailMessage.orderId, orderIds), inArray(mailMessage.status, ["SENT", "FAILED"])));

  // The user name (as a whole word: a short one is part of other words) and the e-mail addresses leave what the
  // logbook says about these orders or this buyer, and the staff notifications about these orders.
  const scrub = (text: SQL) =>
    [`(^|[^A-Za-z0-9._*-])${escapeRegExp(username)}($|[^A-Za-z0-9._*-])`, ...emails.map((email) => `()${escapeRegExp(email)}()`)].reduce<SQL>(
      (current, pattern) => sql`regexp_replace(${current}, ${pattern}, ${`\\1${ERASED_EBAY_BUYER}\\2`}, 'gi')`,
      text,
    );
  const aboutTheirOrders = and(eq(logbook.entityType, "ORDER"), inArray(logbook.entityId, orderIds.map(String)));
  await tx
    .update(logbook)
    .set({
      description: scrub(sql`${logbook.description}`),
      previousState: sql`${scrub(sql`${logbook.previousState}::text`)}::jsonb`,
      newState: sql`${scrub(sql`${logbook.newState}::text`)}::jsonb`,
    })
    .where(or(aboutTheirOrders, sql`lower(${logbook.newState}->>'buyer') = ${username.toLowerCase()}`));
  const named = [...orders.map((one) => one.orderNumber), ...orders.flatMap((one) => (one.marketplaceOrderId ? [one.marketplaceOrderId] : []))];
  await tx
    .update(adminNotification)
    .set({ message: scrub(sql`${adminNotification.message}`) })
    .where(or(...named.map((name) => sql`${adminNotification.message} like ${`%${escapeLike(name)}%`}`)));

  const numbers = orders.map((one) => one.orderNumber);
  const keptForDelivery = open.map((one) => one.orderNumber);
  await logMarketplaceEvent(tx, {
    userId: null,
    logLevel: "INFO",
    newState: { accountDeletion: true, orders: numbers, keptForDelivery },
    description: `eBay reported a deleted eBay account: the buyer's personal data were erased from order${numbers.length === 1 ? "" : "s"} ${numbers.join(", ")}${keptForDelivery.length > 0 ? ` (name and address kept until ${keptForDelivery.join(", ")} ${keptForDelivery.length === 1 ? "is" : "are"} delivered)` : ""}`,
  });
  if (keptForDelivery.length > 0) {
    await notifyStaff(tx, {
      type: "EBAY_ORDER",
      severity: "WARNING",
      message: `The eBay buyer of order ${keptForDelivery.join(", ")} deleted their eBay account: ship as usual; their name and address stay on the order only to deliver it.`,
    });
  }
  return { orders: orders.length, keptForDelivery };
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
