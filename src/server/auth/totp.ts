import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Time-based one-time passwords (RFC 6238, over RFC 4226's HOTP) as authenticator apps make them: HMAC-SHA1 of the
 * 30-second step since the epoch, six digits. Small enough to keep here rather than in a dependency; the RFC's own test
 * vectors check it (totp.test.ts).
 */

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** The 30-second step a moment falls in. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** The code for one step (HOTP with the step as its counter), `digits` long. */
export function totpCode(secret: Uint8Array, step: number, digits = TOTP_DIGITS): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac("sha1", secret).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const value = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, "0");
}

/**
 * The step `code` belongs to, among the current one and one either side (a phone's clock a little off, a code typed
 * as it changed), or null. Compared in constant time.
 */
export function matchingTotpStep(secret: Uint8Array, code: string, at: Date): number | null {
  const typed = Buffer.from(code.replace(/\s+/g, ""));
  if (typed.length !== TOTP_DIGITS) return null;
  const now = totpStep(at);
  for (const step of [now, now - 1, now + 1]) {
    if (timingSafeEqual(Buffer.from(totpCode(secret, step)), typed)) return step;
  }
  return null;
}

/** A new secret: 20 random bytes, as RFC 4226 recommends for SHA-1. */
export function newTotpSecret(): Uint8Array {
  return randomBytes(20);
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding: how authenticator apps take a secret typed in or read from a QR code. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error(`"${char}" is not a base32 letter`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** The `otpauth://` address an authenticator app reads from a QR code: the issuer, the account and the secret. */
export function otpauthUri(options: { issuer: string; account: string; secret: Uint8Array }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.account)}`;
  const query = new URLSearchParams({ secret: base32Encode(options.secret), issuer: options.issuer, algorithm: "SHA1", digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${query}`;
}
