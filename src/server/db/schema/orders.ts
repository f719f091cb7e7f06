import { relations } from "drizzle-orm";
import { boolean, check, date, index, integer, pgSequence, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { addressColumns, money, timestamps } from "./columns";
import { user } from "./auth";
import { product } from "./catalogue";
import { carrier, orderStatus, paymentProvider, refundReason, refundType, shippingMethod, shop } from "./enums";

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
    index("order_user_idx").on(t.userId, t.createdAt.desc()),
    index("order_status_idx").on(t.status, t.createdAt.desc()),
    index("order_sold_at_idx").on(t.soldAt),
    uniqueIndex("order_number_unique").on(t.orderNumber),
  ],
);

/** The address an order ships to, copied from the form or the address book when the order is placed. */
export const orderAddress = pgTable(
  "order_address",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => order.id, { onDelete: "cascade" }),
    ...addressColumns(),
    email: text().notNull(),
    /** The customer's own reference, printed on the label. */
    referenceLine: text(),
    ...timestamps,
  },
  (t) => [index("order_address_order_idx").on(t.orderId)],
);

export const orderDetail = pgTable(
  "order_detail",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => order.id, { onDelete: "cascade" }),
    shippingMethod: shippingMethod().notNull(),
    shop: shop().notNull().default("WEBSHOP"),
    estimatedShippingDate: date({ mode: "string" }),
    estimatedDeliveryDate: date({ mode: "string" }),
    trackingNumber: text(),
    labelCost: money(),
    /** Grams. */
    totalWeight: integer(),
    orderEmailSent: boolean().notNull().default(false),
    shippingEmailSent: boolean().notNull().default(false),
    carrier: carrier(),
    /** The storage key of the label's PDF (`labels/...`); labels hold addresses, so only staff may download them. */
    gcsLabelFilename: text(),
    /** The carrier's product: a PostNL product code (3085, 4907, ...) or a UPS service code (11, 65, ...). */
    carrierProduct: text(),
    /** What the carrier calls the shipment when voiding it: UPS's ShipmentIdentificationNumber, PostNL's barcode. */
    carrierShipmentId: text(),
    labelCreatedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** When the parcel was handed to the carrier (marked SHIPPED by staff or by the carrier's tracking). */
    shippedAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The carrier's last tracking event in its own words, and when it was last asked. */
    trackingStatus: text(),
    trackingCheckedAt: timestamp({ withTimezone: true, mode: "date" }),
    deliveredAt: timestamp({ withTimezone: true, mode: "date" }),
    /** The invoice's number (2026-000042), given once, when the invoice is first made; sequential per year. */
    invoiceNumber: text(),
    ...timestamps,
  },
  (t) => [uniqueIndex("order_detail_order_unique").on(t.orderId), uniqueIndex("order_detail_invoice_number_unique").on(t.invoiceNumber)],
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
    orderId: integer()
      .notNull()
      .references(() => order.id, { onDelete: "cascade" }),
    productId: integer()
      .notNull()
      .references(() => product.id, { onDelete: "restrict" }),
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
    ...timestamps,
  },
  (t) => [
    index("order_item_order_idx").on(t.orderId),
    index("order_item_product_idx").on(t.productId),
    check("order_item_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/** What was charged for an order and through whom. */
export const paymentDetail = pgTable(
  "payment_detail",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    externalPaymentId: text(),
    orderId: integer()
      .notNull()
      .references(() => order.id, { onDelete: "cascade" }),
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
    uniqueIndex("payment_detail_external_unique").on(t.externalPaymentId),
  ],
);

/**
 * Money or goods given back. A PRODUCT refund names the order item it returns; a SHIPPING refund only the order.
 * `orderId` is kept for both so every refund can be listed with its order.
 */
export const refund = pgTable(
  "refund",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => order.id, { onDelete: "restrict" }),
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
    ...timestamps,
  },
  (t) => [index("refund_order_idx").on(t.orderId), index("refund_order_item_idx").on(t.refundedOrderItemId)],
);

/** A signed-in customer's cart line; anonymous carts live in the browser. */
export const cartItem = pgTable(
  "cart_item",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: integer()
      .notNull()
      .references(() => product.id, { onDelete: "cascade" }),
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

