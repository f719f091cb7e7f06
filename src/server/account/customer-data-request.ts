import "server-only";
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import {
  account, addressBook, cartItem, logbook, mailMessage, mailOutbox, order, orderAddress, orderDetail, orderItem, orderPlacer, passkey, paymentDetail,
  product, recoveryCode, session, totpFactor, user, verificationToken, webauthnChallenge,
} from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { ERASED_NAME, erasedEmail, type CustomerErasure } from "./customer-admin-schemas";
import { aboutCustomer, customerRefunds, customerRow, getCustomer } from "./customer-page";

/*
 * A customer's data on their request (GDPR): everything the shop holds on them as one JSON document (art. 15 and 20),
 * and its erasure (art. 17), keeping what the books must keep for seven years (Dutch fiscal retention, AWR art. 52).
 *
 * Their orders are those of their account and the guest orders placed with their e-mail address. Erasing keeps the
 * account's row (its id holds the orders together; name and e-mail replaced, `erasedAt` set) and every order with
 * its lines, payment, refunds and totals. Of an order's address, an issued invoice keeps what it printed (name,
 * company, postal address); an order without an invoice keeps only its country, which decides its VAT. The e-mail
 * address, phone number, the label's reference line and the marketplace user name go from every order, and the
 * e-mails sent about the orders (the outbox held them whole) are deleted.
 */

/** Open orders still need the customer's address and e-mail: staff finish or cancel them before erasing. */
const openStatuses = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"] as const;

/** The customer's orders: their account's, and guest orders placed with their e-mail address. */
function ordersOf(userId: string, email: string) {
  return or(
    eq(order.userId, userId),
    and(isNull(order.userId), sql`exists (select 1 from ${orderAddress} where ${orderAddress.orderId} = ${order}.${sql.identifier("id")} and lower(${orderAddress.email}) = ${email.toLowerCase()})`),
  )!;
}

