import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { csvAmount, csvHeader, csvLine, csvText } from "@/lib/csv";
import type { PaymentProvider } from "@/lib/enums";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import type { Db } from "@/server/db/client";
import { pageCount } from "@/server/db/page";
import { rawRows } from "@/server/db/raw-rows";
import { moneyBackRefundStatuses } from "@/lib/enums";
import { order, orderAddress, orderDetail, orderItem, paymentDetail, product, refund } from "@/server/db/schema";
import { shopDateAndHour } from "@/server/shipping/service";
import { EXACT_COUNT_LIMIT, type AdminOrderPage, type AdminOrderRow, type OrderExportInput, type OrderListQuery } from "./admin-schemas";
import { paidOrderStatuses } from "./order-machine";
import { withOrderDetails } from "./order-rows";
import { CANDIDATES, searchNarrowing, searchWays } from "./order-search";
import { orderStanding } from "./order-standing";
import type { OrderTotals } from "./schemas";
import { storedOrderTotals } from "./totals";

/*
 * The order admin's table of orders and its CSV export. One order's page is `admin-order-page.ts`, status changes by
 * staff `staff-status-changes.ts`.
 *
 * The table must answer in milliseconds over a million orders, so every list query walks an index in the order it
 * sorts by and stops at the page, and a search reads its matches from indexes (`order-search.ts`). The indexes it
 * relies on, those marked + added by drizzle/0011, * by drizzle/0023 (ascending: PostgreSQL reads them backwards for
 * newest first, which a DESC NULLS LAST index would not give a plain DESC):
 *
 *   + order_created_idx                     "order" (created_at, id): all orders by date; a date range
 *   + order_status_created_idx              "order" (status, created_at, id): one status by date, with a date range
 *     order_number_unique                   "order" (order_number): a whole order number; a bare number after the year
 *   + order_number_pattern_idx              "order" (order_number text_pattern_ops): LIKE 'BC-2026-00%'
 *   + order_address_email_pattern_idx       order_address (lower(email) text_pattern_ops, email, order_id): an
 *                                           e-mail, whole or its start (the trailing columns: without the table)
 *   * order_address_full_name_start_idx     order_address (folded first and last name text_pattern_ops, first_name,
 *                                           last_name, order_id): a name's start, accents and apostrophes aside
 *   * order_address_last_name_start_idx     order_address (folded last name text_pattern_ops, last_name, order_id)
 *   + order_item_product_order_idx          order_item (product_id, order_id): product words to orders, with
 *                                           product_search_vector_idx
 *   + payment_detail_total_idx              payment_detail (total, order_id): sorting by total
 *   + order_detail_shop_carrier_method_idx  order_detail (shop, carrier, shipping_method, order_id), and statistics
 *                                           on the three: the shop, carrier and method filters
 *     order_pkey, order_address_order_idx, order_detail_order_unique, payment_detail_order_idx, order_item_order_idx
 *         a page's rows and the country filter
 */

// ---------------------------------------------------------------------------------------------------------------
// The order table
// ---------------------------------------------------------------------------------------------------------------

/** The start of a day in shop time, `days` later, as a timestamp PostgreSQL compares with the indexed column. */
function shopDayStart(day: string, days = 0): SQL {
  return sql`((${day}::date + ${days}::int)::timestamp at time zone ${SHOP_TIME_ZONE})`;
}

/** The conditions on the order itself and, through semi-joins, on its detail and address. */
function listFilters(input: OrderListQuery): SQL[] {
  const filters: SQL[] = [];
  if (input.status) filters.push(sql`${order.status} = ${input.status}`);
  if (input.from) filters.push(sql`${order.createdAt} >= ${shopDayStart(input.from)}`);
  if (input.to) filters.push(sql`${order.createdAt} < ${shopDayStart(input.to, 1)}`);
  const detail: SQL[] = [];
  if (input.shop) detail.push(sql`${orderDetail.shop} = ${input.shop}`);
  if (input.shippingMethod) detail.push(sql`${orderDetail.shippingMethod} = ${input.shippingMethod}`);
  if (input.carrier) detail.push(sql`${orderDetail.carrier} = ${input.carrier}`);
  if (detail.length > 0) {
    filters.push(sql`exists (select 1 from ${orderDetail} where ${orderDetail.orderId} = ${order.id} and ${sql.join(detail, sql` and `)})`);
  }
  if (input.countryCode) {
    filters.push(sql`exists (select 1 from ${orderAddress} where ${orderAddress.orderId} = ${order.id} and ${orderAddress.countryCode} = ${input.countryCode})`);
  }
  return filters;
}

/**
 * One page of the order table and how many orders match. The page's ids come first, from the order table and its
 * indexes alone (a search first decides, from a bounded set of candidates, between sorting its few matches and
 * walking the sort's index through its many: `order-search.ts`); the rows are then read for those ids only. The
 * count is exact up to `exactCountLimit` matches (counting stops there; `EXACT_COUNT_LIMIT` unless a test or
 * benchmark says otherwise) and the planner's estimate beyond. `candidates` is `CANDIDATES` unless a test says otherwise.
 */
