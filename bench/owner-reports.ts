// The owner's reports (issue 29: each under 100 ms at 1M orders and 100k products), timed on the database
// `bench/admin-orders.ts` measures, after its shapes. The reports read the rollups and the cost layers: on a database
// seeded before those are written they are empty, and the figures say little; fill them first (or run after the
// migration of existing data that fills them).
import type { Db } from "@/server/db/client";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Prints p50 and p95 of each report over `rounds` timed calls (after two to warm up); answers whether all held 100 ms. */
export async function benchOwnerReports(db: Db, rounds: number): Promise<boolean> {
  const { salesByMonth } = await import("@/server/reports/sales-by-month");
  const { stockValuation } = await import("@/server/reports/stock-valuation");
  const { agedStock } = await import("@/server/reports/aged-stock");
  const { sellThrough } = await import("@/server/reports/sell-through");
  const { sellers } = await import("@/server/reports/sellers");
  const { shopMonthsUpTo } = await import("@/lib/shop-clock");
  const { rawRows } = await import("@/server/db/raw-rows");
  const { sql } = await import("drizzle-orm");

  const [sizes] = await rawRows<{ lots: number; holdings: number; days: number; productMonths: number; productPeriods: number }>(
    db,
    sql`select (select count(*) from stock_lot)::int as lots, (select count(*) from stock_holding)::int as holdings, (select count(*) from sales_day)::int as days,
               (select count(*) from sales_month_product)::int as "productMonths", (select count(*) from sales_period_product)::int as "productPeriods"`,
  );
  console.log(
    `\nThe owner's reports (${sizes?.lots} lots in ${sizes?.holdings} category-box holdings, ${sizes?.days} channel-country days, ` +
      `${sizes?.productMonths} product months, ${sizes?.productPeriods} product quarters and years):`,
  );
  // The periods a person picks (reports/schemas.ts sellersPeriod): last month, last quarter, last year, whole; and this year.
  const [year, month] = shopMonthsUpTo(new Date(), 1)[0]!.split("-").map(Number) as [number, number];
  const lastMonth = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
  const quarter = Math.ceil(month / 3);
  const lastQuarter = quarter === 1 ? `${year - 1}-Q4` : `${year}-Q${quarter - 1}`;
  const reports: [string, () => Promise<unknown>][] = [
    ["sales by month and channel · 12 months", () => salesByMonth(db, { months: 12 })],
    ["sales by month and channel · 24 months", () => salesByMonth(db, { months: 24 })],
    ["stock valuation (total, category, box)", () => stockValuation(db)],
    ["aged stock · page 1", () => agedStock(db, { page: 1, pageSize: 50 })],
    ["aged stock · page 20", () => agedStock(db, { page: 20, pageSize: 50 })],
    ["sell-through (category, box)", () => sellThrough(db)],
    [`best and worst sellers · month ${lastMonth}`, () => sellers(db, { period: lastMonth, limit: 20 })],
    [`best and worst sellers · quarter ${lastQuarter}`, () => sellers(db, { period: lastQuarter, limit: 20 })],
    [`best and worst sellers · year ${year - 1}`, () => sellers(db, { period: String(year - 1), limit: 20 })],
    [`best and worst sellers · year ${year} so far`, () => sellers(db, { period: String(year), limit: 20 })],
  ];
  let held = true;
  for (const [label, run] of reports) {
    for (let i = 0; i < 2; i++) await run();
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    held &&= p95 < 100;
    console.log(`${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms`);
  }
  console.log(`reports: target p95 < 100 ms: ${held ? "met" : "NOT met"}`);
  return held;
}
