import { Decimal } from "decimal.js";

const euro = new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Euro with 2 decimals, the one way money is shown in the shop. */
export function formatEuro(amount: Decimal | string | number): string {
  return euro.format(new Decimal(amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber());
}
