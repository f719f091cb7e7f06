import "server-only";
import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/**
 * The rows of a raw SQL query, typed as the caller says they are. Both drivers (pg and PGlite) answer `execute` with
 * `{ rows }`, but drizzle types the answer per driver; this is the one place that reads it.
 */
export async function rawRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
