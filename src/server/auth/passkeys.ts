import "server-only";
import { randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, lt } from "drizzle-orm";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { passkey, session, user, webauthnChallenge } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { confirmSecondFactor, factorAdded, factorRemoved, factorsOf, assertMayAddFactor, type FactorHolder } from "./second-factor";
import type { PasskeyAuthenticationInput, PasskeyRegistrationInput } from "./second-factor-schemas";
import type { PendingSession, SessionUser } from "./session";
import { hashSessionToken, newSessionToken } from "./session-token";

/*
 * Passkeys (WebAuthn, through SimpleWebAuthn): registered by anyone signed in (for staff on their first sign-in, as
 * their second factor), then used to sign in outright (a passkey with user verification is itself more than one
 * factor) or, for staff signed in by e-mail link, as the second factor. The relying party is the shop's configured
 * address (shopUrl), never a request's Host; each ceremony's challenge is kept in the database for five minutes and
 * taken once, so that any instance can finish what another began and no answer is accepted twice.
 */

const CHALLENGE_LIFETIME_MS = 5 * 60_000;
/** A passkey sign-in lasts as long as an Auth.js session: 30 days. */
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60_000;

/** The shop as WebAuthn names it: its host (the relying party id), its origin, and its name shown by the browser. */
export function relyingParty(): { id: string; origin: string; name: string } {
  const url = new URL(shopUrl());
  return { id: url.hostname, origin: url.origin, name: env.SHOP_NAME };
}

type Purpose = (typeof webauthnChallenge.$inferSelect)["purpose"];

async function keepChallenge(db: Db, purpose: Purpose, challenge: string, userId: string | null, now: Date): Promise<string> {
  const id = randomBytes(18).toString("base64url");
  // Old ceremonies nobody finished go on the way.
  await db.delete(webauthnChallenge).where(lt(webauthnChallenge.expiresAt, now));
  await db.insert(webauthnChallenge).values({ id, challenge, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS) });
  return id;
}

/** Takes a ceremony's challenge, once: gone whether the answer then holds or not. */
async function takeChallenge(db: Db, id: string, purpose: Purpose, userId: string | null, now: Date): Promise<string> {
  const [taken] = await db
    .delete(webauthnChallenge)
    .where(and(eq(webauthnChallenge.id, id), eq(webauthnChallenge.purpose, purpose)))
    .returning({ challenge: webauthnChallenge.challenge, userId: webauthnChallenge.userId, expiresAt: webauthnChallenge.expiresAt });
  if (!taken || taken.userId !== userId || taken.expiresAt <= now) throw new AppError("BAD_REQUEST", "That passkey request has expired or was used already. Please try again.");
  return taken.challenge;
}

export type Ceremony<Options> = { challengeId: string; options: Options };

/** Options for registering a new passkey, excluding the ones the person has (a device asked twice says so). */
export async function passkeyRegistrationOptions(db: Db, holder: FactorHolder, now: Date = new Date()): Promise<Ceremony<PublicKeyCredentialCreationOptionsJSON>> {
  const factors = await assertMayAddFactor(db, holder);
  const rp = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: holder.user.email,
    userDisplayName: holder.user.name ?? holder.user.email,
    userID: new TextEncoder().encode(holder.user.id),
    attestationType: "none",
    excludeCredentials: factors.passkeys.map(({ id }) => ({ id })),
    // Discoverable, so that it can sign in without an address typed; and verified (PIN, fingerprint, face).
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  return { challengeId: await keepChallenge(db, "register", options.challenge, holder.user.id, now), options };
}

/**
 * Registers the passkey the browser made for the options of `challengeId`. A session still owing its second factor
 * is confirmed by it. Answers new recovery codes when a member of staff had none (shown once), else null.
 */
