import "server-only";
import { env } from "@/env";
import type { PortDescription } from "../port-status";
import { createEcbExchangeRate, ECB_DAILY_URL } from "./live";
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

/** How `getExchangeRatePort` is set up, for the owner's integrations page; the ECB needs no key. */
export function describeExchangeRate(): PortDescription {
  if (env.INTEGRATIONS === "live") return { mode: "live", detail: "The European Central Bank's daily reference rates (no key)", endpoint: ECB_DAILY_URL, settings: [] };
  return { mode: "sandbox", detail: "The rate staff store on the dashboard", endpoint: null, settings: [] };
}
