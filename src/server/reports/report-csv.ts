import "server-only";
import type { Decimal } from "decimal.js";
import { csvAmount, csvHeader, csvLine, csvText } from "@/lib/csv";
import type { Db } from "@/server/db/client";
import { agedLots } from "./aged-stock";
import { monthOf } from "./figures";
import { salesByMonth } from "./sales-by-month";
import { salesReportInput, sellersInput, type ReportName, type StockValue } from "./schemas";
import { sellers } from "./sellers";
import { sellThrough } from "./sell-through";
import { stockValuation } from "./stock-valuation";

/*
 * Each owner's report as CSV for the accountant, with the figures the page shows: amounts with a dot and two decimals,
 * a rate as a fraction (0.2500), empty where a cost is unknown. The aged lots stream in batches, oldest first; the
 * other reports are a few hundred lines at most.
 */

const LOT_BATCH = 1000;

/** The file's name and its lines; the report's options come from the address (`?months=24`, `?period=2026-Q1`). */
export function reportCsv(db: Db, report: ReportName, search: URLSearchParams, now = new Date()): { filename: string; lines: AsyncGenerator<string> } {
  const day = now.toISOString().slice(0, 10);
  switch (report) {
    case "sales": {
      const input = salesReportInput.parse({ months: search.has("months") ? Number(search.get("months")) : undefined });
      return { filename: `sales-by-month-${input.months}-months-${day}.csv`, lines: salesCsv(db, input.months, now) };
    }
    case "stock-value":
      return { filename: `stock-value-${day}.csv`, lines: stockValueCsv(db) };
    case "aged-stock":
      return { filename: `aged-stock-${day}.csv`, lines: agedStockCsv(db, now) };
    case "sell-through":
      return { filename: `sell-through-${day}.csv`, lines: sellThroughCsv(db) };
    case "sellers": {
      const input = sellersInput.parse({ period: search.get("period") ?? monthOf(now), limit: 100 });
      return { filename: `sellers-${input.period}.csv`, lines: sellersCsv(db, input) };
    }
  }
}

const rate = (value: Decimal | null) => (value === null ? "" : value.toFixed(4));

async function* salesCsv(db: Db, months: 12 | 24, now: Date): AsyncGenerator<string> {
  yield csvHeader(["month", "channel", "orders", "pieces", "revenue", "shipping", "purchase_cost", "purchase_cost_php", "unknown_cost_pieces", "provider_fees", "label_cost", "refunds", "margin"]);
  const report = await salesByMonth(db, { months }, now);
  let text = "";
  for (const row of report.months) {
    text += csvLine([
      row.month,
      row.channel,
      String(row.orders),
      String(row.pieces),
      ...[row.revenue, row.shipping, row.purchaseCost, row.purchaseCostPhp].map(csvAmount),
      String(row.unknownCostPieces),
      ...[row.providerFees, row.labelCost, row.refunds, row.margin].map(csvAmount),
    ]);
  }
  yield text;
}

const valueCells = (value: StockValue) => [String(value.pieces), csvAmount(value.valueEuro), csvAmount(value.valuePhp), String(value.unknownCostPieces)];

async function* stockValueCsv(db: Db): AsyncGenerator<string> {
  yield csvHeader(["group", "name", "pieces", "value_eur", "value_php", "unknown_cost_pieces"]);
  const valuation = await stockValuation(db);
  let text = csvLine(["total", "All stock", ...valueCells(valuation.total)]);
  for (const row of valuation.categories) text += csvLine(["category", csvText(row.category), ...valueCells(row)]);
  for (const row of valuation.boxes) text += csvLine(["box", row.boxId === null ? "No box" : `Box ${row.boxId}`, ...valueCells(row)]);
  yield text;
}

async function* agedStockCsv(db: Db, now: Date): AsyncGenerator<string> {
  yield csvHeader(["lot", "product_id", "product", "box", "booked_at", "days_in_stock", "pieces_left", "unit_cost_eur", "value_eur"]);
  let after: { bookedAt: Date; lotId: number } | undefined;
  for (;;) {
    const lots = await agedLots(db, { limit: LOT_BATCH, after }, now);
    if (lots.length === 0) return;
    let text = "";
    for (const lot of lots) {
      text += csvLine([
        String(lot.lotId),
        String(lot.productId),
        csvText(lot.productName),
        lot.boxId === null ? "" : String(lot.boxId),
        lot.bookedAt.toISOString(),
        String(lot.daysInStock),
        String(lot.piecesLeft),
        csvAmount(lot.unitCostEuro),
        csvAmount(lot.valueEuro),
      ]);
    }
    yield text;
    const last = lots.at(-1)!;
    after = { bookedAt: last.bookedAt, lotId: last.lotId };
  }
}

async function* sellThroughCsv(db: Db): AsyncGenerator<string> {
  yield csvHeader(["group", "name", "received", "sold", "written_off", "left", "sell_through"]);
  const report = await sellThrough(db);
  const cells = (row: (typeof report.categories)[number] | (typeof report.boxes)[number]) => [String(row.received), String(row.sold), String(row.writtenOff), String(row.left), rate(row.rate)];
  let text = "";
  for (const row of report.categories) text += csvLine(["category", csvText(row.category), ...cells(row)]);
  for (const row of report.boxes) text += csvLine(["box", row.boxId === null ? "No box" : `Box ${row.boxId}`, ...cells(row)]);
  yield text;
}

async function* sellersCsv(db: Db, input: Required<Parameters<typeof sellers>[1]>): AsyncGenerator<string> {
  yield csvHeader(["list", "rank", "product_id", "product", "orders", "pieces", "revenue", "purchase_cost", "unknown_cost_pieces", "refunds", "margin"]);
  const found = await sellers(db, input);
  let text = "";
  for (const [list, rows] of [["best", found.best], ["worst", found.worst]] as const) {
    rows.forEach((row, index) => {
      text += csvLine([
        list,
        String(index + 1),
        String(row.productId),
        csvText(row.productName),
        String(row.orders),
        String(row.pieces),
        csvAmount(row.revenue),
        csvAmount(row.purchaseCost),
        String(row.unknownCostPieces),
        csvAmount(row.refunds),
        csvAmount(row.margin),
      ]);
    });
  }
  yield text;
}
