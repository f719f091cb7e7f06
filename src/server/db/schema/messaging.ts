import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { order, refund } from "./orders";

/**
 * Every e-mail the sandbox mail adapter "sent" (HTML and text), so that a person or a test can open it at
 * /dev/outbox. Kept in the database rather than in memory so that every app instance writes to one outbox.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    to: text().notNull(),
    from: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    /** What the message is for (sign-in link, order confirmation ...), and the links a reader would click. */
    kind: text().notNull(),
    links: jsonb().$type<string[]>().notNull().default([]),
    /** The message's key (MailMessage.idempotencyKey): a second delivery with the same key is not kept twice, as Resend does. */
    idempotencyKey: text(),
    ...timestamps,
  },
  (t) => [index("mail_outbox_to_created_idx").on(t.to, t.createdAt.desc()), uniqueIndex("mail_outbox_idempotency_unique").on(t.idempotencyKey)],
);

/**
 * The shop's e-mails to customers on their way out (the transactional outbox, RELIABILITY-REVIEW D1): each is written,
 * rendered, in the transaction that makes it necessary (a payment recorded, an order shipped, a refund paid) and
 * delivered afterwards by the `mail-delivery` job, at least once, under its idempotency key, so that a crash or a stop
 * while sending only means sending again under the same key. Sign-in links are not here: they go at once.
 */
export const mailMessage = pgTable(
  "mail_message",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    /** One per e-mail for good (`order-confirmation/BC-2026-000123`): written once, and sent under it to the mail service. */
    idempotencyKey: text().notNull(),
    kind: text().notNull(),
    to: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    links: jsonb().$type<string[]>().notNull().default([]),
    /** The order (and refund) it is about, for the order page and the logbook. */
    orderId: integer().references(() => order.id, { onDelete: "cascade" }),
    refundId: integer().references(() => refund.id, { onDelete: "cascade" }),
    /** The order detail's e-mail flag set once it is delivered (what staff read as "Sent"). */
    orderFlag: text().$type<"orderEmailSent" | "shippingEmailSent">(),
    /** What the logbook says once it is delivered. */
    description: text().notNull(),
    /** QUEUED until the mail service took it (SENT), or FAILED once every try did. */
    status: text().$type<"QUEUED" | "SENT" | "FAILED">().notNull().default("QUEUED"),
    attempts: integer().notNull().default(0),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("mail_message_idempotency_unique").on(t.idempotencyKey),
    index("mail_message_order_idx").on(t.orderId),
    index("mail_message_refund_idx").on(t.refundId),
    check("mail_message_status_known", sql`${t.status} in ('QUEUED', 'SENT', 'FAILED')`),
  ],
);

/**
 * Fixed-window counters for rate limits (sign-in e-mails per address and per client). One row per key; a single
 * upsert counts a hit atomically, so the limit holds across several app instances on one database.
 */
export const rateLimit = pgTable(
  "rate_limit",
  {
    key: text().primaryKey(),
    windowStartedAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    hits: integer().notNull(),
    ...timestamps,
  },
  (t) => [index("rate_limit_window_idx").on(t.windowStartedAt)],
);
