import "server-only";
import { Decimal } from "decimal.js";
import { and, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { calibers, genders, itemTypes, productStates, type Caliber, type Gender, type ItemType, type ProductState } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";
import { product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";
import type { FacetCount, GetManyProductsQuery, ProductFacets, TreeFacetOption } from "./schemas";

/** The filters a visitor can tick on /search, each of which gets option counts (facets). */
export const facetFilters = ["category", "manufacturer", "caliber", "state", "gender", "itemType", "price", "inStock"] as const;
export type FacetFilter = (typeof facetFilters)[number];
export type FilterConditions = Partial<Record<FacetFilter, SQL>>;

/**
 * Matches read for the facets at most, as a multiple of the count limit: a filter few of a broad search's matches
 * pass (a rare caliber among 25 000 "crystal" matches) is counted among the first ones read, not all of them.
 */
const READ_PER_COUNT = 5;

type FacetRow = { facet: string; value: string | null; extra: string | null; count: number | string };

/** The columns a listing is sorted by, in whatever rows it is read from; `rank` is the relevance to the search. */
export type SortColumns = Record<"id" | "createdAt" | "price" | "name" | "rank", SQLWrapper>;

/**
 * Rows a page of a listing can be read from: the products, or the matches the facets have already read, which come
 * latest first (`latestFirst`) as they were read.
 */
export type ListingRows = { from: SQL; where: SQL | undefined; columns: SortColumns; latestFirst: boolean };

/** One page of a listing (see `pageIds` in the catalogue service). */
export type PageQuery = {
  /** The page's ids, read from the given rows. */
  ids: (rows: ListingRows) => SQL;
  /** The products passing the search and every filter, to read the page from when the matches read do not hold it. */
  products: ListingRows;
  /**
   * How many of the latest matches passing every filter decide the page, when those alone do (relevance ranks the
   * latest few hundred); null when the page may need any match.
   */
  latest: number | null;
};

export type FacetResult = {
  facets: ProductFacets;
  /** Matches passing every filter, or, when `totalExact` is false, as many as were found before counting stopped. */
  total: number;
  totalExact: boolean;
  /** The ids of the page asked for, in no particular order. */
  pageIds: number[];
};

/**
 * The facet counts, the number of matches and the ids of one page of them, reading no more matches than it takes to
 * count `limit + 1` products for each count, so that a search matching half the catalogue costs about what a narrow
 * one does.
 *
 * Each facet counts the products that pass every *other* filter (so ticking a second brand adds to the results
 * instead of emptying them), and stops at `limit + 1` of them; the total counts those passing every filter. The
 * matches are read once, latest first, and shared by all counts: any `limit + 1` matches give true lower bounds.
 * The page is taken from those same rows when they hold it: when the counts have read every match (a search with
 * two filters, usually), or when relevance ranks only the latest matches and enough of them were read (a broad
 * search). Otherwise it is read from the products, as a listing without facets is, in the same statement.
 */
export async function facetCounts(
  db: Db,
  base: SQL[],
  filters: FilterConditions,
  input: GetManyProductsQuery,
  limit: number,
  page: PageQuery,
): Promise<FacetResult> {
  const readLimit = READ_PER_COUNT * limit;
  const ticked = facetFilters.filter((name) => filters[name] !== undefined);
  const flag = (name: FacetFilter) => sql.raw(`ok_${name.toLowerCase()}`);
  const flags = sql.join(
    ticked.map((name) => sql`${filters[name]} as ${flag(name)}`),
    sql`, `,
  );
  const windowColumns = sql.raw("price, stock, category_id, manufacturer_id, caliber, state, gender, item_type");
  // One window of matches per distinct "every other filter": the facets of unticked filters share `passing_all`.
  const windowOf = (facet: FacetFilter | null) => (facet && filters[facet] ? `passing_but_${facet.toLowerCase()}` : "passing_all");
  const passing = (names: FacetFilter[]) => (names.length > 0 ? sql.join(names.map(flag), sql` and `) : sql`true`);
  const windows = [null, ...ticked].map(
    (except) => sql`${sql.identifier(windowOf(except))} as materialized (
      select ${windowColumns} from matched where ${passing(ticked.filter((name) => name !== except))} limit ${limit + 1}
    )`,
  );
  const from = (facet: FacetFilter | null) => sql.identifier(windowOf(facet));
  const grouped = (facet: FacetFilter, column: string) =>
    sql`select ${facet} as facet, ${sql.raw(column)}::text as value, null as extra, count(*)::int as count
        from ${from(facet)} group by ${sql.raw(column)}`;
  const sizes = sql.join(
    [null, ...ticked].map((except) => sql`union all select 'window', ${windowOf(except)}, null, count(*)::int from ${from(except)}`),
    sql` `,
  );

  // Only a window left short of the limit needs to know whether the reading stopped early; asking otherwise would
  // read on to the read limit.
  const anyWindowShort = sql.join(
    [null, ...ticked].map((except) => sql`(select count(*) from ${from(except)}) <= ${limit}`),
    sql` or `,
  );
  const matchedRows: ListingRows = {
    from: sql`matched`,
    where: passing(ticked),
    // A name is looked up for the rows a page by name reads, not carried for every match.
    columns: {
      id: sql`id`,
      createdAt: sql`created_at`,
      price: sql`price`,
      name: sql`(select ${product.name} from ${product} where ${product.id} = matched.id)`,
      rank: sql`rank`,
    },
    latestFirst: true,
  };
  // Of the two ways to the page, the one whose condition fails is not run at all: a LIMIT of 0 never asks its
  // subquery for a row.
  const pageIf = (condition: SQL, rows: ListingRows) =>
    sql`select id from (${page.ids(rows)}) as page limit case when ${condition} then null else 0 end`;
  // The matches are read latest first, so when the page needs only the latest few hundred, those read may hold them.
  const latestRead =
    page.latest === null
      ? sql`false`
      : sql`(select count(*) from (select from matched where ${passing(ticked)} limit ${page.latest}) as latest) = ${page.latest}`;
  // `matched` is read only as far as its readers ask, latest first; a CTE is not run ahead of its readers, and its
  // readers get its rows in the order it made them. The products are ordered before their descriptions are joined,
  // so that a description is looked up (by a lateral lookup the planner cannot turn into a hash join over every
  // description) only for a match that is read.
  const read = [product.id, product.createdAt, product.price, product.stock, product.categoryId, product.manufacturerId];
  const statement = sql`with matched as materialized (
      select ${sql.join(read, sql`, `)}, rank, ${productDescription.caliber}, ${productDescription.state}, ${productDescription.gender},
             ${productDescription.itemType} ${ticked.length > 0 ? sql`, ${flags}` : sql``}
      from (
        select ${sql.join(read, sql`, `)}, ${page.products.columns.rank} as rank from ${product} where ${and(...base)}
        order by ${product.id} desc limit ${readLimit + 1}
      ) as ${product} left join lateral (
        select ${productDescription.caliber}, ${productDescription.state}, ${productDescription.gender}, ${productDescription.itemType}
        from ${productDescription} where ${productDescription.productId} = ${product.id} limit 1
      ) as ${productDescription} on true
    ), ${sql.join(windows, sql`, `)},
    reading as materialized (select case when ${anyWindowShort} then (select count(*) from matched) end as read),
    in_matched as materialized (select coalesce((select read from reading) <= ${readLimit}, false) or ${latestRead} as yes),
    page as (
      (${pageIf(sql`(select yes from in_matched)`, matchedRows)})
      union all (${pageIf(sql`not (select yes from in_matched)`, page.products)})
    )
    ${grouped("category", "category_id")}
    union all ${grouped("manufacturer", "manufacturer_id")}
    union all ${grouped("caliber", "caliber")}
    union all ${grouped("state", "state")}
    union all ${grouped("gender", "gender")}
    union all ${grouped("itemType", "item_type")}
    union all select 'price', min(price)::text, max(price)::text, count(*)::int from ${from("price")}
    union all select 'inStock', null, null, count(*)::int from ${from("inStock")} where stock > 0
    union all select 'total', null, null, count(*)::int from ${from(null)}
    union all select 'read', null, null, coalesce(read, 0)::int from reading
    union all select 'page', id::text, null, 0 from page
    union all select 'tree', 'category', (select json_agg(json_build_array(${treeColumns(productCategory)})) from ${productCategory})::text, 0
    union all select 'tree', 'manufacturer', (select json_agg(json_build_array(${treeColumns(productManufacturer)})) from ${productManufacturer})::text, 0
    ${sizes}`;

  // The statement reads a few thousand rows at most: parallel workers cost more to start than they save here, and
  // the planner, counting random heap reads, would start them for a search matching two thousand products.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return rawRows<FacetRow>(tx, statement);
  });

  const of = (facet: string) => rows.filter((row) => row.facet === facet);
  const tree = (name: "category" | "manufacturer"): TreeNode[] => {
    const nodes = JSON.parse(of("tree").find((row) => row.value === name)?.extra ?? "[]") as TreeNodeRow[] | null;
    return (nodes ?? []).map(([id, nodeName, parentId, orderWeight]) => ({ id, name: nodeName, parentId, orderWeight }));
  };
  const counted = <V extends string>(facet: string, values: readonly V[]): FacetCount<V>[] => {
    const byValue = new Map(of(facet).map((row) => [row.value, Number(row.count)]));
    return values
      .filter((value) => value !== "UNKNOWN" && (byValue.get(value) ?? 0) > 0)
      .map((value) => ({ value, count: byValue.get(value) ?? 0 }));
  };
  const directCounts = (facet: string) =>
    new Map(of(facet).filter((row) => row.value !== null).map((row) => [Number(row.value), Number(row.count)]));
  const priceRow = of("price")[0];
  const total = Number(of("total")[0]?.count ?? 0);

  return {
    total: Math.min(total, limit),
    totalExact: total <= limit && Number(of("read")[0]?.count ?? 0) <= readLimit,
    pageIds: of("page").map((row) => Number(row.value)),
    facets: {
      category: countTree(tree("category"), directCounts("category"), new Set(input.categoryId ?? [])),
      manufacturer: countTree(tree("manufacturer"), directCounts("manufacturer"), new Set(input.manufacturerId ?? [])),
      caliber: counted<Caliber>("caliber", calibers),
      state: counted<ProductState>("state", productStates),
      gender: counted<Gender>("gender", genders),
      itemType: counted<ItemType>("itemType", itemTypes),
      price: priceRow?.value && priceRow.extra ? { min: new Decimal(priceRow.value), max: new Decimal(priceRow.extra) } : null,
      inStock: Number(of("inStock")[0]?.count ?? 0),
      exact: Number(of("read")[0]?.count ?? 0) <= readLimit && of("window").every((row) => Number(row.count) <= limit),
    },
  };
}

