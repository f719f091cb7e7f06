import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/*
 * The owner's figures added up from scratch: every order row read as it stands and summed here, in JavaScript, with
 * none of the shop's own rollup code, so that a test can hold the rollups (sales_day, sales_day_category,
 * sales_month_product) against them. The rules are the issue's: a sale is an order paid and not cancelled, on the
 * Amsterdam day it was paid; channel EBAY for an eBay order, MANUAL for one staff placed, else WEBSHOP; its country
 * is its address's; pieces kept are the quantity less what refunds booked back into stock; cost is minus what its
 * lines' `stock_record_cost` rows hold; refunds and their fees count while PENDING or REFUNDED.
 */

const SOLD = new Set(["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "SHIPPED"]);
const GIVING_BACK = new Set(["PENDING", "REFUNDED"]);

type Figures = { orders: number; pieces: number; revenue: Decimal; costEuro: Decimal; costPhp: Decimal; unknownCostPieces: number; refunds: Decimal };
type DayFigures = Figures & { shipping: Decimal; providerFees: Decimal; labelCost: Decimal };
/** The rollups as lines of text: per day, per day and category, per product and month, per product and quarter or year. */
type Rollups = { days: string[]; categories: string[]; products: string[]; periods: string[] };

const zero = (): DayFigures => ({
  orders: 0,
  pieces: 0,
  revenue: new Decimal(0),
  costEuro: new Decimal(0),
  costPhp: new Decimal(0),
  unknownCostPieces: 0,
  refunds: new Decimal(0),
  shipping: new Decimal(0),
  providerFees: new Decimal(0),
  labelCost: new Decimal(0),
});

/** Amsterdam's calendar day of an instant. */
const amsterdamDay = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam", year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

const text = (figures: Partial<DayFigures>) =>
  Object.entries(figures)
    .map(([name, value]) => `${name}=${value instanceof Decimal ? value.toFixed(2) : String(value)}`)
    .join(" ");

const isEmpty = (figures: Partial<DayFigures>) => Object.values(figures).every((value) => (value instanceof Decimal ? value.isZero() : value === 0));

/** What a line's pieces cost, worked out apart (tests/helpers/fifo-replay.ts): the cost figures then come from there. */
type LineCostsFromScratch = ReadonlyMap<number, { costEuro: string; costPhp: string; unknownCostPieces: number }>;

/**
 * The rollups as lines of text, sorted, empty rows left out: what `rollupsAsStored` gives when they agree; a product's
 * month, quarter and year with its margin (revenue less cost and refunds). With `lineCosts`, each line's cost is taken
 * from them instead of from its `stock_record_cost` rows.
 */
export async function salesFromScratch(db: Db, options: { lineCosts?: LineCostsFromScratch } = {}): Promise<Rollups> {
  const rows = <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => rawRows<T>(db, query);
  const [orders, lines, refunds, restocks, costs] = await Promise.all([
    rows<{ id: number; status: string; soldAt: string | Date | null; shop: string; placedByStaff: boolean; labelCost: string | null; country: string | null; shipping: string | null; fees: string | null }>(sql`
      select o.id, o.status, o.sold_at as "soldAt", d.shop, d.placed_by_staff as "placedByStaff", d.label_cost as "labelCost",
        (select a.country_code from order_address a where a.order_id = o.id order by a.id limit 1) as country,
        (select sum(p.shipping_total) from payment_detail p where p.order_id = o.id) as shipping,
        (select sum(p.provider_fees) from payment_detail p where p.order_id = o.id) as fees
      from "order" o join order_detail d on d.order_id = o.id`),
    rows<{ id: number; orderId: number; productId: number; categoryId: number | null; quantity: number; totalPrice: string }>(sql`
      select i.id, i.order_id as "orderId", i.product_id as "productId", p.category_id as "categoryId", i.quantity, i.total_price as "totalPrice"
      from order_item i join product p on p.id = i.product_id`),
    rows<{ id: number; orderId: number; itemId: number | null; status: string; amount: string; fees: string | null; restocked: boolean }>(sql`
      select id, order_id as "orderId", refunded_order_item_id as "itemId", status, amount, provider_fees as fees, restocked_product as restocked from refund`),
    rows<{ refundId: number; quantity: number }>(sql`select refund_id as "refundId", quantity from stock_record where type = 'REFUND' and refund_id is not null`),
    rows<{ itemId: number; pieces: number; costEuro: string | null; costPhp: string | null }>(sql`
      select order_item_id as "itemId", pieces, cost_euro as "costEuro", cost_php as "costPhp" from stock_record_cost where order_item_id is not null`),
  ]);

  const days = new Map<string, DayFigures>();
  const categories = new Map<string, Figures>();
  const products = new Map<string, Figures>();
  const periods = new Map<string, Figures>();
  const at = <T>(map: Map<string, T>, key: string, make: () => T) => map.get(key) ?? map.set(key, make()).get(key)!;

  for (const sale of orders) {
    if (!SOLD.has(sale.status) || sale.soldAt === null) continue;
    const day = amsterdamDay(new Date(sale.soldAt));
    const channel = sale.shop === "EBAY" ? "EBAY" : sale.placedByStaff ? "MANUAL" : "WEBSHOP";
    const place = `${day} ${channel} ${sale.country ?? ""}`;
    const total = at(days, place, zero);
    const saleRefunds = refunds.filter((row) => row.orderId === sale.id && GIVING_BACK.has(row.status));
    total.orders += 1;
    total.shipping = total.shipping.plus(sale.shipping ?? 0);
    total.providerFees = total.providerFees.plus(sale.fees ?? 0).plus(saleRefunds.reduce((sum, row) => sum.plus(row.fees ?? 0), new Decimal(0)));
    total.labelCost = total.labelCost.plus(sale.labelCost ?? 0);
    total.refunds = total.refunds.plus(saleRefunds.reduce((sum, row) => sum.plus(row.amount), new Decimal(0)));

    const seenCategories = new Set<string>();
    const seenProducts = new Set<string>();
    const seenPeriods = new Set<string>();
    const quarter = `${day.slice(0, 4)}-Q${Math.ceil(Number(day.slice(5, 7)) / 3)}`;
    for (const line of lines.filter((row) => row.orderId === sale.id)) {
      const restockingRefunds = refunds.filter((row) => row.itemId === line.id && row.restocked).map((row) => row.id);
      const restocked = restocks.filter((row) => restockingRefunds.includes(row.refundId)).reduce((sum, row) => sum + row.quantity, 0);
      const kept = Math.max(0, line.quantity - Math.min(line.quantity, restocked));
      const lineCosts = costs.filter((row) => row.itemId === line.id);
      // A line the replay has no pieces of costs nothing, whatever rows the shop recorded for it.
      const given = options.lineCosts ? (options.lineCosts.get(line.id) ?? { costEuro: "0", costPhp: "0", unknownCostPieces: 0 }) : undefined;
      const costEuro = given ? new Decimal(given.costEuro) : lineCosts.reduce((sum, row) => sum.minus(row.costEuro ?? 0), new Decimal(0));
      const costPhp = given ? new Decimal(given.costPhp) : lineCosts.reduce((sum, row) => sum.minus(row.costPhp ?? 0), new Decimal(0));
      const unknown = given ? given.unknownCostPieces : lineCosts.filter((row) => row.costEuro === null).reduce((sum, row) => sum - row.pieces, 0);
      const lineRefunds = refunds.filter((row) => row.itemId === line.id && GIVING_BACK.has(row.status)).reduce((sum, row) => sum.plus(row.amount), new Decimal(0));

      const categoryKey = `${place} ${line.categoryId ?? 0}`;
      const productKey = `${day.slice(0, 8)}01 ${line.productId}`;
      for (const [figures, isDay, seen, key] of [
        [total, true, null, place],
        [at(categories, categoryKey, zero), false, seenCategories, categoryKey],
        [at(products, productKey, zero), false, seenProducts, productKey],
        [at(periods, `${quarter} ${line.productId}`, zero), false, seenPeriods, `${quarter} ${line.productId}`],
        [at(periods, `${day.slice(0, 4)} ${line.productId}`, zero), false, seenPeriods, `${day.slice(0, 4)} ${line.productId}`],
      ] as const) {
        if (!isDay && !seen!.has(key)) {
          figures.orders += 1;
          seen!.add(key);
        }
        figures.pieces += kept;
        figures.revenue = figures.revenue.plus(line.totalPrice);
        figures.costEuro = figures.costEuro.plus(costEuro);
        figures.costPhp = figures.costPhp.plus(costPhp);
        figures.unknownCostPieces += unknown;
        if (!isDay) figures.refunds = figures.refunds.plus(lineRefunds);
      }
    }
  }
  const listed = <T extends Partial<DayFigures>>(map: Map<string, T>, figures: (row: T) => Partial<DayFigures>) =>
    [...map.entries()].filter(([, row]) => !isEmpty(figures(row))).map(([key, row]) => `${key}: ${text(figures(row))}`).sort();
  const common = ({ orders, pieces, revenue, costEuro, costPhp, unknownCostPieces, refunds }: Figures) => ({ orders, pieces, revenue, costEuro, costPhp, unknownCostPieces, refunds });
  return {
    days: listed(days, (row) => ({ ...common(row), shipping: row.shipping, providerFees: row.providerFees, labelCost: row.labelCost })),
    categories: listed(categories, common),
    products: listed(products, withMargin),
    periods: listed(periods, withMargin),
  };
}

/** A product's figures and its margin, as the sellers report ranks it. */
const withMargin = (row: Figures & { margin?: Decimal }) => ({
  orders: row.orders,
  pieces: row.pieces,
  revenue: row.revenue,
  costEuro: row.costEuro,
  costPhp: row.costPhp,
  unknownCostPieces: row.unknownCostPieces,
  refunds: row.refunds,
  margin: row.margin ?? row.revenue.minus(row.costEuro).minus(row.refunds),
});

/** The rollup tables as stored, in the same lines of text as `salesFromScratch`. */
export async function rollupsAsStored(db: Db): Promise<Rollups> {
  type Row = Record<string, string | number>;
  const figure = (row: Row): DayFigures & { margin?: Decimal } => ({
    orders: Number(row.orders),
    pieces: Number(row.pieces),
    revenue: new Decimal(row.revenue!),
    costEuro: new Decimal(row.cost_euro!),
    costPhp: new Decimal(row.cost_php!),
    unknownCostPieces: Number(row.unknown_cost_pieces),
    refunds: new Decimal(row.refunds!),
    shipping: new Decimal(row.shipping ?? 0),
    providerFees: new Decimal(row.provider_fees ?? 0),
    labelCost: new Decimal(row.label_cost ?? 0),
    ...(row.margin === undefined ? {} : { margin: new Decimal(row.margin) }),
  });
  const common = ({ orders, pieces, revenue, costEuro, costPhp, unknownCostPieces, refunds }: Figures) => ({ orders, pieces, revenue, costEuro, costPhp, unknownCostPieces, refunds });
  const lines = (rows: Row[], key: (row: Row) => string, figures: (row: DayFigures & { margin?: Decimal }) => Partial<DayFigures> & { margin?: Decimal }) =>
    rows.map((row) => [key(row), figures(figure(row))] as const).filter(([, row]) => !isEmpty(row)).map(([name, row]) => `${name}: ${text(row)}`).sort();
  const [days, categories, products, periods] = await Promise.all([
    rawRows<Row>(db, sql`select to_char(day, 'YYYY-MM-DD') as day_text, * from sales_day`),
    rawRows<Row>(db, sql`select to_char(day, 'YYYY-MM-DD') as day_text, * from sales_day_category`),
    rawRows<Row>(db, sql`select to_char(month, 'YYYY-MM-DD') as month_text, * from sales_month_product`),
    rawRows<Row>(db, sql`select * from sales_period_product`),
  ]);
  return {
    days: lines(days, (row) => `${row.day_text} ${row.channel} ${row.country_code}`, (row) => ({ ...common(row), shipping: row.shipping, providerFees: row.providerFees, labelCost: row.labelCost })),
    categories: lines(categories, (row) => `${row.day_text} ${row.channel} ${row.country_code} ${row.category_id}`, common),
    products: lines(products, (row) => `${row.month_text} ${row.product_id}`, withMargin),
    periods: lines(periods, (row) => `${row.period} ${row.product_id}`, withMargin),
  };
}
