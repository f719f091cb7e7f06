import "server-only";
import { eq } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { PgColumn, PgTable, SelectedFields } from "drizzle-orm/pg-core";
import { AppError } from "@/server/errors";
import type { Db } from "./client";

/**
 * The row with this id, locked until the transaction ends (`select ... for update`), or undefined when there is
 * none. Whoever changes a row's state (an order's status, a product's stock, a restock decision) reads the row
 * through this first, so that two requests acting on one row take turns and the second sees what the first wrote.
 */
export async function lockRow<TFields extends SelectedFields>(tx: Db, table: PgTable & { id: PgColumn }, id: number, fields: TFields): Promise<SelectResultFields<TFields> | undefined> {
  // Drizzle cannot work out the row type for a table it only knows as generic; it is the fields' own.
  const query = tx.select(fields).from(table).where(eq(table.id, id)).for("update") as unknown as Promise<SelectResultFields<TFields>[]>;
  const [row] = await query;
  return row;
}

/** `lockRow` for a row that must be there: NOT_FOUND, "{what} {id} does not exist.", when it is not. */
export async function lockExistingRow<TFields extends SelectedFields>(tx: Db, table: PgTable & { id: PgColumn }, id: number, fields: TFields, what: string): Promise<SelectResultFields<TFields>> {
  const row = await lockRow(tx, table, id, fields);
  if (!row) throw new AppError("NOT_FOUND", `${what} ${id} does not exist.`);
  return row;
}
