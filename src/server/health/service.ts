import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/server/db/client";
import { readSchemaVersion, type SchemaVersion } from "@/server/db/migrate";

export type HealthReport = {
  status: "ok" | "degraded" | "down";
  database: { reachable: boolean; kind: Database["kind"]; latencyMs: number | null; error?: string };
  schema: SchemaVersion | null;
  checkedAt: string;
};

/** Whether the database answers and carries the schema this build expects. */
export async function checkHealth(database: Database): Promise<HealthReport> {
  const started = performance.now();
  try {
    await database.db.execute(sql`select 1`);
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    const schema = await readSchemaVersion(database);
    return {
      status: schema.upToDate ? "ok" : "degraded",
      database: { reachable: true, kind: database.kind, latencyMs },
      schema,
      checkedAt: new Date().toISOString(),
    };
  } catch (error) {
    return {
      status: "down",
      database: { reachable: false, kind: database.kind, latencyMs: null, error: error instanceof Error ? error.message : String(error) },
      schema: null,
      checkedAt: new Date().toISOString(),
    };
  }
}
