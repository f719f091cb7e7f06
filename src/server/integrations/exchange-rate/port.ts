import type { Decimal } from "decimal.js";
import type { Probe } from "../port-status";

/** Pesos per euro and the day the rate was published for. */
export type EurToPhpQuote = { rate: Decimal; date: string };

/** Where the shop learns the euro to Philippine peso rate that purchase costs are converted at. */
export interface ExchangeRatePort {
  readonly kind: "sandbox" | "live";
  /** The owner's Test connection: reads today's rate (the ECB feed needs no key). */
  probe: Probe;
  eurToPhp(): Promise<EurToPhpQuote>;
}
