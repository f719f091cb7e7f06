import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/env";

/*
 * Secrets the shop keeps in its database sealed (AES-256-GCM): a staff member's authenticator secret, eBay's signing
 * key. Each use has a key of its own, derived from AUTH_SECRET with the use's name, so that a value sealed for one
 * use does not open as another's; a database copy without AUTH_SECRET holds nothing usable.
 */

/** What a sealed secret is for: the name its key is derived with. Never rename one: what it sealed would not open. */
export type SealingUse = "totp-secret" | "ebay-signing-key";

function sealingKey(use: SealingUse): Buffer {
  return Buffer.from(hkdfSync("sha256", env.AUTH_SECRET, "balance-and-crown", use, 32));
}

/** The secret sealed for one use: `iv.tag.ciphertext`, each base64url. */
export function seal(use: SealingUse, secret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(use), iv);
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

/** The secret back; throws when the text was not sealed for this use with this AUTH_SECRET, or was changed. */
export function unseal(use: SealingUse, text: string): Buffer {
  const [iv, tag, sealed] = text.split(".").map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(use), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(sealed!), decipher.final()]);
}
