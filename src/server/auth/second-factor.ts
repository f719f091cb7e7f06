import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import { env } from "@/env";
import { seal as sealSecret, unseal as unsealSecret } from "@/server/config/sealed-secret";
import type { Db } from "@/server/db/client";
import { passkey, recoveryCode, session, totpFactor, type SecondFactorKind } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import { hitRateLimit, overRateLimit } from "@/server/rate-limit/service";
import { DEMO_ADMIN_TOTP_SECRET } from "./demo-admin";
import type { TotpSetup } from "./second-factor-schemas";
import type { PendingSession, SessionUser } from "./session";
import { base32Decode, base32Encode, matchingTotpStep, newTotpSecret, otpauthUri, totpCode, totpStep } from "./totp";

/*
 * The second factor staff confirm after the e-mail link (OWASP ASVS 5.0 accepts e-mail alone no longer: an ADMIN
 * account reached through a mailbox alone could empty the shop). A staff session starts without one and reaches
 * nothing but this (session.ts); confirming a passkey (passkeys.ts), an authenticator app's code or a recovery code
 * marks the session, and it is then signed in in full. On the first sign-in, with no factor yet, staff register one:
 * that is the moment a mailbox alone is trusted, once. Customers need none, and may add passkeys to sign in with.
 */

/** Who is working with their factors: the user, and their session when it still owes its second factor. */
export type FactorHolder = { user: SessionUser; pending: PendingSession | null };

export type PasskeySummary = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; synced: boolean };
export type Factors = { passkeys: PasskeySummary[]; totp: boolean; recoveryCodesLeft: number };

/** How many recovery codes a set holds: enough for years of lost phones. */
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes (app or recovery) per person in 15 minutes: a person mistypes a few; a guesser gets nowhere. */
const CODE_TRIES = { limit: 10, windowMs: 15 * 60_000 };

export async function factorsOf(db: Db, userId: string): Promise<Factors> {
  const [passkeys, [totp], [codes]] = await Promise.all([
    db
      .select({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt, deviceType: passkey.deviceType })
      .from(passkey)
      .where(eq(passkey.userId, userId))
      .orderBy(asc(passkey.createdAt)),
    db.select({ confirmedAt: totpFactor.confirmedAt }).from(totpFactor).where(eq(totpFactor.userId, userId)),
    db.select({ left: count() }).from(recoveryCode).where(and(eq(recoveryCode.userId, userId), isNull(recoveryCode.usedAt))),
  ]);
  return {
    passkeys: passkeys.map(({ deviceType, ...rest }) => ({ ...rest, synced: deviceType === "multiDevice" })),
    totp: Boolean(totp?.confirmedAt),
    recoveryCodesLeft: codes?.left ?? 0,
  };
}

const hasFactor = (factors: Factors) => factors.passkeys.length > 0 || factors.totp;

/**
 * Refuses adding a factor where that would let a mailbox alone in: a session still owing its second factor may add
 * one only while the account has none (the first sign-in); after that, only a fully signed-in session may.
 */
export async function assertMayAddFactor(db: Db, holder: FactorHolder): Promise<Factors> {
  const factors = await factorsOf(db, holder.user.id);
  if (holder.pending && hasFactor(factors)) {
    throw new AppError("FORBIDDEN", "This account has a second factor already: confirm your sign-in with it, then add another from your security page.");
  }
  return factors;
}

const securityEntry = (user: SessionUser) => ({ userId: user.id, eventType: "SECURITY", entityType: "USER", entityId: user.id }) as const;

/** Marks a session as having confirmed its second factor, in the caller's transaction, and logs it. */
export async function confirmSecondFactor(tx: Db, pending: PendingSession, kind: SecondFactorKind, now: Date = new Date()): Promise<void> {
  await tx.update(session).set({ secondFactorAt: now, secondFactor: kind }).where(eq(session.id, pending.sessionId));
  await logChange(tx, { ...securityEntry(pending.user), newState: { secondFactor: kind }, description: `${pending.user.email} confirmed their sign-in with ${factorWords[kind]}` });
}

const factorWords: Record<SecondFactorKind, string> = { passkey: "a passkey", totp: "their authenticator app", "recovery-code": "a recovery code" };

const codeTriesKey = (userId: string) => `second-factor:user:${userId}`;

