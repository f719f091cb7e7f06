import { relations } from "drizzle-orm";
import { boolean, check, date, index, integer, pgSequence, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { addressColumns, money, timestamps } from "./columns";
import { user } from "./auth";
import { product, productReference } from "./catalogue";
import { discount } from "./discounts";
import { carrier, discountType, orderStatus, paymentProvider, refundReason, refundStatus, refundType, shippingMethod, shop } from "./enums";

/** Numbers the orders for people; a sequence hands out each number once, however many orders are placed at once. */
export const orderNumberSequence = pgSequence("order_number_seq", { startWith: 1, increment: 1 });

/**
 * An order; `userId` is empty for a guest. `soldAt` is when it was paid. `orderNumber` is what the customer and
 * staff quote (BC-2026-000123: the shop, the year it was placed in shop time, and the sequence's next number).
 */
export const order = pgTable(
  "order",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderNumber: text()
      .notNull()
      .default(
        sql`('BC-' || to_char(now() at time zone 'Europe/Amsterdam', 'YYYY') || '-' || lpad(nextval('order_number_seq')::text, 6, '0'))`,
      ),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    status: orderStatus().notNull().default("PENDING"),
    soldAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    // Ascending, read backwards for newest first: drizzle's desc() means DESC NULLS LAST, which no plain
    // `order by ... desc` (NULLS FIRST) can use.
    index("order_user_created_idx").on(t.userId, t.createdAt),
    // The order table's sorts and filters (src/server/orders/order-table.ts): by date, per status, by number.
    index("order_status_created_idx").on(t.status, t.createdAt, t.id),
    index("order_created_idx").on(t.createdAt, t.id),
    index("order_number_pattern_idx").on(t.orderNumber.op("text_pattern_ops")),
    index("order_sold_at_idx").on(t.soldAt),
    uniqueIndex("order_number_unique").on(t.orderNumber),
  ],
);

/**
 * A row's order. What is only part of the order (its address, details, lines, payments) goes with it: `cascade`;
 * a refund is money that moved and keeps its order: `restrict`.
 */
const orderReference = (onDelete: "restrict" | "cascade") => integer().notNull().references(() => order.id, { onDelete });

/**
 * Letters without a combining accent to drop that the order search still reads as plain ones (with their upper
 * case: `lower()` leaves those alone in a database with the C locale, PGlite's), so that "lukasz" finds Łukasz; and
 * the apostrophes it drops, so that "obrien" and "o'brien" both find O'Brien.
 */
export const searchPlainLetters: ReadonlyMap<string, string> = new Map(
  Object.entries({ ł: "l", Ł: "l", ø: "o", Ø: "o", đ: "d", Đ: "d", ı: "i", ħ: "h", Ħ: "h", "'": "", "’": "" }),
);

/**
 * `text` as the order search compares it, in SQL (and in an index): lower case, its accents dropped (decomposed, the
 * combining marks U+0300 to U+036F removed: "Müller" is "muller"), `searchPlainLetters` made plain or dropped.
 */
export function orderSearchFolded(text: SQL): SQL {
  const from = [...searchPlainLetters.keys()].join("");
  const to = [...searchPlainLetters.values()].join("");
  return sql`translate(regexp_replace(normalize(lower(${text}), NFD), ${sql.raw(String.raw`'[\u0300-\u036f]'`)}, '', 'g'), ${sql.raw(`'${from.replaceAll("'", "''")}'`)}, ${sql.raw(`'${to}'`)})`;
}

/** An order address's full name ("anna de vries") and last name ("de vries") as the order search reads them. */
export const orderSearchNames = (t: { firstName: AnyPgColumn; lastName: AnyPgColumn }) => ({
  fullName: orderSearchFolded(sql`${t.firstName} || ' ' || ${t.lastName}`),
  lastName: orderSearchFolded(sql`${t.lastName}`),
});