export async function listOrders(
  db: Db,
  input: OrderListQuery,
  options: { now?: Date; exactCountLimit?: number; candidates?: number } = {},
): Promise<AdminOrderPage> {
  const exactCountLimit = options.exactCountLimit ?? EXACT_COUNT_LIMIT;
  const candidates = options.candidates ?? CANDIDATES;
  const empty = { rows: [], totalItems: 0, totalIsEstimate: false, page: input.page, pageSize: input.pageSize, totalPages: 1 };
  const ways = input.search ? searchWays(input.search, options.now ?? new Date()) : undefined;
  if (ways === null) return empty;
  const search = ways ? await searchNarrowing(db, ways, candidates) : undefined;
  if (search === "none") return empty;

  const filters = listFilters(input);
  // More than `candidates` match, and no filter could leave fewer: counting would only confirm it.
  const pastExactCount = search?.common === true && filters.length === 0 && candidates >= exactCountLimit;
  const whereOf = (conditions: SQL[]) => (conditions.length > 0 ? sql` where ${sql.join(conditions, sql` and `)}` : sql``);
  const where = whereOf(search?.condition ? [...filters, search.condition] : filters);
  const withMatches = search?.with ?? sql``;
  const joinMatches = search?.join ?? sql``;
  const direction = sql.raw(input.direction);
  const sortByTotal = input.sort === "total";
  const orderBy = {
    date: sql`${order.createdAt} ${direction}, ${order.id} ${direction}`,
    // Numbers are handed out by a sequence as orders are inserted, so the id order is the number order.
    number: sql`${order.id} ${direction}`,
    total: sql`${paymentDetail.total} ${direction}, ${order.id} ${direction}`,
  }[input.sort];
  const joinTotal = sortByTotal ? sql` join ${paymentDetail} on ${paymentDetail.orderId} = ${order.id}` : sql``;

  const [pageIds, counted] = await Promise.all([
    rawRows<{ id: number }>(
      db,
      sql`${withMatches}select ${order.id} as id from ${order}${joinMatches}${joinTotal}${where}
          order by ${orderBy} limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`,
    ),
    pastExactCount
      ? exactCountLimit + 1
      : rawRows<{ n: number }>(db, sql`${withMatches}select count(*)::int as n from (select 1 from ${order}${joinMatches}${where} limit ${exactCountLimit + 1}) as counted`).then(
          ([row]) => Number(row?.n ?? 0),
        ),
  ]);
  const totalIsEstimate = counted > exactCountLimit;
  const estimated = sql`select 1 from ${order}${whereOf(search ? [...filters, search.estimated] : filters)}`;
  const totalItems = totalIsEstimate ? Math.max(counted, await estimatedRows(db, estimated)) : counted;

  const ids = pageIds.map((row) => Number(row.id));
  const rows = await readOrderRows(db, ids);
  return {
    rows: ids.map((id) => rows.get(id)).filter((row) => row !== undefined),
    totalItems,
    totalIsEstimate,
    page: input.page,
    pageSize: input.pageSize,
    totalPages: pageCount(totalItems, input.pageSize),
  };
}

/** The planner's estimate of how many rows `query` returns, from the table statistics, without running it. */
async function estimatedRows(db: Db, query: SQL): Promise<number> {
  const [row] = await rawRows<{ "QUERY PLAN": unknown }>(db, sql`explain (format json) ${query}`);
  const plan = typeof row?.["QUERY PLAN"] === "string" ? JSON.parse(row["QUERY PLAN"]) : row?.["QUERY PLAN"];
  return Math.round(Number((plan as [{ Plan: { "Plan Rows": number } }] | undefined)?.[0]?.Plan["Plan Rows"] ?? 0));
}

/** "Ada Lovelace", or "Ada Lovelace (Analytical Engines)" for an order to a company. */
function customerName(address: { firstName: string; lastName: string; companyName: string | null }): string {
  const name = `${address.firstName} ${address.lastName}`;
  return address.companyName ? `${name} (${address.companyName})` : name;
}

type OrderRow = AdminOrderRow & { soldAt: Date | null; totals: OrderTotals; provider: PaymentProvider; providerFees: Decimal | null };