export async function registerPasskey(
  db: Db,
  holder: FactorHolder,
  answer: { challengeId: string; response: PasskeyRegistrationInput["response"]; name: string },
  now: Date = new Date(),
): Promise<{ recoveryCodes: string[] | null }> {
  await assertMayAddFactor(db, holder);
  const expectedChallenge = await takeChallenge(db, answer.challengeId, "register", holder.user.id, now);
  const rp = relyingParty();
  // The input's shape is checked by its schema; what it means, by the library, which takes its own type.
  const response = answer.response as RegistrationResponseJSON;
  const verification = await verifyRegistrationResponse({ response, expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true }).catch(
    (error: unknown) => {
      throw new AppError("BAD_REQUEST", `The passkey could not be registered: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  if (!verification.verified) throw new AppError("BAD_REQUEST", "The passkey could not be verified.");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  return db.transaction(async (tx) => {
    await tx.insert(passkey).values({
      id: credential.id,
      userId: holder.user.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: response.response.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: answer.name,
    });
    return factorAdded(tx, holder, "passkey", now);
  });
}

/** Options for using a passkey: the person's own (as a second factor), or any the browser holds for the shop (sign-in). */
export async function passkeyAuthenticationOptions(db: Db, forUser: SessionUser | null, now: Date = new Date()): Promise<Ceremony<PublicKeyCredentialRequestOptionsJSON>> {
  const rp = relyingParty();
  const allowCredentials = forUser ? (await factorsOf(db, forUser.id)).passkeys.map(({ id }) => ({ id })) : undefined;
  if (allowCredentials?.length === 0) throw new AppError("PRECONDITION_FAILED", "This account has no passkey.");
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required", ...(allowCredentials ? { allowCredentials } : {}) });
  return { challengeId: await keepChallenge(db, forUser ? "second-factor" : "sign-in", options.challenge, forUser?.id ?? null, now), options };
}

/** Checks a passkey's answer to a challenge, and moves its signature counter on. Answers whose passkey it is. */
async function verifyPasskeyAnswer(db: Db, expectedChallenge: string, answer: PasskeyAuthenticationInput["response"], now: Date): Promise<{ userId: string; passkeyName: string }> {
  const response = answer as AuthenticationResponseJSON;
  const [found] = await db.select().from(passkey).where(eq(passkey.id, response.id));
  if (!found) throw new AppError("BAD_REQUEST", "This passkey is not known to the shop. It may have been removed; sign in with the e-mail link.");
  const rp = relyingParty();
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: found.id, publicKey: Buffer.from(found.publicKey, "base64url"), counter: found.counter, transports: found.transports },
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw new AppError("BAD_REQUEST", `The passkey could not be checked: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (!verification.verified) throw new AppError("BAD_REQUEST", "The passkey's answer does not hold.");
  await db.update(passkey).set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now }).where(eq(passkey.id, found.id));
  return { userId: found.userId, passkeyName: found.name };
}

/** Confirms a waiting staff session with one of the person's passkeys. */
export async function verifyPasskeySecondFactor(db: Db, pending: PendingSession, answer: PasskeyAuthenticationInput, now: Date = new Date()): Promise<void> {
  const expectedChallenge = await takeChallenge(db, answer.challengeId, "second-factor", pending.user.id, now);
  const { userId } = await verifyPasskeyAnswer(db, expectedChallenge, answer.response, now);
  if (userId !== pending.user.id) throw new AppError("BAD_REQUEST", "This passkey belongs to another account.");
  await db.transaction((tx) => confirmSecondFactor(tx, pending, "passkey", now));
}

/**
 * Signs in with a passkey: a new database session, as Auth.js writes one (kept under its token's hash), with its
 * second factor confirmed. Answers the token for the cookie and when it expires.
 */
export async function signInWithPasskey(db: Db, answer: PasskeyAuthenticationInput, now: Date = new Date()): Promise<{ token: string; expires: Date }> {
  const expectedChallenge = await takeChallenge(db, answer.challengeId, "sign-in", null, now);
  const { userId, passkeyName } = await verifyPasskeyAnswer(db, expectedChallenge, answer.response, now);
  const token = newSessionToken();
  const expires = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await db.transaction(async (tx) => {
    const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    await tx.insert(session).values({ sessionToken: hashSessionToken(token), userId, expires, secondFactorAt: now, secondFactor: "passkey" });
    await logChange(tx, { userId, eventType: "SECURITY", entityType: "USER", entityId: userId, description: `${owner?.email ?? userId} signed in with the passkey "${passkeyName}"` });
  });
  return { token, expires };
}

/** Removes one of the person's passkeys, unless it is a member of staff's last second factor. */
export async function removePasskey(db: Db, owner: SessionUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const factors = await factorsOf(tx, owner.id);
    const removing = factors.passkeys.find((entry) => entry.id === id);
    if (!removing) throw new AppError("NOT_FOUND", "There is no such passkey on your account.");
    if (owner.role === "ADMIN" && factors.passkeys.length === 1 && !factors.totp) {
      throw new AppError("CONFLICT", "Add another passkey or an authenticator app first: staff keep at least one second factor.");
    }
    await tx.delete(passkey).where(and(eq(passkey.id, id), eq(passkey.userId, owner.id)));
    await factorRemoved(tx, owner, `the passkey "${removing.name}"`);
  });
}