type TreeNode = { id: number; name: string; parentId: number | null; orderWeight: number };
type TreeNodeRow = [id: number, name: string, parentId: number | null, orderWeight: number];

/**
 * A category's or manufacturer's tree node as a JSON array, so that the whole tree comes back in the facet
 * statement's rows instead of a query of its own.
 */
function treeColumns(table: typeof productCategory | typeof productManufacturer): SQL {
  return sql`${table.id}, ${table.name}, ${table.parentId}, ${table.orderWeight}`;
}

/**
 * The category or manufacturer tree with, on every node, the matches filed in it or anywhere below it. Nodes with
 * no match are left out unless ticked, so that a ticked option can always be unticked.
 */
export function countTree(nodes: TreeNode[], direct: Map<number, number>, selected: Set<number>): TreeFacetOption[] {
  const children = new Map<number | null, TreeNode[]>();
  for (const node of nodes) children.set(node.parentId, [...(children.get(node.parentId) ?? []), node]);
  const build = (parentId: number | null, seen: Set<number>): TreeFacetOption[] =>
    (children.get(parentId) ?? [])
      .filter((node) => !seen.has(node.id))
      .sort((a, b) => a.orderWeight - b.orderWeight || a.name.localeCompare(b.name))
      .map((node) => {
        const below = build(node.id, new Set([...seen, node.id]));
        const total = (direct.get(node.id) ?? 0) + below.reduce((sum, child) => sum + child.count, 0);
        return { id: node.id, name: node.name, count: total, children: below };
      })
      .filter((option) => option.count > 0 || selected.has(option.id) || option.children.length > 0);
  return build(null, new Set());
}