/** The table's rows (and the export's) for these orders, by id, their totals from `storedOrderTotals`. */
async function readOrderRows(db: Db, ids: readonly number[]): Promise<Map<number, OrderRow>> {
  if (ids.length === 0) return new Map();
  const [orders, lines, refunds] = await Promise.all([
    withOrderDetails(
      db
      .select({
        orderId: order.id,
        orderNumber: order.orderNumber,
        createdAt: order.createdAt,
        soldAt: order.soldAt,
        status: order.status,
        firstName: orderAddress.firstName,
        lastName: orderAddress.lastName,
        companyName: orderAddress.companyName,
        email: orderAddress.email,
        countryCode: orderAddress.countryCode,
        country: orderAddress.country,
        shop: orderDetail.shop,
        shippingMethod: orderDetail.shippingMethod,
        carrier: orderDetail.carrier,
        trackingNumber: orderDetail.trackingNumber,
        labelKey: orderDetail.gcsLabelFilename,
        provider: paymentDetail.provider,
        providerFees: paymentDetail.providerFees,
        paid: paymentDetail.total,
        shippingTotal: paymentDetail.shippingTotal,
        additionalShippingFees: paymentDetail.additionalShippingFees,
      })
      .from(order)
      .$dynamic(),
    ).where(inArray(order.id, [...ids])),
    db
      .select({ orderId: orderItem.orderId, name: product.name, quantity: orderItem.quantity, totalPrice: orderItem.totalPrice, totalDiscountAmount: orderItem.totalDiscountAmount })
      .from(orderItem)
      .innerJoin(product, eq(product.id, orderItem.productId))
      .where(inArray(orderItem.orderId, [...ids]))
      .orderBy(asc(orderItem.id)),
    // What went back or is on its way, as the order's view counts it (`readCustomerRefunds`).
    db
      .select({ orderId: refund.orderId, refunded: sql<string>`sum(${refund.amount})` })
      .from(refund)
      .where(and(inArray(refund.orderId, [...ids]), inArray(refund.status, [...moneyBackRefundStatuses])))
      .groupBy(refund.orderId),
  ]);
  const refundedOf = new Map(refunds.map((row) => [row.orderId, new Decimal(row.refunded)]));
  const linesOf = new Map<number, typeof lines>();
  for (const line of lines) linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);
  const rows = new Map<number, OrderRow>();
  for (const row of orders) {
    const orderLines = linesOf.get(row.orderId) ?? [];
    const totals = storedOrderTotals(orderLines, row);
    rows.set(row.orderId, {
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      createdAt: row.createdAt,
      soldAt: row.soldAt,
      status: row.status,
      customer: customerName(row),
      email: row.email,
      countryCode: row.countryCode,
      country: row.country,
      items: orderLines.map((line) => ({ name: line.name, quantity: line.quantity })),
      total: totals.total,
      totals,
      shop: row.shop,
      shippingMethod: row.shippingMethod,
      carrier: row.carrier,
      trackingNumber: row.trackingNumber,
      hasLabel: row.labelKey !== null,
      standing: orderStanding({ status: row.status, shippingMethod: row.shippingMethod, wasPaid: row.soldAt !== null, paid: row.paid, refunded: refundedOf.get(row.orderId) ?? new Decimal(0) }),
      provider: row.provider,
      providerFees: row.providerFees,
    });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// The CSV export
// ---------------------------------------------------------------------------------------------------------------

const EXPORT_BATCH = 500;
const CSV_COLUMNS = ["number", "date", "customer", "country", "items", "discount", "shipping", "surcharge", "total", "provider", "fees"];

/**
 * The paid orders of a period as CSV lines, for the accountant: those paid (not since cancelled) from the first
 * day to the last, in shop time, oldest first, with their named totals from `orderTotals`, the payment method and
 * the provider's fees. Read in batches along the sold-at index, so a year of orders streams in constant memory.
 */
export async function* orderExportCsv(db: Db, range: OrderExportInput): AsyncGenerator<string> {
  yield csvHeader(CSV_COLUMNS);
  const inRange = and(inArray(order.status, [...paidOrderStatuses]), gte(order.soldAt, shopDayStart(range.from)), lt(order.soldAt, shopDayStart(range.to, 1)));
  let after: { soldAt: Date; id: number } | null = null;
  for (;;) {
    const batch: { id: number; soldAt: Date | null }[] = await db
      .select({ id: order.id, soldAt: order.soldAt })
      .from(order)
      .where(after ? and(inRange, sql`(${order.soldAt}, ${order.id}) > (${after.soldAt.toISOString()}::timestamptz, ${after.id}::int)`) : inRange)
      .orderBy(asc(order.soldAt), asc(order.id))
      .limit(EXPORT_BATCH);
    if (batch.length === 0) return;
    const rows = await readOrderRows(db, batch.map((row) => row.id));
    let chunk = "";
    for (const { id } of batch) {
      const row = rows.get(id);
      if (!row) continue;
      const { totals } = row;
      chunk += csvLine([
        csvText(row.orderNumber),
        row.soldAt ? shopDateAndHour(row.soldAt).date : "",
        csvText(row.customer),
        csvText(row.countryCode),
        csvAmount(totals.items),
        csvAmount(totals.discount),
        csvAmount(totals.shipping),
        csvAmount(totals.surcharge),
        csvAmount(totals.total),
        csvText(row.provider),
        csvAmount(row.providerFees),
      ]);
    }
    yield chunk;
    const last = batch.at(-1)!;
    after = { soldAt: last.soldAt!, id: last.id };
  }
}
