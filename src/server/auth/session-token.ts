import { createHash, randomBytes } from "node:crypto";
import type { Adapter } from "@auth/core/adapters";

/**
 * Sessions are stored under the SHA-256 of their token, never the token itself (SECURITY-REVIEW N-M6). The cookie is
 * the whole key to a session: a backup, a copy of the database or a read-only leak of the session table must not
 * hold one that signs anybody in. Auth.js keeps verification tokens (sign-in links) hashed the same way already.
 */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new session token, as long and as random as Auth.js makes its own. */
export function newSessionToken(): string {
  return randomBytes(32).toString("hex");
}

/** Auth.js keeps database sessions under one of these cookies: the secure one on https. */
export const sessionCookieNames = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

/** The session cookie's name on the shop at `origin`, as Auth.js names it. */
export function sessionCookieName(origin: string): (typeof sessionCookieNames)[number] {
  return origin.startsWith("https:") ? sessionCookieNames[0] : sessionCookieNames[1];
}

/**
 * The Drizzle adapter with sessions kept hashed: each call hashes the token it is given before the database sees it,
 * and hands Auth.js back the token it gave (Auth.js sets the cookie from what createSession returns).
 */
export function withHashedSessions(adapter: Adapter): Adapter {
  const { createSession, getSessionAndUser, updateSession, deleteSession } = adapter;
  if (!createSession || !getSessionAndUser || !updateSession || !deleteSession) throw new Error("The adapter keeps no database sessions");
  return {
    ...adapter,
    async createSession(session) {
      const created = await createSession({ ...session, sessionToken: hashSessionToken(session.sessionToken) });
      return { ...created, sessionToken: session.sessionToken };
    },
    async getSessionAndUser(sessionToken) {
      const found = await getSessionAndUser(hashSessionToken(sessionToken));
      return found && { ...found, session: { ...found.session, sessionToken } };
    },
    async updateSession(session) {
      const updated = await updateSession({ ...session, sessionToken: hashSessionToken(session.sessionToken) });
      return updated && { ...updated, sessionToken: session.sessionToken };
    },
    async deleteSession(sessionToken) {
      await deleteSession(hashSessionToken(sessionToken));
    },
  };
}
