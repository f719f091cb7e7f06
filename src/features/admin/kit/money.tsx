import type { Decimal } from "decimal.js";
import { formatEuro } from "@/lib/money";
import { formatWholeEuro } from "./format";

/** An amount in a table of figures, a dash for nothing; `negative` for what is taken off (costs, fees), with a minus. */
export function Money({ value, negative = false, whole = false }: { value: Decimal; negative?: boolean; whole?: boolean }) {
  if (value.isZero()) return <span className="text-muted-foreground">—</span>;
  const text = whole ? formatWholeEuro(value) : formatEuro(value);
  return <>{negative ? `−${text}` : text}</>;
}
