import "server-only";
import { sql } from "drizzle-orm";
import { readSession } from "@/server/auth/session";
import type { Database, Db } from "@/server/db/client";
import { readSchemaVersion, type SchemaVersion } from "@/server/db/migrate";
import { clientAddress, isLoopbackAddress } from "@/server/http/client-address";

export type HealthReport = {
  status: "ok" | "degraded" | "down";
  database: { reachable: boolean; kind: Database["kind"]; latencyMs: number | null; error?: string };
  schema: SchemaVersion | null;
  checkedAt: string;
};

/** What a caller who may not read the details learns: enough for a load balancer or an uptime monitor. */
export type HealthStatus = Pick<HealthReport, "status" | "checkedAt">;

/**
 * How long the health check waits for the database. A load balancer asks every few seconds and takes an instance out
 * after a few failures; a check that hangs as long as the database does tells it nothing (RELIABILITY-REVIEW D3).
 */
export const HEALTH_TIMEOUT_MS = 2_000;

/** `work`, or a rejection once `ms` have passed, whichever comes first. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Whether the database answers (within `timeoutMs`) and carries the schema this build expects. */
export async function checkHealth(database: Database, timeoutMs: number = HEALTH_TIMEOUT_MS): Promise<HealthReport> {
  const started = performance.now();
  try {
    const schema = await within(
      database.db.execute(sql`select 1`).then(() => readSchemaVersion(database)),
      timeoutMs,
    );
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    return {
      status: schema.upToDate ? "ok" : "degraded",
      database: { reachable: true, kind: database.kind, latencyMs },
      schema,
      checkedAt: new Date().toISOString(),
    };
  } catch (error) {
    return {
      status: "down",
      database: { reachable: false, kind: database.kind, latencyMs: null, error: rootCause(error) },
      schema: null,
      checkedAt: new Date().toISOString(),
    };
  }
}

/** Drizzle wraps the driver's error in "Failed query: select 1"; what staff need is the driver's reason beneath. */
function rootCause(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause !== undefined) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

/**
 * The report as this caller may read it. The database's own error names hosts, ports and database users, and the
 * rest tells which database and migration the shop runs, so only shop staff and this machine (monitoring on the
 * server, the end-to-end setup) get the whole report; everyone else gets the status.
 */
export async function healthReportFor(report: HealthReport, db: Db, headers: Headers): Promise<HealthReport | HealthStatus> {
  if (isLoopbackAddress(clientAddress(headers))) return report;
  // An unreachable database cannot say who is signed in either.
  const session = report.database.reachable ? await readSession(db, headers).catch(() => null) : null;
  if (session?.user.role === "ADMIN") return report;
  return { status: report.status, checkedAt: report.checkedAt };
}