/** Refuses a code from a person who typed too many wrong ones lately; right ones are not counted. */
async function refuseAfterTooManyWrongCodes(db: Db, userId: string, now: Date): Promise<void> {
  const over = await overRateLimit(db, codeTriesKey(userId), CODE_TRIES, now);
  if (!over) return;
  const minutes = Math.max(1, Math.ceil(over.retryAfterMs / 60_000));
  throw new AppError("TOO_MANY_REQUESTS", `Too many wrong codes. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
}

/**
 * Runs `check` of a typed code, counting it against the person when it was wrong (a BAD_REQUEST), after the
 * transaction it ran in rolled back.
 */
async function countingWrongCodes<T>(db: Db, userId: string, now: Date, check: () => Promise<T>): Promise<T> {
  await refuseAfterTooManyWrongCodes(db, userId, now);
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.code === "BAD_REQUEST") await hitRateLimit(db, codeTriesKey(userId), CODE_TRIES, now);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Authenticator apps (TOTP)

// TOTP secrets are sealed at rest (config/sealed-secret.ts), with the key of their own use.
const seal = (secret: Uint8Array) => sealSecret("totp-secret", secret);
const unseal = (text: string): Uint8Array => unsealSecret("totp-secret", text);

/**
 * Starts setting up an authenticator app: a new secret, kept sealed and unconfirmed until the app's first code comes
 * back (`confirmTotpSetup`); an earlier unconfirmed one is replaced. An app already confirmed stays until removed.
 */
export async function startTotpSetup(db: Db, holder: FactorHolder): Promise<TotpSetup> {
  const factors = await assertMayAddFactor(db, holder);
  if (factors.totp) throw new AppError("CONFLICT", "An authenticator app is set up already; remove it first to set up another.");
  const secret = newTotpSecret();
  await db
    .insert(totpFactor)
    .values({ userId: holder.user.id, encryptedSecret: seal(secret) })
    .onConflictDoUpdate({ target: totpFactor.userId, set: { encryptedSecret: seal(secret), lastUsedStep: null, confirmedAt: null } });
  const uri = otpauthUri({ issuer: env.SHOP_NAME, account: holder.user.email, secret });
  return { otpauthUri: uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }), secret: base32Encode(secret).replace(/(.{4})/g, "$1 ").trim() };
}

/**
 * Takes the app's code for its secret, once: the step is recorded, so the same code (or an older one) never counts
 * twice. Answers whether it matched. Runs under the factor's row lock in the caller's transaction.
 */
async function takeTotpCode(tx: Db, userId: string, code: string, now: Date, confirmed: boolean): Promise<boolean> {
  const [row] = await tx.select().from(totpFactor).where(eq(totpFactor.userId, userId)).for("update");
  if (!row || Boolean(row.confirmedAt) !== confirmed) return false;
  const step = matchingTotpStep(unseal(row.encryptedSecret), code, now);
  if (step === null || (row.lastUsedStep !== null && step <= row.lastUsedStep)) return false;
  await tx
    .update(totpFactor)
    .set({ lastUsedStep: step, ...(confirmed ? {} : { confirmedAt: now }) })
    .where(eq(totpFactor.userId, userId));
  return true;
}

const WRONG_CODE = "That code is not right, or was used already. Type the code your app shows now.";

/**
 * Confirms the app being set up with its first code. A session still owing its second factor is confirmed by it.
 * Answers new recovery codes when the person had none (shown once), else null.
 */
export async function confirmTotpSetup(db: Db, holder: FactorHolder, code: string, now: Date = new Date()): Promise<{ recoveryCodes: string[] | null }> {
  await assertMayAddFactor(db, holder);
  return countingWrongCodes(db, holder.user.id, now, () =>
    db.transaction(async (tx) => {
      if (!(await takeTotpCode(tx, holder.user.id, code, now, false))) throw new AppError("BAD_REQUEST", WRONG_CODE);
      return factorAdded(tx, holder, "totp", now);
    }),
  );
}

/** Confirms a waiting staff session with the app's current code. */
export async function verifyTotp(db: Db, pending: PendingSession, code: string, now: Date = new Date()): Promise<void> {
  await countingWrongCodes(db, pending.user.id, now, () =>
    db.transaction(async (tx) => {
      if (!(await takeTotpCode(tx, pending.user.id, code, now, true))) throw new AppError("BAD_REQUEST", WRONG_CODE);
      await confirmSecondFactor(tx, pending, "totp", now);
    }),
  );
}

/** Removes the authenticator app, unless it is a member of staff's last second factor. */
export async function removeTotp(db: Db, user: SessionUser): Promise<void> {
  await db.transaction(async (tx) => {
    const factors = await factorsOf(tx, user.id);
    if (!factors.totp) throw new AppError("NOT_FOUND", "No authenticator app is set up.");
    if (user.role === "ADMIN" && factors.passkeys.length === 0) throw new AppError("CONFLICT", "Add a passkey first: staff keep at least one second factor.");
    await tx.delete(totpFactor).where(eq(totpFactor.userId, user.id));
    await factorRemoved(tx, user, "their authenticator app");
  });
}

/**
 * The demo admin's code now, for the sandbox's second factor page: on the embedded default the demo admin's
 * authenticator secret is published (README), so that a first look at the back office is not blocked. Null for
 * anyone else and wherever the secret is not the demo's.
 */
export async function demoTotpCode(db: Db, user: SessionUser, now: Date = new Date()): Promise<string | null> {
  const [row] = await db.select().from(totpFactor).where(eq(totpFactor.userId, user.id));
  if (!row?.confirmedAt) return null;
  const secret = unseal(row.encryptedSecret);
  if (base32Encode(secret) !== DEMO_ADMIN_TOTP_SECRET) return null;
  // A code is taken once: after a sign-in this half minute, the next step's code (which is taken too) still works.
  const step = Math.max(totpStep(now), (row.lastUsedStep ?? 0) + 1);
  return step <= totpStep(now) + 1 ? totpCode(secret, step) : null;
}


/** Gives a user an authenticator app with `secret` (base32), confirmed: the demo admin's, as the seed makes it. */
export async function setConfirmedTotp(tx: Db, userId: string, secret: string, now: Date = new Date()): Promise<void> {
  const sealed = seal(base32Decode(secret));
  await tx
    .insert(totpFactor)
    .values({ userId, encryptedSecret: sealed, confirmedAt: now })
    .onConflictDoUpdate({ target: totpFactor.userId, set: { encryptedSecret: sealed, confirmedAt: now, lastUsedStep: null } });
}

// ---------------------------------------------------------------------------------------------------------------
// Recovery codes

const hashCode = (code: string) => createHash("sha256").update(code.replace(/[\s-]/g, "").toUpperCase()).digest("hex");
const CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const letters = [...bytes].map((byte) => CODE_LETTERS[byte % CODE_LETTERS.length]).join("");
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** A new set of recovery codes for the user, replacing any earlier set; answers them for showing once. */
export async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCode).where(eq(recoveryCode.userId, userId));
  await tx.insert(recoveryCode).values(codes.map((code) => ({ userId, codeHash: hashCode(code) })));
  return codes;
}

/** A new set of recovery codes on the security page, logged. */
export async function renewRecoveryCodes(db: Db, user: SessionUser): Promise<string[]> {
  return db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, user.id);
    await logChange(tx, { ...securityEntry(user), description: `${user.email} made a new set of recovery codes; the old ones no longer work` });
    return codes;
  });
}

/** Confirms a waiting staff session with one of its recovery codes, which is then used up; staff are told. */
export async function useRecoveryCode(db: Db, pending: PendingSession, code: string, now: Date = new Date()): Promise<{ left: number }> {
  return countingWrongCodes(db, pending.user.id, now, () => db.transaction(async (tx) => {
    const [used] = await tx
      .update(recoveryCode)
      .set({ usedAt: now })
      .where(and(eq(recoveryCode.userId, pending.user.id), eq(recoveryCode.codeHash, hashCode(code)), isNull(recoveryCode.usedAt)))
      .returning({ id: recoveryCode.id });
    if (!used) throw new AppError("BAD_REQUEST", "That recovery code is not right, or was used already.");
    await confirmSecondFactor(tx, pending, "recovery-code", now);
    const { recoveryCodesLeft } = await factorsOf(tx, pending.user.id);
    await notifyStaff(tx, {
      type: "OTHER",
      severity: "WARNING",
      message: `${pending.user.email} signed in with a recovery code (${recoveryCodesLeft} left). If that was not them, remove their sessions and factors.`,
    });
    return { left: recoveryCodesLeft };
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Shared by the kinds of factor

/**
 * After a factor was added, in its transaction: logged, staff told of a staff account's new factor, the waiting
 * session confirmed by it, and recovery codes made when the person has none yet (answered, to show once).
 */
export async function factorAdded(tx: Db, holder: FactorHolder, kind: "passkey" | "totp", now: Date): Promise<{ recoveryCodes: string[] | null }> {
  const what = kind === "passkey" ? "a passkey" : "an authenticator app";
  await logChange(tx, { ...securityEntry(holder.user), description: `${holder.user.email} added ${what} as a sign-in factor` });
  if (holder.user.role === "ADMIN") {
    await notifyStaff(tx, { type: "OTHER", severity: "INFO", message: `${holder.user.email} added ${what} as a second factor.` });
  }
  if (holder.pending) await confirmSecondFactor(tx, holder.pending, kind, now);
  const { recoveryCodesLeft } = await factorsOf(tx, holder.user.id);
  return { recoveryCodes: holder.user.role === "ADMIN" && recoveryCodesLeft === 0 ? await replaceRecoveryCodes(tx, holder.user.id) : null };
}

/** After a factor was removed, in its transaction: logged, and staff told of a staff account's loss of one. */
export async function factorRemoved(tx: Db, user: SessionUser, what: string): Promise<void> {
  await logChange(tx, { ...securityEntry(user), description: `${user.email} removed ${what}` });
  if (user.role === "ADMIN") await notifyStaff(tx, { type: "OTHER", severity: "WARNING", message: `${user.email} removed ${what} from their second factors.` });
}
