import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { UserRole } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { configParams, logbook, session, user } from "@/server/db/schema";
import { hashSessionToken } from "@/server/auth/session-token";
import { createSandboxPrivateStorage, createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { logger } from "@/server/logger";
import type { TRPCContext } from "@/server/trpc";
import { EXCHANGE_RATE_PARAM } from "@/server/stock/exchange-rate";

// Small fixtures shared by the admin integration tests; each test file builds its own rows with them.

export async function makeUser(db: Db, role: UserRole, name = `${role.toLowerCase()} user`) {
  const [row] = await db
    .insert(user)
    .values({ name, email: `${role.toLowerCase()}-${randomBytes(4).toString("hex")}@example.com`, role })
    .returning();
  return row!;
}

/**
 * An Auth.js database session for the user, as the sign-in flow writes it (under its token's hash); returns the
 * cookie token. A member of staff's session has its second factor confirmed, as after the factor's page, unless
 * `secondFactor: false` asks for one still owing it (signed in by e-mail link only).
 */
export async function makeSession(db: Db, userId: string, options: { secondFactor?: boolean } = {}): Promise<string> {
  const sessionToken = randomBytes(24).toString("hex");
  const confirmed = options.secondFactor === false ? {} : { secondFactorAt: new Date(), secondFactor: "totp" as const };
  await db.insert(session).values({ sessionToken: hashSessionToken(sessionToken), userId, expires: new Date(Date.now() + 3_600_000), ...confirmed });
  return sessionToken;
}

export async function setExchangeRate(db: Db, value: string) {
  await db
    .insert(configParams)
    .values({ param: EXCHANGE_RATE_PARAM, value })
    .onConflictDoUpdate({ target: configParams.param, set: { value } });
}

/** A caller context for a signed-in user (or anonymous with null), on the test's database. */
export function contextFor(db: Db, who: { id: string; name: string | null; email: string; role: UserRole } | null): TRPCContext {
  return {
    db,
    session: who
      ? { user: { id: who.id, name: who.name, email: who.email, image: null, role: who.role }, expires: new Date(Date.now() + 3_600_000) }
      : null,
    caller: { client: "203.0.113.9", visitorId: null },
    requestId: "test",
    log: logger.child({ test: true }),
    headers: new Headers(),
  };
}

export function temporaryStorage() {
  return createSandboxStorage({ root: mkdtempSync(path.join(os.tmpdir(), "admin-storage-")) });
}

/** A private storage of its own (labels), as `temporaryStorage` is a public one. */
export function temporaryPrivateStorage() {
  return createSandboxPrivateStorage({ root: mkdtempSync(path.join(os.tmpdir(), "admin-private-storage-")) });
}

export async function logEntriesFor(db: Db, entityType: "BOX" | "PRODUCT" | "PURCHASE_RECORD", entityId: number | string) {
  return db
    .select()
    .from(logbook)
    .where(eq(logbook.entityId, String(entityId)))
    .then((rows) => rows.filter((row) => row.entityType === entityType).sort((a, b) => a.id - b.id));
}
