import { Decimal } from "decimal.js";
import type { EurToPhpQuote, ExchangeRatePort } from "./port";

/** The European Central Bank's daily reference rates: free, no key, published around 16:00 CET on working days. */
export const ECB_DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";

/**
 * The live rate from the ECB feed. `url` points at a local stand-in in tests. On holidays the feed keeps the last
 * working day's rates, which is what we want.
 */
export function createEcbExchangeRate(options: { url?: string; timeoutMs?: number } = {}): ExchangeRatePort {
  const url = options.url ?? ECB_DAILY_URL;
  return {
    kind: "live",
    eurToPhp,
    /** The feed needs no key: reading today's rate is the whole check. */
    async probe() {
      const quote = await eurToPhp();
      return `The ECB feed gave 1 EUR = ${quote.rate.toString()} PHP for ${quote.date}`;
    },
  };

  async function eurToPhp(): Promise<EurToPhpQuote> {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000), headers: { accept: "application/xml" } });
    if (!response.ok) throw new Error(`The ECB rate feed answered HTTP ${response.status}`);
    return parseEcbDaily(await response.text(), "PHP");
  }
}

/**
 * Reads one currency from the ECB's `gesmes:Envelope`: `<Cube time='2026-05-04'>` around
 * `<Cube currency='PHP' rate='61.25'/>`, attributes single- or double-quoted, rate in units per euro.
 */
export function parseEcbDaily(xml: string, currency: string): EurToPhpQuote {
  const date = /<Cube\s+time=['"](\d{4}-\d{2}-\d{2})['"]/.exec(xml)?.[1];
  const rateText = new RegExp(`<Cube\\s+currency=['"]${currency}['"]\\s+rate=['"]([0-9.]+)['"]`).exec(xml)?.[1];
  if (!date || !rateText) throw new Error(`The ECB rate feed has no ${currency} rate`);
  const rate = new Decimal(rateText);
  if (!rate.isFinite() || rate.lte(0)) throw new Error(`The ECB rate feed gave an unusable ${currency} rate: ${rateText}`);
  return { rate, date };
}
