import "server-only";
import { getTableColumns, sql, type InferInsertModel } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";

/**
 * Writes many rows with `insert ... select * from unnest($1::type[], $2::type[], ...)`: one parameter per column
 * instead of one per value, so a statement carries thousands of rows and PostgreSQL parses a few lines instead of
 * a VALUES list of megabytes. Five to ten times faster than a multi-row insert for the 100 000-product benchmark.
 *
 * Every row must give a value for every column that is written (unnest has no DEFAULT); the columns are those of
 * the first row. Values go through the column's own driver mapping (Decimal to text, Date to ISO text), then into a
 * PostgreSQL array literal passed as text, which works the same on node-postgres and PGlite.
 */
export async function bulkInsert<T extends PgTable>(tx: Db, table: T, rows: InferInsertModel<T>[], rowsPerStatement = 5000): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = getTableColumns(table);
  const keys = Object.keys(first as object);
  const casing = new CasingCache("snake_case");
  const targets = keys.map((key) => {
    const column = columns[key];
    if (!column) throw new Error(`bulkInsert: ${key} is not a column of the table`);
    return { key, column, name: casing.getColumnCasing(column), type: column.getSQLType() };
  });
  const columnList = sql.raw(targets.map((target) => `"${target.name}"`).join(", "));

  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const chunk = rows.slice(start, start + rowsPerStatement) as Record<string, unknown>[];
    const arrays = targets.map((target) => {
      const values = chunk.map((row) => {
        const value = row[target.key];
        return value === null || value === undefined ? null : String(target.column.mapToDriverValue(value));
      });
      return sql`${toPgArrayLiteral(values)}::${sql.raw(target.type)}[]`;
    });
    await tx.execute(sql`insert into ${table} (${columnList}) select * from unnest(${sql.join(arrays, sql`, `)})`);
  }
}

/** A one-dimensional PostgreSQL array literal: every element quoted, so commas, braces and quotes are safe. */
export function toPgArrayLiteral(values: readonly (string | null)[]): string {
  return `{${values.map((value) => (value === null ? "NULL" : `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`)).join(",")}}`;
}

// PostgreSQL takes at most 65 535 parameters per statement.
const MAX_PARAMETERS = 60_000;

/** Writes rows with ordinary multi-row inserts, as many per statement as PostgreSQL takes parameters for. */
export async function insertInChunks<T extends PgTable>(tx: Db, table: T, rows: InferInsertModel<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const size = Math.max(1, Math.min(5000, Math.floor(MAX_PARAMETERS / columns)));
  for (let start = 0; start < rows.length; start += size) {
    await tx.insert(table).values(rows.slice(start, start + size));
  }
}
