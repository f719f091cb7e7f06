import { relations, sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, primaryKey, text, timestamp, uniqueIndex, pgTable } from "drizzle-orm/pg-core";
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
    /** Staff's own notes on the customer, never shown to them. */
    staffNote: text(),
    /** Staff's labels for the customer ("dealer", "collector Seiko"), to find and group them. */
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    /**
     * When the customer's personal data was erased on their request (GDPR art. 17): the row stays for the orders and
     * invoices the books must keep, with its name and e-mail replaced.
     */
    erasedAt: timestamp({ withTimezone: true, mode: "date" }),
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
    /**
     * SHA-256 (hex) of the token in the session cookie, never the token: the cookie is the only key to the session,
     * and a backup or a copy of the database must not hold one that works (SECURITY-REVIEW N-M6). See session-token.ts.
     */
    sessionToken: text().primaryKey(),
    userId: text().notNull().references(() => user.id, { onDelete: "cascade" }),
    expires: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    /**
     * When this session's second factor was confirmed, and with what (`passkey`, `totp`, `recovery-code`). A staff
     * session without one reaches nothing but the second factor's page (second-factor.ts).
     */
    secondFactorAt: timestamp({ withTimezone: true, mode: "date" }),
    secondFactor: text().$type<SecondFactorKind>(),
    ...timestamps,
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

export type SecondFactorKind = "passkey" | "totp" | "recovery-code";

/** A WebAuthn credential (a passkey) a person registered: it signs them in, and is a second factor for staff. */
export const passkey = pgTable(
  "passkey",
  {
    /** The credential's id, base64url, as the authenticator gives it. */
    id: text().primaryKey(),
    userId: text().notNull().references(() => user.id, { onDelete: "cascade" }),
    /** The credential's public key (COSE), base64url. */
    publicKey: text().notNull(),
    /** The authenticator's signature counter: one that goes back is a cloned authenticator. */
    counter: integer().notNull().default(0),
    transports: jsonb().$type<string[]>().notNull().default([]),
    /** Whether it is synced between devices (a "multi-device" passkey) and backed up. */
    deviceType: text().notNull(),
    backedUp: boolean().notNull(),
    /** What its owner calls it ("MacBook", "YubiKey"). */
    name: text().notNull(),
    lastUsedAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [index("passkey_user_idx").on(t.userId)],
);

/** An authenticator app's secret (TOTP), encrypted at rest; usable once its first code was confirmed. */
export const totpFactor = pgTable("totp_factor", {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  /** AES-256-GCM under a key derived from AUTH_SECRET (second-factor.ts). */
  encryptedSecret: text().notNull(),
  /** The last 30-second step a code was taken for: a code is taken once. */
  lastUsedStep: integer(),
  confirmedAt: timestamp({ withTimezone: true, mode: "date" }),
  ...timestamps,
});

/** One-time codes that stand in for a lost second factor; kept as SHA-256 hashes. */
export const recoveryCode = pgTable(
  "recovery_code",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: text().notNull().references(() => user.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [index("recovery_code_user_idx").on(t.userId), uniqueIndex("recovery_code_hash_unique").on(t.userId, t.codeHash)],
);

/**
 * A WebAuthn ceremony under way: the challenge the server gave, for what, to whom (none for a passkey sign-in, which
 * names its user only in its answer). Kept in the database so that every instance knows it; used once, and short-lived.
 */
export const webauthnChallenge = pgTable(
  "webauthn_challenge",
  {
    id: text().primaryKey(),
    challenge: text().notNull(),
    purpose: text().$type<"register" | "second-factor" | "sign-in">().notNull(),
    userId: text().references(() => user.id, { onDelete: "cascade" }),
    expiresAt: timestamp({ withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (t) => [index("webauthn_challenge_expires_idx").on(t.expiresAt)],
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
