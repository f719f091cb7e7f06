import "server-only";
import { eq } from "drizzle-orm";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { configParams } from "@/server/db/schema";
import { createEcbExchangeRate } from "./live";
import type { ExchangeRatePort } from "./port";
import { createFixedExchangeRate } from "./sandbox";

/** The ECB feed with live integrations; the stored rate otherwise. */
export function getExchangeRatePort(db: Db): ExchangeRatePort {
  if (env.INTEGRATIONS === "live") return createEcbExchangeRate();
  return createFixedExchangeRate(async () => {
    const [row] = await db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, "EUR_TO_PHP_EXCHANGE_RATE"));
    return row?.value ?? null;
  });
}
