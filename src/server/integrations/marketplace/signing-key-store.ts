import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { seal, unseal } from "@/server/config/sealed-secret";
import type { Db } from "@/server/db/client";
import { configParams } from "@/server/db/schema";

/**
 * eBay's signing key (ebay-signature.ts) in configParams, EBAY_SIGNING_KEY: the key id, eBay's JWE of the public key
 * and the expiry in the clear, the private key sealed (config/sealed-secret.ts). eBay keeps no copy of a private key:
 * lost, a new key pair is made, which is what a row that does not read or open (another AUTH_SECRET) leads to.
 */
export const EBAY_SIGNING_KEY_PARAM = "EBAY_SIGNING_KEY";

/** A signing key as the client uses it. */
export type StoredSigningKey = { signingKeyId: string; jwe: string; privateKey: string; expiresAt: Date };

export type EbaySigningKeyStore = {
  read(): Promise<StoredSigningKey | null>;
  write(key: StoredSigningKey): Promise<void>;
};

const storedKey = z.object({ signingKeyId: z.string().min(1), jwe: z.string().min(1), sealedPrivateKey: z.string().min(1), expiresAt: z.iso.datetime() });

async function readRow(db: Db) {
  const [row] = await db.select({ value: configParams.value, updatedAt: configParams.updatedAt }).from(configParams).where(eq(configParams.param, EBAY_SIGNING_KEY_PARAM));
  if (!row) return null;
  try {
    const parsed = storedKey.safeParse(JSON.parse(row.value));
    return parsed.success ? { ...parsed.data, updatedAt: row.updatedAt } : null;
  } catch {
    return null;
  }
}

export function marketplaceSigningKeyStore(db: Db): EbaySigningKeyStore {
  return {
    async read() {
      const row = await readRow(db);
      if (!row) return null;
      let privateKey: string;
      try {
        privateKey = unseal("ebay-signing-key", row.sealedPrivateKey).toString("utf8");
      } catch {
        return null;
      }
      return { signingKeyId: row.signingKeyId, jwe: row.jwe, privateKey, expiresAt: new Date(row.expiresAt) };
    },

    async write(key) {
      const value = JSON.stringify({
        signingKeyId: key.signingKeyId,
        jwe: key.jwe,
        sealedPrivateKey: seal("ebay-signing-key", Buffer.from(key.privateKey, "utf8")),
        expiresAt: key.expiresAt.toISOString(),
      });
      await db
        .insert(configParams)
        .values({ param: EBAY_SIGNING_KEY_PARAM, value })
        .onConflictDoUpdate({ target: configParams.param, set: { value, updatedAt: new Date() } });
    },
  };
}

/** What the integrations page shows of the signing key: nothing secret. */
export type SigningKeyState = { state: "none" } | { state: "present"; signingKeyId: string; expiresAt: Date; expired: boolean; createdAt: Date };

/**
 * Whether the shop holds a signing key for eBay, its id and until when it holds. A key that is missing or expired is
 * made anew by the next call that needs one; one whose private key does not open counts as none.
 */
export async function signingKeyState(db: Db, now: Date = new Date()): Promise<SigningKeyState> {
  const row = await readRow(db);
  if (!row) return { state: "none" };
  try {
    unseal("ebay-signing-key", row.sealedPrivateKey);
  } catch {
    return { state: "none" };
  }
  const expiresAt = new Date(row.expiresAt);
  return { state: "present", signingKeyId: row.signingKeyId, expiresAt, expired: expiresAt.getTime() <= now.getTime(), createdAt: row.updatedAt };
}
