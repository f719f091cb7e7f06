import "server-only";
import { errors, jwtVerify, SignJWT } from "jose";

/** How long a visitor token is valid; the browser refreshes it 30 seconds before this runs out (SPEC section 4). */
export const VISITOR_TOKEN_TTL_SECONDS = 60 * 60;
/** A token that ran out less than this long ago still names the same visitor when it is refreshed. */
export const VISITOR_TOKEN_RENEWAL_GRACE_SECONDS = 30 * 24 * 60 * 60;

const ISSUER = "shop";
const AUDIENCE = "visitor";

export type Visitor = { visitorId: string; expiresAt: Date };

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** A signed token (HS256) naming an anonymous visitor, with `exp` in seconds. */
export async function issueVisitorToken(secret: string, visitorId: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(visitorId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + VISITOR_TOKEN_TTL_SECONDS)
    .sign(key(secret));
}

/** The visitor a token names, when its signature holds and it has not run out; null for anything else. */
export async function verifyVisitorToken(secret: string, token: string | null | undefined, now: Date): Promise<Visitor | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, audience: AUDIENCE, currentDate: now, algorithms: ["HS256"] });
    if (!payload.sub || payload.exp === undefined) return null;
    return { visitorId: payload.sub, expiresAt: new Date(payload.exp * 1000) };
  } catch {
    return null;
  }
}

/**
 * `shared.token.manage`: a fresh token for the caller. A token of ours that is still valid, or ran out within the
 * grace period, keeps its visitor id, so that a visitor stays the same visitor across refreshes; anything else
 * (none, forged, long expired) starts a new visitor.
 */
export async function manageVisitorToken(secret: string, token: string | undefined, now: Date): Promise<string> {
  const valid = await verifyVisitorToken(secret, token, now);
  if (valid) return issueVisitorToken(secret, valid.visitorId, now);
  const lapsed = await recentlyExpiredVisitor(secret, token, now);
  return issueVisitorToken(secret, lapsed ?? crypto.randomUUID(), now);
}

async function recentlyExpiredVisitor(secret: string, token: string | undefined, now: Date): Promise<string | null> {
  if (!token) return null;
  try {
    await jwtVerify(token, key(secret), { issuer: ISSUER, audience: AUDIENCE, currentDate: now, algorithms: ["HS256"] });
    return null;
  } catch (error) {
    // jose checks the signature before the time claims, so an expired-token error means the token is genuine.
    if (!(error instanceof errors.JWTExpired)) return null;
    const { sub, exp } = error.payload;
    if (!sub || exp === undefined) return null;
    return now.getTime() / 1000 - exp <= VISITOR_TOKEN_RENEWAL_GRACE_SECONDS ? sub : null;
  }
}
