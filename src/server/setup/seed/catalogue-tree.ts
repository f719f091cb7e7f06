import "server-only";
import type { InferInsertModel } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { insertInChunks } from "@/server/db/bulk-insert";
import { brands, categoryTree, manufacturerGroups, movementMakers, productTemplates, type CategoryNode } from "./catalogue-data";

/** Where the brands and movement makers are based; the makers of parts and tools are left unknown. */
const makerCountries = new Map([...brands, ...movementMakers].map((maker) => [maker.name, maker.country]));
import { selectOptionLists } from "./products";

/**
 * The catalogue's frame, before any product: the category tree, the manufacturers and the product form's select
 * options. Answers the ids (and the categories' names) the products refer to.
 */
export async function seedCatalogueTree(tx: Db, countryIds: ReadonlyMap<string, number>): Promise<{
  categoryIds: Map<string, number>;
  categoryNames: Map<string, string>;
  manufacturerIds: Map<string, number>;
  categories: number;
  manufacturers: number;
}> {
  const categoryIds = new Map<string, number>();
  const categoryNames = new Map<string, string>();
  const manufacturerIds = new Map<string, number>();

  // Category tree: ids are handed out depth-first so that a parent always has a lower id than its children.
  const categoryRows: InferInsertModel<typeof schema.productCategory>[] = [];
  const relatedKeys: [number, string][] = [];
  const walkCategories = (nodes: CategoryNode[], parentId: number | null) => {
    nodes.forEach((node, position) => {
      const id = categoryRows.length + 1;
      categoryIds.set(node.key, id);
      categoryNames.set(node.key, node.name);
      categoryRows.push({
        id, name: node.name, isParent: Boolean(node.children?.length), parentId, orderWeight: (position + 1) * 10,
        ebayMainCategory: node.ebayMainCategory ?? null, ebayShopCategory: String(id),
      });
      if (node.relatedTo) relatedKeys.push([id, node.relatedTo]);
      if (node.children) walkCategories(node.children, id);
    });
  };
  walkCategories(categoryTree, null);
  for (const [id, key] of relatedKeys) {
    const row = categoryRows[id - 1];
    if (row) row.relatedTo = categoryIds.get(key) ?? null;
  }
  await insertInChunks(tx, schema.productCategory, categoryRows);

  // Manufacturers: the first top-level entry ("Brands") holds the watch brands the navigation lists.
  const manufacturerRows: InferInsertModel<typeof schema.productManufacturer>[] = [];
  manufacturerGroups.forEach((group, groupPosition) => {
    const groupId = manufacturerRows.length + 1;
    manufacturerRows.push({ id: groupId, name: group.name, isParent: true, parentId: null, orderWeight: (groupPosition + 1) * 10 });
    group.members.forEach((name, position) => {
      const id = manufacturerRows.length + 1;
      if (!manufacturerIds.has(name)) manufacturerIds.set(name, id);
      const country = makerCountries.get(name);
      manufacturerRows.push({ id, name, isParent: false, parentId: groupId, orderWeight: (position + 1) * 10, ebayShopManufacturer: name, countryId: country ? (countryIds.get(country) ?? null) : null });
    });
  });
  await insertInChunks(tx, schema.productManufacturer, manufacturerRows);

  await insertInChunks(tx, schema.productSelectOptions, Object.entries(selectOptionLists).flatMap(([selectRow, options]) =>
    [...new Set(options)].map((optionText) => ({ selectRow, optionText }))));

  return { categoryIds, categoryNames, manufacturerIds, categories: categoryRows.length, manufacturers: manufacturerRows.length };
}

/** The product form's templates, with the ids of the category, maker and country each names. */
export function productTemplateRows(ids: { category: Map<string, number>; manufacturer: Map<string, number>; country: Map<string, number> }): InferInsertModel<typeof schema.productTemplate>[] {
  // A category, maker or country the demo catalogue lacks leaves the template's field empty.
  return productTemplates.map(({ category, manufacturer, country, ...template }) => ({
    ...template,
    categoryId: ids.category.get(category) ?? null,
    manufacturerId: manufacturer === undefined ? null : (ids.manufacturer.get(manufacturer) ?? null),
    countryId: ids.country.get(country) ?? null,
  }));
}
