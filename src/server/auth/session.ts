import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { UserRole } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { session, user } from "@/server/db/schema";
import { hashSessionToken, sessionCookieNames } from "./session-token";

export type SessionUser = { id: string; name: string | null; email: string; image: string | null; role: UserRole };
export type Session = { user: SessionUser; expires: Date };

/**
 * A member of staff signed in by e-mail link (or Google) whose second factor is not confirmed yet: it reaches the
 * second factor's page and nothing else (second-factor.ts). `sessionId` names the session the factor confirms.
 */
export type PendingSession = Session & { sessionId: string };

function readCookie(headers: Headers, name: string): string | undefined {
  const cookie = headers.get("cookie");
  if (!cookie) return undefined;
  for (const part of cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      // Not valid percent-encoding, so not a token Auth.js wrote: the request is simply not signed in.
      return undefined;
    }
  }
  return undefined;
}

/** Whether a session must still confirm a second factor: staff signed in without one (ASVS 5.0 leaves e-mail alone out). */
export function needsSecondFactor(role: UserRole, secondFactorAt: Date | null): boolean {
  return role === "ADMIN" && secondFactorAt === null;
}

/** The session the request's cookie names, however far it got: a full one or one waiting for its second factor. */
export async function readAnySession(db: Db, headers: Headers): Promise<{ session: Session | null; pending: PendingSession | null }> {
  const token = sessionCookieNames.map((name) => readCookie(headers, name)).find(Boolean);
  if (!token) return { session: null, pending: null };
  const [row] = await db
    .select({
      sessionId: session.id,
      expires: session.expires,
      secondFactorAt: session.secondFactorAt,
      id: user.id,
      name: user.name,
      email: user.email,
      image: user.image,
      role: user.role,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(and(eq(session.sessionToken, hashSessionToken(token)), gt(session.expires, new Date())))
    .limit(1);
  if (!row) return { session: null, pending: null };
  const { expires, sessionId, secondFactorAt, ...sessionUser } = row;
  if (needsSecondFactor(row.role, secondFactorAt)) return { session: null, pending: { user: sessionUser, expires, sessionId } };
  return { session: { user: sessionUser, expires }, pending: null };
}

/**
 * The signed-in user of a request, from the Auth.js database session its cookie names; null when there is none, and
 * also for a member of staff whose second factor is not confirmed yet: such a session is signed in to nothing.
 */
export async function readSession(db: Db, headers: Headers): Promise<Session | null> {
  return (await readAnySession(db, headers)).session;
}
