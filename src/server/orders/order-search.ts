import "server-only";
import { inArray, sql, type SQL } from "drizzle-orm";
import { everyWordStartsQuery, queryWords } from "@/server/catalog/search-query";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { order, orderAddress, orderItem, orderSearchNames, product, searchPlainLetters } from "@/server/db/schema";
import { escapeLike } from "@/server/logbook/service";
import { shopDateAndHour } from "@/server/shipping/service";

/*
 * The order table's search: what a search text looks for, and which orders it finds, fast at a million orders.
 *
 * A search is one or more ways of finding orders (an order number, an e-mail's start, names, product words), each
 * read from one index alone. Which orders come first is the table's sort (newest first, mostly), which no search
 * index knows. So each way first counts its matches, up to a bound (`CANDIDATES`):
 * - none has more: they are the whole answer, and the table sorts those few (a lookup each);
 * - more: the matches are common (a last name, 'seiko'), so PostgreSQL hashes them once and the table walks its own
 *   sort index, keeping the orders among them: a page after a few thousand orders at most, where sorting tens of
 *   thousands of matches would take a lookup each.
 * Both find the same orders; only the work differs.
 */

/**
 * How many matches a way of finding orders may count before they are common. Collecting and sorting them costs a
 * lookup per match; walking the sort's index, a hash probe per order until a page is full (a page's worth divided
 * by the share that match), after hashing the matches from their index: at a million orders the two meet near two
 * thousand matches.
 */
export const CANDIDATES = 2_000;

/** How far back a bare number ("4711") is looked for as the number after the year (BC-2026-004711). */
const ORDER_NUMBER_YEARS = 10;

/** Text as the order search compares it, folded as the name indexes fold names (`orderSearchFolded`). */
export function foldedText(text: string): string {
  const unaccented = text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  return [...unaccented].map((letter) => searchPlainLetters.get(letter) ?? letter).join("");
}

/** `column` starts with `start`, as a range of a `text_pattern_ops` index, which needs no recheck from the table. */
function startsWith(column: SQL, start: string): SQL {
  const last = start.codePointAt(start.length - 1)!;
  const after = `${start.slice(0, start.length - String.fromCodePoint(last).length)}${String.fromCodePoint(last + 1)}`;
  return sql`${column} ~>=~ ${start} and ${column} ~<~ ${after}`;
}

/**
 * The orders whose address has every word as the start of its full name, its last name or its e-mail, or all the
 * words, in order, as the start of its full name or last name ("de vries", "anna de v"): each a range of one index.
 */
function byName(words: string[]): SQL {
  const names = orderSearchNames(orderAddress);
  const starting = (column: SQL, start: string) => sql`select ${orderAddress.orderId} as order_id from ${orderAddress} where ${startsWith(column, start)}`;
  const startsAny = (word: string) =>
    sql`(${starting(names.fullName, word)} union all ${starting(names.lastName, word)} union all
         select ${orderAddress.orderId} from ${orderAddress} where lower(${orderAddress.email}) like ${`${escapeLike(word)}%`})`;
  const everyWord = sql.join(words.map(startsAny), sql` intersect `);
  if (words.length === 1) return everyWord;
  const phrase = words.join(" ");
  return sql`(${everyWord}) union all ${starting(names.fullName, phrase)} union all ${starting(names.lastName, phrase)}`;
}

/**
 * A way of finding orders: `finds` is a `select <order id> as order_id` through its own index, `keeps` the same
 * test as a condition on one row of `"order"`, for walking the table's sort. An order number's matches are
 * `clustered` in time (numbers are handed out in turn: a start of one is a stretch of weeks), where a walk from the
 * newest order might pass most of the table before it meets them, so they are always collected.
 */
type SearchWay = { finds: SQL; keeps: SQL; clustered?: boolean };

/**
 * The ways a search finds orders; null when the search holds nothing to look for. What the text looks like decides
 * where it is looked for:
 * - with an @, or one word with a dot, underscore or plus in it: the e-mail address, whole or its start;
 * - BC-2026-000123, or its start (BC-2026-00, 2026-0001): the order number;
 * - a bare number: the number after the year in the last ten years' orders, and product words (a caliber, 6139);
 * - words: each must start the full name, the last name or the e-mail of the address, or all together its full
 *   name or last name, accents and apostrophes aside (`byName`); or all must start words of one product of the order.
 */
