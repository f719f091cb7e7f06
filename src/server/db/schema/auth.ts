import { relations, sql } from "drizzle-orm";
import { boolean, index, integer, primaryKey, text, timestamp, uniqueIndex, pgTable } from "drizzle-orm/pg-core";
import { addressColumns, timestamps } from "./columns";
import { discount } from "./discounts";
import { userRole } from "./enums";

// The four Auth.js tables keep the column set its Drizzle adapter expects (SPEC section 3), plus the shop's role
// and personal discount on the user.

export const user = pgTable(
  "user",
  {
    id: text().primaryKey().$defaultFn(() => crypto.randomUUID()),
    name: text(),
    email: text().notNull(),
    emailVerified: timestamp({ withTimezone: true, mode: "date" }),
    image: text(),
    role: userRole().notNull().default("USER"),
    discountId: integer().references(() => discount.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("user_email_unique").on(t.email)],
);

export const account = pgTable(
  "account",
  {
    id: text().notNull().unique().$defaultFn(() => crypto.randomUUID()),
    userId: text().notNull().references(() => user.id, { onDelete: "cascade" }),
    type: text().notNull(),
    provider: text().notNull(),
    providerAccountId: text().notNull(),
    refresh_token: text(),
    access_token: text(),
    expires_at: integer(),
    token_type: text(),
    scope: text(),
    id_token: text(),
    session_state: text(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index("account_user_idx").on(t.userId)],
);

export const session = pgTable(
  "session",
  {
    id: text().notNull().unique().$defaultFn(() => crypto.randomUUID()),
    sessionToken: text().primaryKey(),
    userId: text().notNull().references(() => user.id, { onDelete: "cascade" }),
    expires: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

export const verificationToken = pgTable(
  "verification_token",
  {
    identifier: text().notNull(),
    token: text().notNull(),
    expires: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/** A customer's saved addresses; one of them may be the default for checkout. */
export const addressBook = pgTable(
  "address_book",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: text().notNull().references(() => user.id, { onDelete: "cascade" }),
    ...addressColumns(),
    email: text(),
    /** The address checkout suggests first; at most one per customer. */
    isDefault: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index("address_book_user_idx").on(t.userId),
    uniqueIndex("address_book_one_default").on(t.userId).where(sql`${t.isDefault}`),
  ],
);

export const userRelations = relations(user, ({ one, many }) => ({
  discount: one(discount, { fields: [user.discountId], references: [discount.id] }),
  accounts: many(account),
  sessions: many(session),
  addresses: many(addressBook),
}));

export const accountRelations = relations(account, ({ one }) => ({
  user: one(user, { fields: [account.userId], references: [user.id] }),
}));

export const sessionRelations = relations(session, ({ one }) => ({
  user: one(user, { fields: [session.userId], references: [user.id] }),
}));

export const addressBookRelations = relations(addressBook, ({ one }) => ({
  user: one(user, { fields: [addressBook.userId], references: [user.id] }),
}));