/** Everything the shop holds on a customer, as the JSON document staff hand them; the export is logged. */
export async function exportCustomerData(db: Db, userId: string, actor: { userId: string; now?: Date }) {
  const now = actor.now ?? new Date();
  const person = await customerRow(db, userId);
  const customer = await getCustomer(db, userId);
  const orderRows = await db
    .select({
      id: order.id, orderNumber: order.orderNumber, status: order.status, placedAt: order.createdAt, paidAt: order.soldAt, linkedToAccount: isNotNull(order.userId),
      shop: orderDetail.shop, shippingMethod: orderDetail.shippingMethod, carrier: orderDetail.carrier, trackingNumber: orderDetail.trackingNumber,
      shippedAt: orderDetail.shippedAt, deliveredAt: orderDetail.deliveredAt, invoiceNumber: orderDetail.invoiceNumber, marketplaceBuyer: orderDetail.marketplaceBuyer,
    })
    .from(order)
    .leftJoin(orderDetail, eq(orderDetail.orderId, order.id))
    .where(ordersOf(userId, person.email))
    .orderBy(asc(order.createdAt), asc(order.id));
  const orderIds = orderRows.map((row) => row.id);
  const [addresses, lines, payments, cart, passkeys, providers, entries] = await Promise.all([
    orderIds.length ? db.select().from(orderAddress).where(inArray(orderAddress.orderId, orderIds)) : [],
    orderIds.length
      ? db.select({ orderId: orderItem.orderId, product: product.name, quantity: orderItem.quantity, totalPrice: orderItem.totalPrice, discount: orderItem.totalDiscountAmount })
          .from(orderItem).innerJoin(product, eq(product.id, orderItem.productId)).where(inArray(orderItem.orderId, orderIds)).orderBy(asc(orderItem.id))
      : [],
    orderIds.length
      ? db.select({ orderId: paymentDetail.orderId, provider: paymentDetail.provider, total: paymentDetail.total, shipping: paymentDetail.shippingTotal }).from(paymentDetail).where(inArray(paymentDetail.orderId, orderIds))
      : [],
    db.select({ product: product.name, quantity: cartItem.quantity, addedAt: cartItem.createdAt }).from(cartItem).innerJoin(product, eq(product.id, cartItem.productId)).where(eq(cartItem.userId, userId)),
    db.select({ name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt }).from(passkey).where(eq(passkey.userId, userId)),
    db.select({ provider: account.provider, since: account.createdAt }).from(account).where(eq(account.userId, userId)),
    db
      .select({ at: logbook.createdAt, event: logbook.eventType, entityType: logbook.entityType, entityId: logbook.entityId, description: logbook.description, previousState: logbook.previousState, newState: logbook.newState })
      .from(logbook).where(aboutCustomer(userId)).orderBy(asc(logbook.createdAt), asc(logbook.id)),
  ]);

  const document = {
    exportedAt: now,
    account: {
      id: person.id, name: person.name, email: person.email, role: person.role, joinedAt: customer.joinedAt, emailVerifiedAt: person.emailVerified,
      erasedAt: person.erasedAt, staffNote: customer.staffNote, tags: customer.tags, personalDiscount: customer.discount,
      signIns: providers, passkeys,
    },
    addresses: customer.addresses,
    cart,
    orders: orderRows.map(({ id, ...row }) => {
      const address = addresses.find((one) => one.orderId === id);
      const payment = payments.find((one) => one.orderId === id);
      return {
        ...row,
        address: address && {
          firstName: address.firstName, lastName: address.lastName, companyName: address.companyName, street: address.street, houseNumber: address.houseNumber,
          addressLine2: address.addressLine2, postCode: address.postCode, city: address.city, state: address.state, country: address.country,
          countryCode: address.countryCode, email: address.email, phoneNumber: address.phoneNumber, referenceLine: address.referenceLine,
        },
        lines: lines.filter((line) => line.orderId === id).map(({ orderId: _orderId, ...line }) => line),
        payment: payment && { provider: payment.provider, total: payment.total, shipping: payment.shipping },
      };
    }),
    refunds: await customerRefunds(db, userId),
    logbook: entries,
  };

  await logChange(db, {
    userId: actor.userId, eventType: "CUSTOMER", entityType: "USER", entityId: userId,
    description: `Staff exported the personal data of customer ${person.email} on their request (${orderRows.length} orders, ${customer.addresses.length} addresses)`,
  });
  // Plain JSON, as the file staff download holds it: amounts as their decimal text, times as ISO text.
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}

/**
 * Erases a customer's personal data on their request, in one transaction, with its logbook entry (which names the
 * account's id, not the e-mail that is gone). Staff accounts are refused, as is a customer with an order still open.
 * Asked again, it changes nothing and says it was done. The e-mail is replaced, so the same address can sign up anew.
 */
