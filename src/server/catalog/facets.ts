import "server-only";
import { Decimal } from "decimal.js";
import { and, sql, type SQL } from "drizzle-orm";
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

export type FacetResult = {
  facets: ProductFacets;
  /** Matches passing every filter, or, when `totalExact` is false, as many as were found before counting stopped. */
  total: number;
  totalExact: boolean;
};

/**
 * The facet counts and the number of matches, reading no more matches than it takes to count `limit + 1` products
 * for each count, so that a search matching half the catalogue costs about what a narrow one does.
 *
 * Each facet counts the products that pass every *other* filter (so ticking a second brand adds to the results
 * instead of emptying them), and stops at `limit + 1` of them; the total counts those passing every filter. The
 * matches are read once, in the order the scan meets them, and shared by all counts: any `limit + 1` matches give
 * true lower bounds, and the first ones met are the cheapest.
 */
export async function facetCounts(db: Db, base: SQL[], filters: FilterConditions, input: GetManyProductsQuery, limit: number): Promise<FacetResult> {
  const readLimit = READ_PER_COUNT * limit;
  const ticked = facetFilters.filter((name) => filters[name] !== undefined);
  const flag = (name: FacetFilter) => sql.raw(`ok_${name.toLowerCase()}`);
  const flags = sql.join(
    ticked.map((name) => sql`${filters[name]} as ${flag(name)}`),
    sql`, `,
  );
  // One window of matches per distinct "every other filter": the facets of unticked filters share `passing_all`.
  const windowOf = (facet: FacetFilter | null) => (facet && filters[facet] ? `passing_but_${facet.toLowerCase()}` : "passing_all");
  const windows = [null, ...ticked].map((except) => {
    const passing = ticked.filter((name) => name !== except).map(flag);
    return sql`${sql.identifier(windowOf(except))} as materialized (
      select * from matched where ${passing.length > 0 ? sql.join(passing, sql` and `) : sql`true`} limit ${limit + 1}
    )`;
  });
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
  // `matched` is read only as far as the windows ask; a CTE is not run ahead of its readers. The description is
  // joined per product read (a lateral lookup the planner cannot turn into a hash join over every description).
  const statement = sql`with matched as materialized (
      select ${product.price} as price, ${product.stock} as stock, ${product.categoryId} as category_id,
             ${product.manufacturerId} as manufacturer_id, ${productDescription.caliber} as caliber,
             ${productDescription.state} as state, ${productDescription.gender} as gender,
             ${productDescription.itemType} as item_type ${ticked.length > 0 ? sql`, ${flags}` : sql``}
      from ${product} left join lateral (
        select ${productDescription.caliber}, ${productDescription.state}, ${productDescription.gender}, ${productDescription.itemType}
        from ${productDescription} where ${productDescription.productId} = ${product.id} limit 1
      ) as ${productDescription} on true
      where ${and(...base)}
      limit ${readLimit + 1}
    ), ${sql.join(windows, sql`, `)}
    ${grouped("category", "category_id")}
    union all ${grouped("manufacturer", "manufacturer_id")}
    union all ${grouped("caliber", "caliber")}
    union all ${grouped("state", "state")}
    union all ${grouped("gender", "gender")}
    union all ${grouped("itemType", "item_type")}
    union all select 'price', min(price)::text, max(price)::text, count(*)::int from ${from("price")}
    union all select 'inStock', null, null, count(*)::int from ${from("inStock")} where stock > 0
    union all select 'total', null, null, count(*)::int from ${from(null)}
    union all select 'read', null, null, count(*)::int from matched where ${anyWindowShort}
    ${sizes}`;

  const [rows, categories, manufacturers] = await Promise.all([
    rawRows<FacetRow>(db, statement),
    db.select({ id: productCategory.id, name: productCategory.name, parentId: productCategory.parentId, orderWeight: productCategory.orderWeight }).from(productCategory),
    db
      .select({ id: productManufacturer.id, name: productManufacturer.name, parentId: productManufacturer.parentId, orderWeight: productManufacturer.orderWeight })
      .from(productManufacturer),
  ]);

  const of = (facet: string) => rows.filter((row) => row.facet === facet);
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
    facets: {
      category: countTree(categories, directCounts("category"), new Set(input.categoryId ?? [])),
      manufacturer: countTree(manufacturers, directCounts("manufacturer"), new Set(input.manufacturerId ?? [])),
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
