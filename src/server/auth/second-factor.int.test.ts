import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { passkey, rateLimit, recoveryCode, session, totpFactor, webauthnChallenge } from "@/server/db/schema";
import { makeSession, makeUser } from "../../../tests/helpers/admin-fixtures";
import { databaseForFile, queryRows } from "../../../tests/helpers/test-database";
import { passkeyAuthenticationOptions, passkeyRegistrationOptions, registerPasskey, removePasskey, signInWithPasskey } from "./passkeys";
import { confirmTotpSetup, factorsOf, removeTotp, startTotpSetup, useRecoveryCode, verifyTotp, type FactorHolder } from "./second-factor";
import { readAnySession, type PendingSession } from "./session";
import { hashSessionToken } from "./session-token";
import { base32Decode, totpCode, totpStep } from "./totp";

/**
 * The second factor on a real database (issue 24: staff sign in with a second factor): an authenticator app set up
 * and its codes taken once, recovery codes kept hashed and used once, passkey ceremonies whose challenges are taken
 * once and expire, and the rules on who may add or remove a factor. The browser's side of passkeys (a virtual
 * authenticator in Chromium) is tests/e2e/second-factor.e2e.ts.
 */

const t = databaseForFile();

beforeEach(async () => {
  await t.db.delete(rateLimit);
});

/** A member of staff signed in by e-mail link, the second factor owed. */
async function pendingStaff(): Promise<{ pending: PendingSession; holder: FactorHolder; token: string }> {
  const staff = await makeUser(t.db, "ADMIN");
  const token = await makeSession(t.db, staff.id, { secondFactor: false });
  const { pending } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }));
  return { pending: pending!, holder: { user: pending!.user, pending: pending! }, token };
}

const signedIn = async (token: string) => (await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }))).session;
const codeAt = (secret: string, at: Date, offset = 0) => totpCode(base32Decode(secret), totpStep(at) + offset);

describe("an authenticator app", () => {
  it("is set up on the first sign-in with its first code, which confirms the session and makes ten recovery codes", async () => {
    const { holder, token } = await pendingStaff();
    const now = new Date();
    const setup = await startTotpSetup(t.db, holder);
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]+&issuer=/);
    expect(setup.qrSvg).toMatch(/^<svg /);
    const secret = setup.secret.replace(/ /g, "");
    // The secret is sealed at rest.
    const [stored] = await t.db.select().from(totpFactor).where(eq(totpFactor.userId, holder.user.id));
    expect(stored!.encryptedSecret).not.toContain(secret);

    await expect(confirmTotpSetup(t.db, holder, "000000", now)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await signedIn(token)).toBeNull();
    const { recoveryCodes } = await confirmTotpSetup(t.db, holder, codeAt(secret, now), now);
    expect(recoveryCodes).toHaveLength(10);
    expect(await signedIn(token)).toMatchObject({ user: { id: holder.user.id } });
    expect(await factorsOf(t.db, holder.user.id)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
  });

  it("confirms a later sign-in with a code once: the same code, or an older one, is refused after", async () => {
    const { holder } = await pendingStaff();
    const now = new Date();
    const secret = (await startTotpSetup(t.db, holder)).secret.replace(/ /g, "");
    await confirmTotpSetup(t.db, holder, codeAt(secret, now), now);

    // The same person signs in again by e-mail link on another device.
    const token = await makeSession(t.db, holder.user.id, { secondFactor: false });
    const { pending } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }));
    const later = new Date(now.getTime() + 90_000);
    await expect(verifyTotp(t.db, pending!, codeAt(secret, now), later)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await verifyTotp(t.db, pending!, codeAt(secret, later), later);
    expect(await signedIn(token)).not.toBeNull();
    const again = await makeSession(t.db, holder.user.id, { secondFactor: false });
    const { pending: third } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${again}` }));
    await expect(verifyTotp(t.db, third!, codeAt(secret, later), later)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("used already") });
  });

  it("refuses a guesser after ten wrong codes in fifteen minutes, counting only wrong ones", async () => {
    const { holder, pending } = await pendingStaff();
    const now = new Date();
    const secret = (await startTotpSetup(t.db, holder)).secret.replace(/ /g, "");
    await confirmTotpSetup(t.db, holder, codeAt(secret, now), now);
    const token = await makeSession(t.db, holder.user.id, { secondFactor: false });
    const { pending: again } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }));
    for (let i = 0; i < 10; i++) await expect(verifyTotp(t.db, again!, String(100000 + i), now)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(verifyTotp(t.db, again!, codeAt(secret, now, 1), now)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(pending.user.id).toBe(holder.user.id);
  });
});

describe("recovery codes", () => {
  it("are kept hashed, confirm a sign-in once each, and tell staff", async () => {
    const { holder } = await pendingStaff();
    const now = new Date();
    const secret = (await startTotpSetup(t.db, holder)).secret.replace(/ /g, "");
    const { recoveryCodes } = await confirmTotpSetup(t.db, holder, codeAt(secret, now), now);
    const [first] = recoveryCodes!;
    const stored = await t.db.select().from(recoveryCode).where(eq(recoveryCode.userId, holder.user.id));
    expect(JSON.stringify(stored)).not.toContain(first!);

    const token = await makeSession(t.db, holder.user.id, { secondFactor: false });
    const { pending } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }));
    expect(await useRecoveryCode(t.db, pending!, first!.toLowerCase().replace("-", " "), now)).toEqual({ left: 9 });
    expect(await signedIn(token)).not.toBeNull();
    const again = await makeSession(t.db, holder.user.id, { secondFactor: false });
    const { pending: later } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${again}` }));
    await expect(useRecoveryCode(t.db, later!, first!, now)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await signedIn(again)).toBeNull();
    const [confirmed] = await t.db.select({ secondFactor: session.secondFactor }).from(session).where(eq(session.sessionToken, hashSessionToken(token)));
    expect(confirmed!.secondFactor).toBe("recovery-code");
  });
});

