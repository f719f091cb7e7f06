import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { configParams } from "@/server/db/schema";
import { getExchangeRatePort } from "@/server/integrations/exchange-rate/exchange-rate";
import type { ExchangeRatePort } from "@/server/integrations/exchange-rate/port";

/** The configParams row that holds the euro to peso rate purchases are converted at. */
export const EXCHANGE_RATE_PARAM = "EUR_TO_PHP_EXCHANGE_RATE";

/** The stored euro to peso rate as text, or null when none is set; `lock` holds the row until the transaction ends. */
export async function readExchangeRate(db: Db, options: { lock?: boolean } = {}): Promise<{ value: string; updatedAt: Date } | null> {
  const query = db
    .select({ value: configParams.value, updatedAt: configParams.updatedAt })
    .from(configParams)
    .where(eq(configParams.param, EXCHANGE_RATE_PARAM));
  const [row] = await (options.lock ? query.for("update") : query);
  return row?.value ? { value: row.value, updatedAt: row.updatedAt } : null;
}

/** Where the rate comes from: the ECB feed with live integrations, otherwise the stored rate above. */
export function exchangeRatePort(db: Db): ExchangeRatePort {
  return getExchangeRatePort(async () => (await readExchangeRate(db))?.value ?? null);
}
