import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { configParams } from "@/server/db/schema";
import type { EbayTokenStore } from "./ebay";

/** The configParams row that holds eBay's access token, shared by the web server and the job worker. */
export const EBAY_ACCESS_TOKEN_PARAM = "EBAY_ACCESS_TOKEN";

const storedToken = z.object({ accessToken: z.string().min(1), expiresAt: z.iso.datetime() });

/**
 * eBay's access token in configParams as `{"accessToken", "expiresAt"}`. A value that does not read (left by an
 * older version, or edited by hand) counts as no token: the adapter then asks eBay for a new one and overwrites it.
 */
export function marketplaceTokenStore(db: Db): EbayTokenStore {
  return {
    async read() {
      const [row] = await db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, EBAY_ACCESS_TOKEN_PARAM));
      if (!row) return null;
      let parsed;
      try {
        parsed = storedToken.safeParse(JSON.parse(row.value));
      } catch {
        return null;
      }
      return parsed.success ? { accessToken: parsed.data.accessToken, expiresAt: new Date(parsed.data.expiresAt) } : null;
    },

    async write(token) {
      const value = JSON.stringify({ accessToken: token.accessToken, expiresAt: token.expiresAt.toISOString() });
      await db
        .insert(configParams)
        .values({ param: EBAY_ACCESS_TOKEN_PARAM, value })
        .onConflictDoUpdate({ target: configParams.param, set: { value, updatedAt: new Date() } });
    },
  };
}
