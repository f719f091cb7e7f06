import { relations, sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { money, timestamps } from "./columns";
import { paymentProvider } from "./enums";

// The payment statuses of src/server/integrations/payments/port.ts, spelled out for the database's check constraints.
const statusCheck = (column: AnyPgColumn) =>
  sql`${column} in ('open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired')`;

/**
 * A payment taken by the sandbox payment provider, which stands in for Mollie and PayPal in the embedded default.
 * Kept in the database rather than in memory so that whichever app instance serves the hosted-payment page or
 * the webhook sees the same payment. Like a real provider's record it knows our order only by the id in its
 * metadata, so there is no foreign key to `order`.
 */
export const sandboxPayment = pgTable(
  "sandbox_payment",
  {
    /** `sbx_` and random letters, the way Mollie's ids start with `tr_`. */
    id: text().primaryKey(),
    orderId: integer().notNull(),
    amount: money().notNull(),
    description: text().notNull(),
    method: paymentProvider().notNull(),
    status: text().notNull().default("open"),
    redirectUrl: text().notNull(),
    webhookUrl: text().notNull(),
    /** A repeated create with the same key returns this payment instead of making a second one. */
    idempotencyKey: text().notNull(),
    /** When the buyer chose the outcome on the hosted-payment page. */
    completedAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("sandbox_payment_idempotency_unique").on(t.idempotencyKey),
    index("sandbox_payment_order_idx").on(t.orderId),
    check("sandbox_payment_status_valid", statusCheck(t.status)),
  ],
);

/** A refund of a sandbox payment; the sandbox pays refunds out at once. */
export const sandboxRefund = pgTable(
  "sandbox_refund",
  {
    id: text().primaryKey(),
    paymentId: text()
      .notNull()
      .references(() => sandboxPayment.id, { onDelete: "cascade" }),
    amount: money().notNull(),
    description: text(),
    idempotencyKey: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("sandbox_refund_idempotency_unique").on(t.idempotencyKey), index("sandbox_refund_payment_idx").on(t.paymentId)],
);

/**
 * A payment status reported by a provider's webhook that the shop has acted on. One row per provider, payment and
 * status: a replayed or repeated callback that leads to a status already acted on finds its row and changes
 * nothing. `eventId` is the provider's own event id where it sends one (PayPal); Mollie's callbacks carry none.
 */
export const webhookEvent = pgTable(
  "webhook_event",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    provider: text().notNull(),
    externalPaymentId: text().notNull(),
    status: text().notNull(),
    eventId: text(),
    receivedAt: timestamp({ withTimezone: true, mode: "date" }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("webhook_event_payment_status_unique").on(t.provider, t.externalPaymentId, t.status),
    index("webhook_event_received_idx").on(t.receivedAt),
    check("webhook_event_status_valid", statusCheck(t.status)),
  ],
);

export const sandboxPaymentRelations = relations(sandboxPayment, ({ many }) => ({
  refunds: many(sandboxRefund),
}));

export const sandboxRefundRelations = relations(sandboxRefund, ({ one }) => ({
  payment: one(sandboxPayment, { fields: [sandboxRefund.paymentId], references: [sandboxPayment.id] }),
}));
