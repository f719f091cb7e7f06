import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { box, purchaseRecord, salesDay, salesMonthProduct, stockLot, stockRecord, stockRecordCost } from "@/server/db/schema";
import { rebuildHoldings } from "@/server/stock/holdings";
import { makeCategory, makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { agedLots, agedStock } from "./aged-stock";
import { reportCsv } from "./report-csv";
import { salesByMonth } from "./sales-by-month";
import { sellersInput } from "./schemas";
import { sellers } from "./sellers";
import { sellThrough } from "./sell-through";
import { stockValuation } from "./stock-valuation";

/**
 * The owner's reports against figures worked out by hand from rows put straight into the rollups and the cost layers
 * (which other code fills as orders and boxes change): two boxes, a lot found without a purchase, a write-off, sales
 * in three channels and the products' months.
 */

const t = databaseForFile();
const now = new Date("2026-03-15T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

let ids: { seiko: number; strap: number; loose: number; loss: number; box1: number; box2: number; lots: Record<string, number> };

async function lot(db: Db, values: { productId: number; purchaseRecordId?: number; bookedAt: Date; pieces: number; piecesLeft: number; euro?: string; php?: string }) {
  const [row] = await db
    .insert(stockLot)
    .values({
      ...values,
      unitCostEuro: values.euro === undefined ? null : new Decimal(values.euro),
      unitCostPhp: values.php === undefined ? null : new Decimal(values.php),
    })
    .returning({ id: stockLot.id });
  return row!.id;
}

beforeAll(async () => {
  const db = t.db;
  const watches = await makeCategory(db, "Watches");
  const seikoCategory = await makeCategory(db, "Seiko", watches.id);
  const straps = await makeCategory(db, "Straps");
  const seiko = await makeProduct(db, { name: "Seiko 6139", category: { id: seikoCategory.id, name: "Seiko" }, stock: 0 });
  const strap = await makeProduct(db, { name: "Leather strap", category: { id: straps.id, name: "Straps" }, stock: 0 });
  const loose = await makeProduct(db, { name: "Loose crown", stock: 0 });
  const loss = await makeProduct(db, { name: "Crystal", stock: 0 });
  const [box1] = await db.insert(box).values({ status: "EXPLODED" }).returning();
  const [box2] = await db.insert(box).values({ status: "EXPLODED" }).returning();
  const purchase = async (productId: number, boxId: number, pieces: number) => {
    const [row] = await db
      .insert(purchaseRecord)
      .values({ productId, boxId, purchaseCostEuro: new Decimal(1), purchaseCostPhp: new Decimal(60), purchasedStock: pieces, remainingStock: 0 })
      .returning();
    return row!.id;
  };
  const seikoInBox1 = await purchase(seiko.id, box1!.id, 10);
  const seikoInBox2 = await purchase(seiko.id, box2!.id, 5);
  const strapsInBox2 = await purchase(strap.id, box2!.id, 23);

  const lots = {
    // Over a year: 429 days.
    seikoOld: await lot(db, { productId: seiko.id, purchaseRecordId: seikoInBox1, bookedAt: daysAgo(429), pieces: 10, piecesLeft: 4, euro: "50.00", php: "3000.00" }),
    // 14 days.
    seikoNew: await lot(db, { productId: seiko.id, purchaseRecordId: seikoInBox2, bookedAt: daysAgo(14), pieces: 5, piecesLeft: 5, euro: "60.00", php: "3600.00" }),
    // 104 days; a correction wrote two of them off.
    straps: await lot(db, { productId: strap.id, purchaseRecordId: strapsInBox2, bookedAt: daysAgo(104), pieces: 20, piecesLeft: 8, euro: "2.50", php: "150.00" }),
    // Sold out: in the sell-through, not in the stock.
    strapsGone: await lot(db, { productId: strap.id, purchaseRecordId: strapsInBox2, bookedAt: daysAgo(104), pieces: 2, piecesLeft: 0, euro: "2.50", php: "150.00" }),
    // Exactly 30 days: still the first bucket.
    strapsMonth: await lot(db, { productId: strap.id, purchaseRecordId: strapsInBox2, bookedAt: daysAgo(30), pieces: 1, piecesLeft: 1, euro: "2.50", php: "150.00" }),
    // Found by a correction 42 days ago: no purchase, no box, no known cost.
    found: await lot(db, { productId: loose.id, bookedAt: daysAgo(42), pieces: 3, piecesLeft: 2 }),
  };
  const [writeOff] = await db.insert(stockRecord).values({ productId: strap.id, type: "INVENTORY_CORRECTION", quantity: -2 }).returning();
  await db.insert(stockRecordCost).values({ stockRecordId: writeOff!.id, lotId: lots.straps, pieces: -2, costEuro: new Decimal("-5.00"), costPhp: new Decimal("-300.00") });
  // A line removed from a manual order: its piece taken and given back, both rows without their line since. No write-off.
  const [taken] = await db.insert(stockRecord).values({ productId: strap.id, type: "ORDER_ITEM", quantity: -1 }).returning();
  const [back] = await db.insert(stockRecord).values({ productId: strap.id, type: "ORDER_ITEM", quantity: 1 }).returning();
  await db.insert(stockRecordCost).values([
    { stockRecordId: taken!.id, lotId: lots.straps, pieces: -1, costEuro: new Decimal("-2.50"), costPhp: new Decimal("-150.00") },
    { stockRecordId: back!.id, lotId: lots.straps, pieces: 1, costEuro: new Decimal("2.50"), costPhp: new Decimal("150.00") },
  ]);

  // What the lots hold per category and box: kept with the lots by stock/cost-layers.ts, here made from them at once.
  await rebuildHoldings(db);

  const day = (values: Partial<typeof salesDay.$inferInsert> & Pick<typeof salesDay.$inferInsert, "day" | "channel" | "countryCode">) => values;
  const money = (value: string) => new Decimal(value);
  await db.insert(salesDay).values([
    day({ day: "2026-03-02", channel: "WEBSHOP", countryCode: "NL", orders: 2, pieces: 3, revenue: money("300.00"), costEuro: money("120.00"), costPhp: money("7200.00"), refunds: money("10.00"), shipping: money("13.90"), providerFees: money("5.25"), labelCost: money("8.40") }),
    day({ day: "2026-03-10", channel: "WEBSHOP", countryCode: "DE", orders: 1, pieces: 1, revenue: money("100.00"), costEuro: money("40.00"), costPhp: money("2400.00"), shipping: money("9.95"), providerFees: money("1.75"), labelCost: money("4.20") }),
    day({ day: "2026-03-10", channel: "EBAY", countryCode: "NL", orders: 1, pieces: 2, revenue: money("80.00"), costEuro: money("30.00"), costPhp: money("1800.00"), unknownCostPieces: 1, shipping: money("5.00"), providerFees: money("9.60"), labelCost: money("4.20") }),
    day({ day: "2026-02-28", channel: "MANUAL", countryCode: "", orders: 1, pieces: 1, revenue: money("50.00"), costEuro: money("20.00"), costPhp: money("1200.00") }),
    day({ day: "2025-03-31", channel: "WEBSHOP", countryCode: "NL", orders: 1, pieces: 1, revenue: money("999.00") }),
  ]);

  const month = (values: Partial<typeof salesMonthProduct.$inferInsert> & Pick<typeof salesMonthProduct.$inferInsert, "month" | "productId">) => values;
  await db.insert(salesMonthProduct).values([
    month({ month: "2026-01-01", productId: seiko.id, orders: 2, pieces: 2, revenue: money("300.00"), costEuro: money("100.00") }),
    month({ month: "2026-02-01", productId: seiko.id, orders: 1, pieces: 1, revenue: money("150.00"), costEuro: money("50.00"), refunds: money("150.00") }),
    month({ month: "2026-02-01", productId: strap.id, orders: 5, pieces: 10, revenue: money("100.00"), costEuro: money("25.00") }),
    month({ month: "2026-02-01", productId: loose.id, orders: 1, pieces: 1, revenue: money("20.00"), unknownCostPieces: 1 }),
    month({ month: "2026-02-01", productId: loss.id, orders: 1, pieces: 1, revenue: money("10.00"), costEuro: money("40.00") }),
    month({ month: "2026-03-01", productId: strap.id, orders: 9, pieces: 9, revenue: money("1000.00") }),
    month({ month: "2025-12-01", productId: loose.id, orders: 3, pieces: 3, revenue: money("500.00") }),
    // An order cancelled since: nothing left of it, so no seller.
    month({ month: "2025-11-01", productId: seiko.id }),
  ]);
  // The quarters and years, kept with the months by orders/sales-rollup.ts: here added up from them, as the migration did.
  await db.execute(sql`
    insert into sales_period_product (period, product_id, orders, pieces, revenue, cost_euro, cost_php, unknown_cost_pieces, refunds)
    select period, product_id, sum(orders), sum(pieces), sum(revenue), sum(cost_euro), sum(cost_php), sum(unknown_cost_pieces), sum(refunds)
    from sales_month_product, lateral (values (to_char(month, 'YYYY-"Q"Q')), (to_char(month, 'YYYY'))) as periods (period) group by 1, 2`);
  ids = { seiko: seiko.id, strap: strap.id, loose: loose.id, loss: loss.id, box1: box1!.id, box2: box2!.id, lots };
});

const text = (value: Decimal | null) => (value === null ? null : value.toFixed(2));

describe("sales and margin by month and channel", () => {
  it("adds up each month's days per channel and takes the margin with the margins' formula", async () => {
    const report = await salesByMonth(t.db, { months: 12 }, now);
    expect(report.months).toHaveLength(36);
    expect(report.months.slice(0, 3).map((row) => `${row.month} ${row.channel}`)).toEqual(["2025-04 WEBSHOP", "2025-04 EBAY", "2025-04 MANUAL"]);
    const row = (month: string, channel: string) => report.months.find((candidate) => candidate.month === month && candidate.channel === channel)!;
    const figures = (month: string, channel: string) => {
      const found = row(month, channel);
      return [found.orders, found.pieces, ...[found.revenue, found.shipping, found.purchaseCost, found.purchaseCostPhp].map(text), found.unknownCostPieces, ...[found.providerFees, found.labelCost, found.refunds, found.margin].map(text)];
    };
    // 300 + 100 + 13.90 + 9.95 - 160 - 7.00 - 12.60 - 10 = 234.25
    expect(figures("2026-03", "WEBSHOP")).toEqual([3, 4, "400.00", "23.85", "160.00", "9600.00", 0, "7.00", "12.60", "10.00", "234.25"]);
    // 80 + 5 - 30 - 9.60 - 4.20 = 41.20, one piece of unknown cost
    expect(figures("2026-03", "EBAY")).toEqual([1, 2, "80.00", "5.00", "30.00", "1800.00", 1, "9.60", "4.20", "0.00", "41.20"]);
    expect(figures("2026-03", "MANUAL")).toEqual([0, 0, "0.00", "0.00", "0.00", "0.00", 0, "0.00", "0.00", "0.00", "0.00"]);
    expect(figures("2026-02", "MANUAL")).toEqual([1, 1, "50.00", "0.00", "20.00", "1200.00", 0, "0.00", "0.00", "0.00", "30.00"]);
    expect(report.months.some((candidate) => candidate.month === "2025-03")).toBe(false);
  });

  it("reaches back 24 months, and counts months in shop time", async () => {
    const two = await salesByMonth(t.db, { months: 24 }, now);
    expect(two.months[0]!.month).toBe("2024-04");
    expect(two.months.find((row) => row.month === "2025-03" && row.channel === "WEBSHOP")!.revenue.toFixed(2)).toBe("999.00");
    // 23:30 UTC on 31 March is 01:30 on 1 April in Amsterdam: April is the current month.
    const april = await salesByMonth(t.db, { months: 12 }, new Date("2026-03-31T23:30:00Z"));
    expect([april.months[0]!.month, april.months.at(-1)!.month]).toEqual(["2025-05", "2026-04"]);
  });
});

describe("stock valuation at cost", () => {
  it("values the pieces left at their lots' cost in total, per category and per box, and counts unknown-cost pieces apart", async () => {
    const valuation = await stockValuation(t.db);
    const figures = (value: { pieces: number; valueEuro: Decimal; valuePhp: Decimal; unknownCostPieces: number }) => [value.pieces, text(value.valueEuro), text(value.valuePhp), value.unknownCostPieces];
    // 4 × 50 + 5 × 60 + 8 × 2.50 + 1 × 2.50; the two found pieces have no cost.
    expect(figures(valuation.total)).toEqual([20, "522.50", "31350.00", 2]);
    expect(valuation.categories.map((row) => [row.category, ...figures(row)])).toEqual([
      ["Watches › Seiko", 9, "500.00", "30000.00", 0],
      ["Straps", 9, "22.50", "1350.00", 0],
      ["No category", 2, "0.00", "0.00", 2],
    ]);
    expect(valuation.boxes.map((row) => [row.boxId, ...figures(row)])).toEqual([
      [ids.box2, 14, "322.50", "19350.00", 0],
      [ids.box1, 4, "200.00", "12000.00", 0],
      [null, 2, "0.00", "0.00", 2],
    ]);
  });
});

describe("aged stock", () => {
  it("puts each lot with pieces left in the bucket of its whole days in stock, with the money tied up", async () => {
    const aged = await agedStock(t.db, { page: 1, pageSize: 25 }, now);
    expect(aged.buckets.map((bucket) => [bucket.key, bucket.lots, bucket.pieces, text(bucket.valueEuro), text(bucket.valuePhp), bucket.unknownCostPieces])).toEqual([
      ["0-30", 2, 6, "302.50", "18150.00", 0],
      ["31-90", 1, 2, "0.00", "0.00", 2],
      ["91-180", 1, 8, "20.00", "1200.00", 0],
      ["181-365", 0, 0, "0.00", "0.00", 0],
      ["over-365", 1, 4, "200.00", "12000.00", 0],
    ]);
    expect(aged.totalLots).toBe(5);
    expect(aged.lots.map((lot) => [lot.lotId, lot.productId, lot.boxId, lot.daysInStock, lot.piecesLeft, text(lot.unitCostEuro), text(lot.valueEuro)])).toEqual([
      [ids.lots.seikoOld, ids.seiko, ids.box1, 429, 4, "50.00", "200.00"],
      [ids.lots.straps, ids.strap, ids.box2, 104, 8, "2.50", "20.00"],
      [ids.lots.found, ids.loose, null, 42, 2, null, null],
      [ids.lots.strapsMonth, ids.strap, ids.box2, 30, 1, "2.50", "2.50"],
      [ids.lots.seikoNew, ids.seiko, ids.box2, 14, 5, "60.00", "300.00"],
    ]);
    expect(aged.lots[0]!.productName).toBe("Seiko 6139");
  });

  it("pages the oldest lots first, by offset and after the last one read", async () => {
    expect((await agedLots(t.db, { limit: 2, offset: 2 }, now)).map((lot) => lot.lotId)).toEqual([ids.lots.found, ids.lots.strapsMonth]);
    const second = (await agedLots(t.db, { limit: 2 }, now))[1]!;
    expect((await agedLots(t.db, { limit: 2, after: { bookedAt: second.bookedAt, lotId: second.lotId } }, now)).map((lot) => lot.lotId)).toEqual([ids.lots.found, ids.lots.strapsMonth]);
  });
});

describe("sell-through", () => {
  it("counts per category and per box the pieces received, written off, left and sold, and the rate sold", async () => {
    const report = await sellThrough(t.db);
    const figures = (row: { received: number; sold: number; writtenOff: number; left: number; rate: Decimal | null }) => [row.received, row.sold, row.writtenOff, row.left, row.rate?.toFixed(4) ?? null];
    expect(report.categories.map((row) => [row.category, ...figures(row)])).toEqual([
      // 20 + 2 + 1 received, 8 + 0 + 1 left, 2 written off: 12 sold of 23.
      ["Straps", 23, 12, 2, 9, "0.5217"],
      ["Watches › Seiko", 15, 6, 0, 9, "0.4000"],
      ["No category", 3, 1, 0, 2, "0.3333"],
    ]);
    expect(report.boxes.map((row) => [row.boxId, ...figures(row)])).toEqual([
      [ids.box2, 28, 12, 2, 14, "0.4286"],
      [ids.box1, 10, 6, 0, 4, "0.6000"],
      [null, 3, 1, 0, 2, "0.3333"],
    ]);
  });
});

describe("best and worst sellers", () => {
  const rows = (list: Awaited<ReturnType<typeof sellers>>["best"]) =>
    list.map((row) => [row.productName, row.orders, row.pieces, text(row.revenue), text(row.purchaseCost), row.unknownCostPieces, text(row.refunds), text(row.margin)]);

  it("ranks the products by revenue less purchase cost and refunds over a quarter", async () => {
    const found = await sellers(t.db, { period: "2026-Q1", limit: 2 });
    expect(found.period).toBe("2026-Q1");
    // The straps: 1100 - 25 over February and March; the Seiko: 450 - 150 - 150 over January and February.
    expect(rows(found.best)).toEqual([
      ["Leather strap", 14, 19, "1100.00", "25.00", 0, "0.00", "1075.00"],
      ["Seiko 6139", 3, 3, "450.00", "150.00", 0, "150.00", "150.00"],
    ]);
    expect(rows(found.worst)).toEqual([
      ["Crystal", 1, 1, "10.00", "40.00", 0, "0.00", "-30.00"],
      ["Loose crown", 1, 1, "20.00", "0.00", 1, "0.00", "20.00"],
    ]);
  });

  it("over a month, and over a year, leaving out a product whose orders were all cancelled", async () => {
    const february = await sellers(t.db, { period: "2026-02", limit: 2 });
    expect(rows(february.best).map((row) => [row[0], row.at(-1)])).toEqual([["Leather strap", "75.00"], ["Loose crown", "20.00"]]);
    expect(rows(february.worst).map((row) => [row[0], row.at(-1)])).toEqual([["Seiko 6139", "-50.00"], ["Crystal", "-30.00"]]);
    const year = await sellers(t.db, { period: "2025", limit: 5 });
    expect(rows(year.best)).toEqual([["Loose crown", 3, 3, "500.00", "0.00", 0, "0.00", "500.00"]]);
    expect(rows(year.worst)).toEqual(rows(year.best));
    expect((await sellers(t.db, { period: "2024-Q2", limit: 5 })).best).toEqual([]);
  });

  it("takes a month, a quarter or a year, nothing else", () => {
    for (const period of ["2026-03", "2026-Q4", "2026"]) expect(sellersInput.safeParse({ period }).success).toBe(true);
    for (const period of ["2026-13", "2026-Q5", "26", "2026-01-01", ""]) expect(sellersInput.safeParse({ period }).success).toBe(false);
  });
});

describe("CSV for the accountant", () => {
  async function read(lines: AsyncGenerator<string>): Promise<string[]> {
    let all = "";
    for await (const chunk of lines) all += chunk;
    return all.replace(/^\uFEFF/, "").split("\r\n").filter(Boolean);
  }

  it("writes each report's figures as the page shows them", async () => {
    const sales = reportCsv(t.db, "sales", new URLSearchParams("months=12"), now);
    expect(sales.filename).toBe("sales-by-month-12-months-2026-03-15.csv");
    const salesLines = await read(sales.lines);
    expect(salesLines).toHaveLength(37);
    expect(salesLines).toContain("2026-03,WEBSHOP,3,4,400.00,23.85,160.00,9600.00,0,7.00,12.60,10.00,234.25");

    const value = await read(reportCsv(t.db, "stock-value", new URLSearchParams(), now).lines);
    expect(value.slice(0, 3)).toEqual(["group,name,pieces,value_eur,value_php,unknown_cost_pieces", "total,All stock,20,522.50,31350.00,2", "category,Watches › Seiko,9,500.00,30000.00,0"]);

    const aged = await read(reportCsv(t.db, "aged-stock", new URLSearchParams(), now).lines);
    expect(aged).toHaveLength(6);
    expect(aged[3]).toBe(`${ids.lots.found},${ids.loose},Loose crown,,${daysAgo(42).toISOString()},42,2,,`);

    const through = await read(reportCsv(t.db, "sell-through", new URLSearchParams(), now).lines);
    expect(through[1]).toBe("category,Straps,23,12,2,9,0.5217");

    const sellersFile = reportCsv(t.db, "sellers", new URLSearchParams("period=2026-Q1"), now);
    expect(sellersFile.filename).toBe("sellers-2026-Q1.csv");
    const best = await read(sellersFile.lines);
    expect(best[1]).toBe(`best,1,${ids.strap},Leather strap,14,19,1100.00,25.00,0,0.00,1075.00`);
    expect(best.at(-1)).toBe(`worst,4,${ids.strap},Leather strap,14,19,1100.00,25.00,0,0.00,1075.00`);
  });
});
