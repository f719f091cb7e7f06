import "server-only";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { readExchangeRate } from "@/server/stock/exchange-rate";
import { createEcbExchangeRate } from "./live";
import type { ExchangeRatePort } from "./port";
import { createFixedExchangeRate } from "./sandbox";

/** The ECB feed with live integrations; the stored rate otherwise. */
export function getExchangeRatePort(db: Db): ExchangeRatePort {
  if (env.INTEGRATIONS === "live") return createEcbExchangeRate();
  return createFixedExchangeRate(async () => (await readExchangeRate(db))?.value ?? null);
}
