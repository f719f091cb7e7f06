import "server-only";
import type { Decimal } from "decimal.js";
import type { PricingType } from "@/lib/enums";
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { pageOf } from "@/server/db/page";
import { rawRows } from "@/server/db/raw-rows";
import { discount, order, user } from "@/server/db/schema";
import { formatDiscountValue } from "@/server/discounts/discount-price";
import { escapeLike } from "@/server/logbook/service";
import type { CustomerDiscount, CustomerListQuery, CustomerPage, CustomerRow } from "./customer-admin-schemas";
import { customerStats, customerStatsQuery, noStats } from "./customer-stats";

/*
 * The customer admin's table: everyone with an account, found by name, e-mail or tag, with what their orders come
 * to (`customer-stats.ts`), sorted and paged as the order table is (the page's ids first, then its rows).
 *
 * Sorting by name, e-mail or date of joining reads the user table alone. Sorting by orders, spend or last order
 * needs every customer's stats before the first page is known: one pass over the orders of customers (grouped by
 * order_user_created_idx's user). That is fine for the shop's tens of thousands of customers; with millions of orders
 * the stats would have to be kept up to date in a table of their own instead of computed per page.
 */

/** Each word lies within the name or the e-mail, or starts one of the tags. */
function searchFilter(search: string): SQL | null {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return sql.join(
    words.map((word) => {
      const within = `%${escapeLike(word)}%`;
      return sql`(${user.name} ilike ${within} or ${user.email} ilike ${within}
        or exists (select 1 from unnest(${user.tags}) as tag where lower(tag) like ${`${escapeLike(word)}%`}))`;
    }),
    sql` and `,
  );
}

function listFilters(input: CustomerListQuery): SQL[] {
  const filters: SQL[] = [];
  if (input.role === "vip") filters.push(sql`${user.role} = 'VIP'`);
  if (input.role === "staff") filters.push(sql`${user.role} = 'ADMIN'`);
  const search = input.search ? searchFilter(input.search) : null;
  if (search) filters.push(search);
  return filters;
}

/** One page of the customer table and how many customers match. */
export async function listCustomers(db: Db, input: CustomerListQuery): Promise<CustomerPage> {
  const filters = listFilters(input);
  const where = filters.length > 0 ? sql` where ${sql.join(filters, sql` and `)}` : sql``;
  const direction = sql.raw(input.direction);
  const byStats = input.sort === "lastOrder" || input.sort === "spend" || input.sort === "orders";
  const sortKey = {
    lastOrder: sql`stats.last_order_at`,
    spend: sql`coalesce(stats.paid, 0) - coalesce(stats.refunded, 0)`,
    orders: sql`coalesce(stats.orders, 0)`,
    name: sql`lower(coalesce(${user.name}, ${user.email}))`,
    email: sql`lower(${user.email})`,
    joined: sql`${user.createdAt}`,
  }[input.sort];
  const joinStats = byStats ? sql` left join (${customerStatsQuery(sql`${order.userId} is not null`)}) as stats on stats.user_id = ${user.id}` : sql``;

  const [pageIds, [counted]] = await Promise.all([
    rawRows<{ id: string }>(
      db,
      sql`select ${user.id} as id from ${user}${joinStats}${where}
          order by ${sortKey} ${direction} nulls last, ${user.id} ${direction}
          limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`,
    ),
    rawRows<{ n: number }>(db, sql`select count(*)::int as n from ${user}${where}`),
  ]);
  const ids = pageIds.map((row) => row.id);
  const rows = await readCustomerRows(db, ids);
  return pageOf(
    ids.map((id) => rows.get(id)).filter((row) => row !== undefined),
    Number(counted?.n ?? 0),
    input,
  );
}

/** The customer's personal discount as the admin names it, from the discount's columns of a left join. */
export function customerDiscount(row: {
  discountId: number | null;
  discountName: string | null;
  discountValue: Decimal | null;
  discountPricingType: PricingType | null;
}): CustomerDiscount | null {
  const { discountId, discountName, discountValue, discountPricingType } = row;
  if (discountId === null || discountName === null || discountValue === null || discountPricingType === null) return null;
  return { id: discountId, name: discountName, label: formatDiscountValue({ value: discountValue, pricingType: discountPricingType }) };
}

/** The table's rows for these customers, by id. */
async function readCustomerRows(db: Db, ids: readonly string[]): Promise<Map<string, CustomerRow>> {
  if (ids.length === 0) return new Map();
  const [users, stats] = await Promise.all([
    db
      .select({
        id: user.id, name: user.name, email: user.email, role: user.role, tags: user.tags, joinedAt: user.createdAt, erasedAt: user.erasedAt,
        discountId: discount.id, discountName: discount.name, discountValue: discount.value, discountPricingType: discount.pricingType,
      })
      .from(user)
      .leftJoin(discount, eq(discount.id, user.discountId))
      .where(inArray(user.id, [...ids])),
    customerStats(db, ids),
  ]);
  return new Map(
    users.map(({ discountId, discountName, discountValue, discountPricingType, ...row }) => [
      row.id,
      {
        ...row,
        discount: customerDiscount({ discountId, discountName, discountValue, discountPricingType }),
        ...(stats.get(row.id) ?? noStats()),
      },
    ]),
  );
}
