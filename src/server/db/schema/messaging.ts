import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

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
    ...timestamps,
  },
  (t) => [index("mail_outbox_to_created_idx").on(t.to, t.createdAt.desc())],
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
