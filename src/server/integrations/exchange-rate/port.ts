import type { Decimal } from "decimal.js";

/** Pesos per euro and the day the rate was published for. */
export type EurToPhpQuote = { rate: Decimal; date: string };

/** Where the shop learns the euro to Philippine peso rate that purchase costs are converted at. */
export interface ExchangeRatePort {
  readonly kind: "sandbox" | "live";
  eurToPhp(): Promise<EurToPhpQuote>;
}
