import { Decimal } from "decimal.js";
import type { SuperJSON } from "superjson";

/** Money travels as decimal text and is revived as Decimal, never as a float. */
export function withMoney<Instance extends Pick<SuperJSON, "registerCustom">>(instance: Instance): Instance {
  instance.registerCustom<Decimal, string>(
    {
      isApplicable: (value): value is Decimal => Decimal.isDecimal(value),
      serialize: (value) => value.toString(),
      deserialize: (value) => new Decimal(value),
    },
    "decimal.js",
  );
  return instance;
}