/** The address an order ships to, copied from the form or the address book when the order is placed. */
export const orderAddress = pgTable(
  "order_address",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: orderReference("cascade"),
    ...addressColumns(),
    email: text().notNull(),
    /** The customer's own reference, printed on the label. */
    referenceLine: text(),
    ...timestamps,
  },
  (t) => [
    index("order_address_order_idx").on(t.orderId),
    // The start of an e-mail, found from the index alone: the column itself rechecks LIKE, order_id answers.
    index("order_address_email_pattern_idx").on(sql`lower(${t.email}) text_pattern_ops`, t.email, t.orderId),
    // The start of a full name or a last name, accents aside (src/server/orders/order-search.ts), from the index
    // alone: PostgreSQL reads an expression from an index only when the columns it is made of are in the index too.
    index("order_address_full_name_start_idx").on(sql`${orderSearchNames(t).fullName} text_pattern_ops`, t.firstName, t.lastName, t.orderId),
    index("order_address_last_name_start_idx").on(sql`${orderSearchNames(t).lastName} text_pattern_ops`, t.lastName, t.orderId),
  ],
);

export const orderDetail = pgTable(
  "order_detail",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: orderReference("cascade"),
    shippingMethod: shippingMethod().notNull(),
    shop: shop().notNull().default("WEBSHOP"),
    /** Placed by staff: a manual order or a counter sale (the MANUAL sales channel of the owner's figures). */
    placedByStaff: boolean().notNull().default(false),
    estimatedShippingDate: date({ mode: "string" }),
    estimatedDeliveryDate: date({ mode: "string" }),
    trackingNumber: text(),
    labelCost: money(),
    /** Grams. */
    totalWeight: integer(),
    orderEmailSent: boolean().notNull().default(false),
    shippingEmailSent: boolean().notNull().default(false),
    carrier: carrier(),
    /** The private storage's key of the label's PDF (`labels/...`); labels hold addresses, so only staff may download them. */
    gcsLabelFilename: text(),
    /** The carrier's product: a PostNL product code (3085, 4907, ...) or a UPS service code (11, 65, ...). */
    carrierProduct: text(),
    /** What the carrier calls the shipment when voiding it: UPS's ShipmentIdentificationNumber, PostNL's barcode. */
    carrierShipmentId: text(),
    /**
     * When the label was bought. Set while `trackingNumber` is still null, it is a claim: a label is being bought for
     * the order right now, so a second request is refused; a claim older than ten minutes was abandoned and is taken over.
     */
    labelCreatedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** When the parcel was handed to the carrier (marked SHIPPED by staff or by the carrier's tracking). */
    shippedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The carrier's last tracking event in its own words, and when it was last asked. */
    trackingStatus: text(),
    trackingCheckedAt: timestamp({ withTimezone: true, mode: "date" }),
    deliveredAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The invoice's number (2026-000042), given once, when the invoice is first made; sequential per year. */
    invoiceNumber: text(),
    /** The marketplace's id of an order imported from it (eBay's `12-34567-89012`); an order is imported once. */
    marketplaceOrderId: text(),
    /** The buyer's marketplace user name, for staff writing to them through the marketplace. */
    marketplaceBuyer: text(),
    /**
     * When the order came in from the marketplace for pieces the web shop had already sold: staff must refund it
     * (the refund is proposed on the order's page). Cleared once it is settled.
     */
    oversoldAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("order_detail_order_unique").on(t.orderId),
    uniqueIndex("order_detail_marketplace_order_unique").on(t.marketplaceOrderId),
    index("order_detail_oversold_idx").on(t.oversoldAt),
    uniqueIndex("order_detail_invoice_number_unique").on(t.invoiceNumber),
    // The order list's shop, carrier and method filters; with the statistics in migration 0011, a combination that
    // matches nothing is known to be rare instead of walking the whole date index.
    index("order_detail_shop_carrier_method_idx").on(t.shop, t.carrier, t.shippingMethod, t.orderId),
  ],
);

/** The last invoice number handed out in each year; a row lock on the year's row numbers invoices without gaps. */
export const invoiceCounter = pgTable("invoice_counter", {
  year: integer().primaryKey(),
  lastNumber: integer().notNull(),
  ...timestamps,
});