export async function eraseCustomerData(db: Db, userId: string, actor: { userId: string; now?: Date }): Promise<CustomerErasure> {
  const now = actor.now ?? new Date();
  return db.transaction(async (tx) => {
    const person = await customerRow(tx, userId, { lock: true });
    if (person.erasedAt) {
      return { userId, erasedAt: person.erasedAt, alreadyErased: true, addressesDeleted: 0, ordersKeptWithInvoiceAddress: 0, ordersStripped: 0 };
    }
    if (person.role === "ADMIN") throw new AppError("FORBIDDEN", "This is a staff account: staff accounts are not erased as customers.");
    const orders = await tx
      .select({ id: order.id, orderNumber: order.orderNumber, status: order.status, invoiceNumber: orderDetail.invoiceNumber })
      .from(order)
      .leftJoin(orderDetail, eq(orderDetail.orderId, order.id))
      .where(ordersOf(userId, person.email))
      .orderBy(desc(order.id))
      .for("update", { of: order });
    const open = orders.filter((one) => (openStatuses as readonly string[]).includes(one.status));
    if (open.length > 0) {
      throw new AppError(
        "CONFLICT",
        `Order ${open.map((one) => one.orderNumber).join(", ")} is still open and needs the customer's address: ship or cancel it first, then erase.`,
      );
    }

    const placeholder = erasedEmail(userId);
    const orderIds = orders.map((one) => one.id);
    const invoiced = orders.filter((one) => one.invoiceNumber !== null).map((one) => one.id);
    const notInvoiced = orders.filter((one) => one.invoiceNumber === null).map((one) => one.id);
    if (orderIds.length > 0) {
      await tx.update(orderAddress).set({ email: placeholder, phoneNumber: null, referenceLine: null }).where(inArray(orderAddress.orderId, orderIds));
      await tx.update(orderDetail).set({ marketplaceBuyer: null }).where(inArray(orderDetail.orderId, orderIds));
      await tx.delete(orderPlacer).where(inArray(orderPlacer.orderId, orderIds));
      await tx.delete(mailMessage).where(and(inArray(mailMessage.orderId, orderIds), inArray(mailMessage.status, ["SENT", "FAILED"])));
    }
    if (notInvoiced.length > 0) {
      await tx
        .update(orderAddress)
        .set({ firstName: ERASED_NAME, lastName: "", companyName: null, street: "", houseNumber: "", addressLine2: null, postCode: "", city: "" })
        .where(inArray(orderAddress.orderId, notInvoiced));
    }

    const [{ value: addressesDeleted } = { value: 0 }] = await tx.select({ value: count() }).from(addressBook).where(eq(addressBook.userId, userId));
    await tx.delete(addressBook).where(eq(addressBook.userId, userId));
    await tx.delete(cartItem).where(eq(cartItem.userId, userId));
    for (const table of [session, account, passkey, recoveryCode, webauthnChallenge]) await tx.delete(table).where(eq(table.userId, userId));
    await tx.delete(totpFactor).where(eq(totpFactor.userId, userId));
    await tx.delete(verificationToken).where(eq(verificationToken.identifier, person.email));
    await tx.delete(mailOutbox).where(eq(mailOutbox.to, person.email));
    // The logbook keeps what happened, not who it was: their e-mail leaves its lines and states, about them and about
    // their orders (a guest order names the address it was placed with), and their addresses leave its states.
    const aboutTheirOrders = orderIds.length > 0 ? and(eq(logbook.entityType, "ORDER"), inArray(logbook.entityId, orderIds.map(String))) : undefined;
    const withoutEmail = (column: typeof logbook.previousState | typeof logbook.newState) => sql`replace(${column}::text, ${person.email}, ${placeholder})::jsonb`;
    await tx
      .update(logbook)
      .set({
        description: sql`replace(${logbook.description}, ${person.email}, ${placeholder})`,
        previousState: withoutEmail(logbook.previousState),
        newState: withoutEmail(logbook.newState),
      })
      .where(aboutTheirOrders ? or(aboutCustomer(userId), aboutTheirOrders) : aboutCustomer(userId));
    await tx.update(logbook).set({ previousState: null, newState: null }).where(and(eq(logbook.entityType, "ADDRESS_BOOK"), eq(logbook.userId, userId)));

    await tx
      .update(user)
      .set({ name: ERASED_NAME, email: placeholder, emailVerified: null, image: null, staffNote: null, tags: [], discountId: null, role: "USER", erasedAt: now })
      .where(eq(user.id, userId));
    const outcome = { userId, erasedAt: now, alreadyErased: false, addressesDeleted, ordersKeptWithInvoiceAddress: invoiced.length, ordersStripped: notInvoiced.length };
    await logChange(tx, {
      userId: actor.userId, eventType: "CUSTOMER", entityType: "USER", entityId: userId,
      description: `Staff erased the personal data of customer ${userId} on their request: ${addressesDeleted} addresses deleted, ${orders.length} orders kept for the books (${invoiced.length} with their invoice address)`,
      newState: outcome,
    });
    return outcome;
  });
}
