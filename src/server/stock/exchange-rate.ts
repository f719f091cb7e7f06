import "server-only";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { configParams } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getExchangeRatePort } from "@/server/integrations/exchange-rate/exchange-rate";
import type { ExchangeRatePort } from "@/server/integrations/exchange-rate/port";
import { logChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";
import type { ExchangeRateInfo, PurchaseCurrency } from "./schemas";

/**
 * The euro to peso rate purchases are converted at: kept in configParams, refreshed from the exchange-rate port by
 * staff, and a unit cost converted at it.
 */

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

/** The rate purchases are converted at, as kept in configParams. */
export async function currentExchangeRate(db: Db): Promise<{ rate: Decimal; updatedAt: Date }> {
  const row = await readExchangeRate(db);
  if (!row) {
    throw new AppError("PRECONDITION_FAILED", "No euro to peso exchange rate is set: refresh it first.");
  }
  return { rate: new Decimal(row.value), updatedAt: row.updatedAt };
}

/** The stored rate and where refreshes come from (the ECB with live integrations, the fixed rate otherwise). */
export async function exchangeRateInfo(db: Db, port: ExchangeRatePort): Promise<ExchangeRateInfo> {
  return { ...(await currentExchangeRate(db)), source: port.kind };
}

/** Asks the exchange-rate port for today's rate and stores it, logging the old and new value. */
export async function refreshExchangeRate(db: Db, port: ExchangeRatePort, userId: string | null): Promise<ExchangeRateInfo> {
  let quote;
  try {
    quote = await port.eurToPhp();
  } catch (error) {
    const message = errorMessage(error);
    await db.transaction(async (tx) => {
      await logChange(tx, {
        userId,
        eventType: "STOCK_CHANGE",
        logLevel: "WARNING",
        description: "Exchange rate refresh failed; purchases keep the last rate",
        errorData: { message },
      });
      await notifyStaff(tx, { type: "OTHER", severity: "WARNING", message: `The euro to peso rate could not be refreshed: ${message}` });
    });
    throw new AppError("PRECONDITION_FAILED", "The exchange-rate service did not answer; the last rate stays in use.", { cause: error });
  }
  return db.transaction(async (tx) => {
    const previous = await readExchangeRate(tx, { lock: true });
    const value = quote.rate.toDecimalPlaces(4).toFixed();
    const [row] = await tx
      .insert(configParams)
      .values({ param: EXCHANGE_RATE_PARAM, value })
      .onConflictDoUpdate({ target: configParams.param, set: { value, updatedAt: new Date() } })
      .returning({ updatedAt: configParams.updatedAt });
    await logChange(tx, {
      userId,
      eventType: "STOCK_CHANGE",
      description: `Euro to peso rate set to ${value} (${port.kind === "live" ? `ECB, ${quote.date}` : "fixed sandbox rate"})`,
      previousState: { [EXCHANGE_RATE_PARAM]: previous?.value ?? null },
      newState: { [EXCHANGE_RATE_PARAM]: value },
    });
    return { rate: new Decimal(value), updatedAt: row!.updatedAt, source: port.kind };
  });
}

/** Both currencies of a unit cost typed in one of them, converted at the given rate and rounded to cents. */
export function convertCost(unitCost: string, currency: PurchaseCurrency, rate: Decimal): { euro: Decimal; php: Decimal } {
  const amount = new Decimal(unitCost);
  if (rate.lte(0)) throw new AppError("PRECONDITION_FAILED", "The exchange rate must be above zero.");
  return currency === "EUR"
    ? { euro: amount.toDecimalPlaces(2), php: amount.times(rate).toDecimalPlaces(2) }
    : { euro: amount.dividedBy(rate).toDecimalPlaces(2), php: amount.toDecimalPlaces(2) };
}
