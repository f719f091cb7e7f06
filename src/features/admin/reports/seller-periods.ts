// The periods the sellers report is read over, as the owner picks them: a month, a quarter or a year, the current one
// first ("so far") and the ones before it. Values as the report takes them (reports/schemas.ts sellersPeriod).

export const periodKinds = ["month", "quarter", "year"] as const;
export type PeriodKind = (typeof periodKinds)[number];

export const periodKindLabels: Record<PeriodKind, string> = { month: "Month", quarter: "Quarter", year: "Year" };

/** How many of each the list goes back: three years of months and quarters, ten years. */
const reach: Record<PeriodKind, number> = { month: 36, quarter: 12, year: 10 };

const monthName = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric" });
const shortMonth = new Intl.DateTimeFormat("en-GB", { month: "short" });

export type PeriodOption = { value: string; label: string };

/** The periods of `kind` up to the one `today` falls in, newest first. */
export function periodOptions(kind: PeriodKind, today: Date): PeriodOption[] {
  const year = today.getFullYear();
  const month = today.getMonth();
  return Array.from({ length: reach[kind] }, (_, back) => {
    const option = periodBack(kind, year, month, back);
    return back === 0 ? { ...option, label: `${option.label} · so far` } : option;
  });
}

function periodBack(kind: PeriodKind, year: number, month: number, back: number): PeriodOption {
  if (kind === "year") return { value: String(year - back), label: String(year - back) };
  if (kind === "month") {
    const first = new Date(year, month - back, 1);
    return { value: `${first.getFullYear()}-${String(first.getMonth() + 1).padStart(2, "0")}`, label: monthName.format(first) };
  }
  const first = new Date(year, Math.floor(month / 3) * 3 - back * 3, 1);
  const quarter = first.getMonth() / 3 + 1;
  const last = new Date(first.getFullYear(), first.getMonth() + 2, 1);
  return { value: `${first.getFullYear()}-Q${quarter}`, label: `Q${quarter} ${first.getFullYear()} (${shortMonth.format(first)}–${shortMonth.format(last)})` };
}

/** The current period of `kind`: what the report opens on, and what a change of kind goes to. */
export function currentPeriod(kind: PeriodKind, today: Date): string {
  return periodBack(kind, today.getFullYear(), today.getMonth(), 0).value;
}
