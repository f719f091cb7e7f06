import "server-only";
import { env } from "@/env";
import { createEcbExchangeRate } from "./live";
import type { ExchangeRatePort } from "./port";
import { createFixedExchangeRate } from "./sandbox";

/**
 * The ECB feed with live integrations; otherwise the rate the shop stores, which `readStoredRate` gives (stock keeps
 * it, and the port knows no domain).
 */
export function getExchangeRatePort(readStoredRate: () => Promise<string | null>): ExchangeRatePort {
  if (env.INTEGRATIONS === "live") return createEcbExchangeRate();
  return createFixedExchangeRate(readStoredRate);
}