/** A line of an order; prices are the totals for the whole quantity at the moment of sale. */
export const orderItem = pgTable(
  "order_item",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: orderReference("cascade"),
    productId: productReference("restrict"),
    quantity: integer().notNull(),
    /**
     * What the customer paid for the whole line, after every discount (product, global, personal and the line's share
     * of a coupon): the list price times the quantity minus `totalDiscountAmount`. Revenue is the sum of these.
     */
    totalPrice: money().notNull(),
    /** How much less than the list price times the quantity the customer paid for the line, all discounts together. */
    totalDiscountAmount: money().notNull().default(sql`0`),
    /** Why staff charged another price than the list price for this line (manual orders only); null otherwise. */
    priceOverrideReason: text(),
    /** The marketplace's id of the line (eBay's lineItemId), which its shipping and refund calls name. */
    marketplaceLineItemId: text(),
    /**
     * Pieces of a marketplace line that were no longer in stock when it was imported (sold on the web shop first):
     * booked out of stock for the rest only, and proposed for a refund.
     */
    oversoldQuantity: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index("order_item_order_idx").on(t.orderId),
    // A product's orders from the index alone (the order table's product search).
    index("order_item_product_order_idx").on(t.productId, t.orderId),
    check("order_item_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/** What was charged for an order and through whom. */
export const paymentDetail = pgTable(
  "payment_detail",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    externalPaymentId: text(),
    orderId: orderReference("cascade"),
    /**
     * What the payment is for: the order's total while it is unpaid; once paid, what the customer paid, which an edit
     * of the order leaves alone (its totals are read from the lines and the charges below). Refunds stop at it.
     */
    total: money().notNull(),
    provider: paymentProvider().notNull(),
    providerFees: money(),
    additionalShippingFees: money(),
    itemTotal: money().notNull(),
    itemTotalDiscountAmount: money().notNull().default(sql`0`),
    shippingTotal: money().notNull(),
    ...timestamps,
  },
  (t) => [
    index("payment_detail_order_idx").on(t.orderId),
    index("payment_detail_total_idx").on(t.total, t.orderId),
    uniqueIndex("payment_detail_external_unique").on(t.externalPaymentId),
  ],
);

/**
 * Money or goods given back. A PRODUCT refund names the order item it returns (with how many pieces), or no item for
 * a goodwill amount; a SHIPPING refund only the order. `orderId` is kept for all so every refund can be listed with
 * its order. Each row is one payout through the provider that took the payment (`monetaryRefund`), or a record of
 * money given back outside it (bank transfer, on account).
 */
export const refund = pgTable(
  "refund",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: orderReference("restrict"),
    externalRefundId: text(),
    originalPaymentId: text(),
    type: refundType().notNull(),
    refundedOrderItemId: integer().references(() => orderItem.id, { onDelete: "restrict" }),
    quantity: integer(),
    amount: money().notNull(),
    restockedProduct: boolean().notNull().default(false),
    providerFees: money(),
    reason: refundReason().notNull(),
    comment: text(),
    monetaryRefund: boolean().notNull().default(true),
    status: refundStatus().notNull().default("PENDING"),
    /**
     * Sent with the provider request: a repeat of the same attempt (after a timeout, or by the follow-up job) gets
     * the refund the first one made instead of a second payout. A retry after the provider refused is a new attempt
     * with a new key, since providers answer a reused key with the cached refusal.
     */
    idempotencyKey: text().notNull(),
    /**
     * When this attempt's request went to a payee that takes no idempotency key (eBay), written before it was sent:
     * a repeat of the attempt asks the payee what the request made instead of sending it again (SECURITY-REVIEW
     * N-M4). A retry after a refusal is a new attempt and clears it.
     */
    sentAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The provider's refusal in its own words, while the refund is FAILED. */
    failureMessage: text(),
    /** When the money was paid out (REFUNDED) or refused (FAILED). */
    settledAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The staff member who gave the refund. */
    userId: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("refund_order_idx").on(t.orderId),
    index("refund_order_item_idx").on(t.refundedOrderItemId),
    uniqueIndex("refund_idempotency_unique").on(t.idempotencyKey),
    // The follow-up job's work list: refunds the provider has not settled yet.
    index("refund_pending_idx").on(t.status, t.createdAt),
    check("refund_amount_positive", sql`${t.amount} > 0`),
    check("refund_quantity_positive", sql`${t.quantity} is null or ${t.quantity} > 0`),
  ],
);

