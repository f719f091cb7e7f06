import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { UserRole } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { session, user } from "@/server/db/schema";

export type SessionUser = { id: string; name: string | null; email: string; image: string | null; role: UserRole };
export type Session = { user: SessionUser; expires: Date };

// Auth.js keeps database sessions under these cookie names (the secure one on https).
const sessionCookieNames = ["__Secure-authjs.session-token", "authjs.session-token"];

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

/** The signed-in user of a request, from the Auth.js database session its cookie names; null when there is none. */
export async function readSession(db: Db, headers: Headers): Promise<Session | null> {
  const token = sessionCookieNames.map((name) => readCookie(headers, name)).find(Boolean);
  if (!token) return null;
  const [row] = await db
    .select({
      expires: session.expires,
      id: user.id,
      name: user.name,
      email: user.email,
      image: user.image,
      role: user.role,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(and(eq(session.sessionToken, token), gt(session.expires, new Date())))
    .limit(1);
  if (!row) return null;
  const { expires, ...sessionUser } = row;
  return { user: sessionUser, expires };
}
