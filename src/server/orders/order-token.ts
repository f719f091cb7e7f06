import "server-only";
import { jwtVerify, SignJWT } from "jose";

/**
 * The signed token in a guest's confirmation link: it names one order, so whoever holds the link (the buyer, from
 * the payment page's return or the e-mail) can see that order and no other. HS256 over the token secret.
 */
const AUDIENCE = "order-confirmation";
const LIFETIME_SECONDS = 90 * 24 * 60 * 60;

const key = (secret: string) => new TextEncoder().encode(secret);

export async function issueOrderToken(secret: string, orderNumber: string, now: Date = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(orderNumber)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + LIFETIME_SECONDS)
    .sign(key(secret));
}

/** Whether a token is a valid, unexpired confirmation token for this order. */
export async function orderTokenMatches(secret: string, token: string | null | undefined, orderNumber: string, now: Date = new Date()): Promise<boolean> {
  if (!token) return false;
  try {
    const { payload } = await jwtVerify(token, key(secret), { audience: AUDIENCE, algorithms: ["HS256"], currentDate: now });
    return payload.sub === orderNumber;
  } catch {
    return false;
  }
}
