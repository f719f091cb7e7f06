import { Decimal } from "decimal.js";
import superjson from "superjson";

// Money travels as decimal text and is revived as Decimal on both sides, never as a float.
superjson.registerCustom<Decimal, string>(
  {
    isApplicable: (value): value is Decimal => Decimal.isDecimal(value),
    serialize: (value) => value.toString(),
    deserialize: (value) => new Decimal(value),
  },
  "decimal.js",
);

export const transformer = superjson;