/**
 * A discount that took money off an order, as it stood when the order was placed: the PRODUCT and GLOBAL discounts
 * of its lines and the USER discount or COUPON of the cart. Counts a coupon's uses against its limit and gives each
 * discount its uses and revenue.
 */
export const orderDiscount = pgTable(
  "order_discount",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: orderReference("cascade"),
    discountId: integer().references(() => discount.id, { onDelete: "set null" }),
    discountType: discountType().notNull(),
    /** The discount's name (a coupon's code) when the order was placed. */
    name: text().notNull(),
    /** How much this discount took off the order. */
    amount: money().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("order_discount_order_discount_unique").on(t.orderId, t.discountId), index("order_discount_discount_idx").on(t.discountId, t.orderId)],
);

/**
 * Who placed an unpaid web order, kept while it is PENDING so that what one buyer's unpaid orders hold together can be
 * capped (src/server/orders/unpaid-holds.ts, SECURITY-REVIEW N-H2); the unpaid-order sweep deletes the row once the
 * order is paid or cancelled. The client's network address and the e-mail address are stored as keyed hashes
 * (`placerKey`): equal callers still compare equal, but the table never holds a visitor's address in clear, and a
 * copy of it without the secret does not give the addresses back.
 */
export const orderPlacer = pgTable(
  "order_placer",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: orderReference("cascade"),
    /** The keyed hash of the client's network address the order came from. */
    clientKey: text().notNull(),
    /** The anonymous visitor id of the buyer's visitor token, when the request carried a valid one. */
    visitorId: text(),
    /** The keyed hash of the order's e-mail address, in lower case. */
    emailKey: text().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("order_placer_order_unique").on(t.orderId),
    index("order_placer_client_idx").on(t.clientKey),
    index("order_placer_visitor_idx").on(t.visitorId),
    index("order_placer_email_idx").on(t.emailKey),
  ],
);

/** A signed-in customer's cart line; anonymous carts live in the browser. */
export const cartItem = pgTable(
  "cart_item",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: productReference("cascade"),
    quantity: integer().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("cart_item_user_product_unique").on(t.userId, t.productId),
    check("cart_item_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

export const orderRelations = relations(order, ({ one, many }) => ({
  user: one(user, { fields: [order.userId], references: [user.id] }),
  addresses: many(orderAddress),
  details: many(orderDetail),
  items: many(orderItem),
  paymentDetails: many(paymentDetail),
  refunds: many(refund),
}));

export const orderAddressRelations = relations(orderAddress, ({ one }) => ({
  order: one(order, { fields: [orderAddress.orderId], references: [order.id] }),
}));

export const orderDetailRelations = relations(orderDetail, ({ one }) => ({
  order: one(order, { fields: [orderDetail.orderId], references: [order.id] }),
}));

export const orderItemRelations = relations(orderItem, ({ one }) => ({
  order: one(order, { fields: [orderItem.orderId], references: [order.id] }),
  product: one(product, { fields: [orderItem.productId], references: [product.id] }),
}));

export const paymentDetailRelations = relations(paymentDetail, ({ one }) => ({
  order: one(order, { fields: [paymentDetail.orderId], references: [order.id] }),
}));

export const refundRelations = relations(refund, ({ one }) => ({
  order: one(order, { fields: [refund.orderId], references: [order.id] }),
  orderItem: one(orderItem, { fields: [refund.refundedOrderItemId], references: [orderItem.id] }),
}));

export const cartItemRelations = relations(cartItem, ({ one }) => ({
  user: one(user, { fields: [cartItem.userId], references: [user.id] }),
  product: one(product, { fields: [cartItem.productId], references: [product.id] }),
}));

