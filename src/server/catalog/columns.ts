import "server-only";
import { getTableColumns, type Table } from "drizzle-orm";
import { productDescription } from "@/server/db/schema";
import { descriptionFields, type DescriptionField } from "./schemas";

/** Columns of a table picked by their names, for a select: `columnsOf(product, "id", "name")`. */
export function columnsOf<T extends Table, K extends keyof T["_"]["columns"]>(table: T, ...names: K[]): Pick<T["_"]["columns"], K> {
  const columns = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, columns[name]])) as Pick<T["_"]["columns"], K>;
}

/** The description's free-text columns, keyed by their field names: what the product page and the admin form show. */
export const descriptionTextColumns: Pick<(typeof productDescription)["_"]["columns"], DescriptionField> = columnsOf(productDescription, ...descriptionFields);

/** The four fields every product is classified by; a product without a description row reads null for each. */
export const classificationColumns = columnsOf(productDescription, "caliber", "state", "itemType", "gender");
