import { Decimal } from "decimal.js";
import { sandboxProbeAnswer } from "../port-status";
import type { EurToPhpQuote, ExchangeRatePort } from "./port";

/**
 * The embedded default's rate: whatever staff keep in `configParams.EUR_TO_PHP_EXCHANGE_RATE`, so purchases convert
 * the same way every time without a network. `readStoredRate` gives the current value.
 */
export function createFixedExchangeRate(readStoredRate: () => Promise<string | null>, today: () => Date = () => new Date()): ExchangeRatePort {
  return {
    kind: "sandbox",
    probe: async () => sandboxProbeAnswer,
    async eurToPhp(): Promise<EurToPhpQuote> {
      const stored = await readStoredRate();
      if (!stored) throw new Error("No EUR_TO_PHP_EXCHANGE_RATE is configured");
      return { rate: new Decimal(stored), date: today().toISOString().slice(0, 10) };
    },
  };
}