export function searchWays(search: string, now: Date): SearchWay[] | null {
  const term = search.trim();
  const byOrderNumber = (condition: SQL): SearchWay => ({ finds: sql`select ${order.id} as order_id from ${order} where ${condition}`, keeps: condition, clustered: true });
  if (term.includes("@") || /^[^\s]*[._+][^\s]*$/.test(term)) {
    const emailStarts = sql`lower(${orderAddress.email}) like ${`${escapeLike(term.toLowerCase())}%`}`;
    return [
      {
        finds: sql`select ${orderAddress.orderId} as order_id from ${orderAddress} where ${emailStarts}`,
        keeps: sql`exists (select 1 from ${orderAddress} where ${orderAddress.orderId} = ${order.id} and ${emailStarts})`,
      },
    ];
  }
  const number = term.toUpperCase().replace(/\s+/g, "");
  if (/^BC-\d{4}-\d{6,}$/.test(number)) return [byOrderNumber(sql`${order.orderNumber} = ${number}`)];
  const numberStart = /^BC-?[\d-]*$/.test(number) ? number.replace(/^BC-?/, "BC-") : /^\d{4}-\d*$/.test(number) ? `BC-${number}` : null;
  if (numberStart) return [byOrderNumber(sql`${order.orderNumber} like ${`${escapeLike(numberStart)}%`}`)];

  const ways: SearchWay[] = [];
  if (/^\d{1,9}$/.test(term)) {
    const year = Number(shopDateAndHour(now).date.slice(0, 4));
    const numbers = Array.from({ length: ORDER_NUMBER_YEARS }, (_, back) => `BC-${year - back}-${term.padStart(6, "0")}`);
    ways.push(byOrderNumber(inArray(order.orderNumber, numbers)));
  }
  const words = queryWords(term);
  if (words.length > 0) {
    // The product's own search words, as the product table's search reads them: every word starts one of them.
    const byProduct = sql`select ${orderItem.orderId} as order_id from ${orderItem}
      where ${orderItem.productId} in (select ${product.id} from ${product} where ${product.searchVector} @@ to_tsquery('simple', ${everyWordStartsQuery(words)}))`;
    const names = byName(queryWords(foldedText(term)));
    // Under an `or`, PostgreSQL hashes each way's matches once (read from indexes alone) and tests every order walked.
    ways.push({ finds: byProduct, keeps: sql`${order.id} in (${byProduct})` }, { finds: names, keeps: sql`${order.id} in (select order_id from (${names}) as named)` });
  }
  return ways.length > 0 ? ways : null;
}

/** How a search narrows the order table's queries: a `with` before them, a join and a condition in them. */
export type SearchNarrowing = { with: SQL; join: SQL; condition: SQL | null; common: boolean; estimated: SQL };

/**
 * How the order table's queries keep the orders a search finds, or `none` when nothing matches at all. Each way
 * first counts its matches, up to `candidates` and one more, from its index. When none has more (or only a
 * `clustered` one), their matches are
 * collected once (materialised, so that the planner never walks the whole sort hoping to meet them: a year's order
 * numbers all lie in that year) and joined, for the table to sort; else (`common`) each way's `keeps`, tested on the
 * orders as the table's sort index walks them. `estimated` is the condition the planner estimates the total from.
 */
export async function searchNarrowing(db: Db, ways: SearchWay[], candidates = CANDIDATES): Promise<SearchNarrowing | "none"> {
  const bounded = ways.map((way, index) => sql`(select ${index}::int as way from (${way.finds}) as found limit ${candidates + 1})`);
  const counted = await rawRows<{ way: number; n: number }>(db, sql`select way, count(*)::int as n from (${sql.join(bounded, sql` union all `)}) as bounded group by way`);
  if (counted.length === 0) return "none";
  const matches = sql.join(ways.map((way) => sql`(${way.finds})`), sql` union all `);
  const estimated = sql`${order.id} in (select order_id from (${matches}) as found)`;
  if (counted.some((row) => Number(row.n) > candidates && !ways[Number(row.way)]!.clustered)) {
    return { with: sql``, join: sql``, condition: sql`(${sql.join(ways.map((way) => sql`(${way.keeps})`), sql` or `)})`, common: true, estimated };
  }
  return {
    with: sql`with matches as materialized (select distinct order_id from (${matches}) as found) `,
    join: sql` join matches on matches.order_id = ${order.id}`,
    condition: null,
    common: false,
    estimated,
  };
}
