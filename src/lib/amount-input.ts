import { Decimal } from "decimal.js";
import { z } from "zod";

/**
 * An amount of euros as a schema takes it: a Decimal, or a string or number that reads as one, revived as a Decimal.
 * A Decimal is recognised by decimal.js's own test rather than `instanceof`: Next bundles server code in several
 * layers, each with its own copy of decimal.js, and an amount made in one is passed to a schema of another.
 */
export const amountInput = z
  .union([z.custom<Decimal>((value) => Decimal.isDecimal(value), "must be an amount"), z.string().regex(/^\d+(\.\d{1,2})?$/, "must be an amount such as 12.50"), z.number().finite()])
  .transform((value) => new Decimal(value));