describe("who may add or remove a factor", () => {
  it("lets a session still owing its factor add one only while the account has none", async () => {
    const { holder } = await pendingStaff();
    const now = new Date();
    const secret = (await startTotpSetup(t.db, holder)).secret.replace(/ /g, "");
    await confirmTotpSetup(t.db, holder, codeAt(secret, now), now);
    // Someone else with the same mailbox signs in by e-mail link: they cannot add a factor of their own.
    const token = await makeSession(t.db, holder.user.id, { secondFactor: false });
    const { pending } = await readAnySession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }));
    const intruder = { user: pending!.user, pending: pending! };
    await expect(passkeyRegistrationOptions(t.db, intruder)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(startTotpSetup(t.db, intruder)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("never removes a member of staff's last factor", async () => {
    const { holder } = await pendingStaff();
    const now = new Date();
    const secret = (await startTotpSetup(t.db, holder)).secret.replace(/ /g, "");
    await confirmTotpSetup(t.db, holder, codeAt(secret, now), now);
    await expect(removeTotp(t.db, holder.user)).rejects.toMatchObject({ code: "CONFLICT" });
    await t.db.insert(passkey).values({ id: "cred-1", userId: holder.user.id, publicKey: "AA", deviceType: "singleDevice", backedUp: false, name: "Laptop" });
    await removeTotp(t.db, holder.user);
    await expect(removePasskey(t.db, holder.user, "cred-1")).rejects.toMatchObject({ code: "CONFLICT" });
    // A customer's passkeys are theirs to remove, every one.
    const customer = await makeUser(t.db, "USER");
    await t.db.insert(passkey).values({ id: "cred-2", userId: customer.id, publicKey: "AA", deviceType: "multiDevice", backedUp: true, name: "Phone" });
    await removePasskey(t.db, { ...customer, image: null }, "cred-2");
    expect((await factorsOf(t.db, customer.id)).passkeys).toEqual([]);
  });
});

describe("passkey ceremonies", () => {
  it("name the shop's configured address as the relying party, and take each challenge once, within five minutes", async () => {
    const { holder } = await pendingStaff();
    const now = new Date();
    const { challengeId, options } = await passkeyRegistrationOptions(t.db, holder, now);
    expect(options.rp.id).toBe(new URL(process.env.AUTH_URL ?? "http://localhost:3000").hostname);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    const answer = { challengeId, name: "Laptop", response: { id: "x", rawId: "x", type: "public-key" as const, response: { clientDataJSON: "", attestationObject: "" }, clientExtensionResults: {} } };
    // A forged answer fails, and uses the challenge up.
    await expect(registerPasskey(t.db, holder, answer, now)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(registerPasskey(t.db, holder, answer, now)).rejects.toMatchObject({ message: expect.stringContaining("expired or was used already") });

    const signIn = await passkeyAuthenticationOptions(t.db, null, now);
    const late = new Date(now.getTime() + 5 * 60_000 + 1);
    const response = { id: "x", rawId: "x", type: "public-key" as const, response: { clientDataJSON: "", authenticatorData: "", signature: "" }, clientExtensionResults: {} };
    await expect(signInWithPasskey(t.db, { challengeId: signIn.challengeId, response }, late)).rejects.toMatchObject({ message: expect.stringContaining("expired") });
    expect(await queryRows(t.db, sql`select id from ${webauthnChallenge} where id = ${signIn.challengeId}`)).toEqual([]);
  });
});
