import "server-only";
import { inArray, sql, type SQL } from "drizzle-orm";
import { everyWordStartsQuery, queryWords } from "@/server/catalog/search-query";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { order, orderAddress, orderAddressSearchDocument, orderItem, product, searchPlainLetters } from "@/server/db/schema";
import { escapeLike } from "@/server/logbook/service";
import { shopDateAndHour } from "@/server/shipping/service";

/*
 * The order table's search: what a search text looks for, and which orders it finds, fast at a million orders.
 *
 * A search is one or more ways of finding orders (an order number, an e-mail's start, names, product words), each a
 * `select order_id` through one index. Which orders come first is the table's sort (newest first, mostly), which no
 * search index knows. So the search first reads a bounded number of candidates from each way (`CANDIDATES`):
 * - all of them fit: they are the whole answer, and the table sorts those few ids (a lookup each);
 * - more: the matches are common (a last name, 'seiko'), so walking the table's own sort index and keeping the
 *   orders among the matches (a hashed set, built once) reaches a page after a few thousand orders at most, where
 *   sorting tens of thousands of matches would take a lookup each.
 * Both find the same orders; only the work differs.
 */

/**
 * How many candidates a way of finding orders may bring before its matches count as common. Sorting costs a lookup
 * per match, walking the sort index about a page's worth of orders divided by the share that match: at a million
 * orders both are a few thousand steps here, and below it sorting is cheaper.
 */
export const CANDIDATES = 2_000;

/** How far back a bare number ("4711") is looked for as the number after the year (BC-2026-004711). */
const ORDER_NUMBER_YEARS = 10;

/** A word as the order search compares it, folded as the address index folds its text (`foldedSql`). */
export function foldedWord(word: string): string {
  const unaccented = word.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  return [...unaccented].map((letter) => searchPlainLetters.get(letter) ?? letter).join("");
}

/** Every word must start a word of the address's search document (`orderAddressSearchDocument`). */
function addressWordsQuery(words: string[]): string {
  return words.map((word) => `'${foldedWord(word).replaceAll("'", "''").replaceAll("\\", "\\\\")}':*`).join(" & ");
}

/**
 * The ways a search finds orders, each a `select <order id> as order_id` through one index; null when the search
 * holds nothing to look for. What the text looks like decides where it is looked for:
 * - with an @, or one word with a dot, underscore or plus in it: the e-mail address, whole or its start;
 * - BC-2026-000123, or its start (BC-2026-00, 2026-0001): the order number;
 * - a bare number: the number after the year in the last ten years' orders, and product words (a caliber, 6139);
 * - words: all must start words of the address's names or its e-mail, accents aside (`orderAddressSearchDocument`),
 *   or all must start words of one product of the order.
 */
export function searchWays(search: string, now: Date): SQL[] | null {
  const term = search.trim();
  const byOrderNumber = (condition: SQL) => sql`select ${order.id} as order_id from ${order} where ${condition}`;
  if (term.includes("@") || /^[^\s]*[._+][^\s]*$/.test(term)) {
    return [sql`select ${orderAddress.orderId} as order_id from ${orderAddress} where lower(${orderAddress.email}) like ${`${escapeLike(term.toLowerCase())}%`}`];
  }
  const number = term.toUpperCase().replace(/\s+/g, "");
  if (/^BC-\d{4}-\d{6,}$/.test(number)) return [byOrderNumber(sql`${order.orderNumber} = ${number}`)];
  const numberStart = /^BC-?[\d-]*$/.test(number) ? number.replace(/^BC-?/, "BC-") : /^\d{4}-\d*$/.test(number) ? `BC-${number}` : null;
  if (numberStart) return [byOrderNumber(sql`${order.orderNumber} like ${`${escapeLike(numberStart)}%`}`)];

  const ways: SQL[] = [];
  if (/^\d{1,9}$/.test(term)) {
    const year = Number(shopDateAndHour(now).date.slice(0, 4));
    const numbers = Array.from({ length: ORDER_NUMBER_YEARS }, (_, back) => `BC-${year - back}-${term.padStart(6, "0")}`);
    ways.push(byOrderNumber(inArray(order.orderNumber, numbers)));
  }
  const words = queryWords(term);
  if (words.length > 0) {
    ways.push(
      sql`select ${orderAddress.orderId} as order_id from ${orderAddress}
          where ${orderAddressSearchDocument(orderAddress)} @@ to_tsquery('simple', ${addressWordsQuery(words)})`,
    );
    // The product's own search words, as the product table's search reads them: every word starts one of them.
    ways.push(
      sql`select ${orderItem.orderId} as order_id from ${orderItem}
          where ${orderItem.productId} in (select ${product.id} from ${product} where ${product.searchVector} @@ to_tsquery('simple', ${everyWordStartsQuery(words)}))`,
    );
  }
  return ways.length > 0 ? ways : null;
}

/**
 * The condition on `"order"` that keeps the orders a search finds: their ids when they are few (each way brought
 * no more than `candidates`), else membership of the ways' matches, which PostgreSQL hashes once and checks while it
 * walks the sort's index. `none` when nothing matches at all.
 */
export async function searchCondition(db: Db, ways: SQL[], candidates = CANDIDATES): Promise<{ condition: SQL; common: boolean } | "none"> {
  const bounded = ways.map((way, index) => sql`(select ${index}::int as way, order_id from (${way}) as found limit ${candidates + 1})`);
  const found = await rawRows<{ way: number; order_id: number }>(db, sql.join(bounded, sql` union all `));
  const perWay = new Map<number, number>();
  for (const row of found) perWay.set(Number(row.way), (perWay.get(Number(row.way)) ?? 0) + 1);
  const ids = [...new Set(found.map((row) => Number(row.order_id)))];
  const common = [...perWay.values()].some((count) => count > candidates) || ids.length > candidates;
  if (common) {
    const matches = sql.join(ways.map((way) => sql`(${way})`), sql` union all `);
    return { condition: sql`${order.id} in (select order_id from (${matches}) as found)`, common };
  }
  if (ids.length === 0) return "none";
  return { condition: sql`${order.id} = any(${`{${ids.join(",")}}`}::int[])`, common };
}
