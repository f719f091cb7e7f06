import { getDatabase } from "@/server/db/client";
import { checkHealth, healthReportFor } from "@/server/health/service";
import { logger } from "@/server/logger";
import { requestIdOf } from "@/server/http/request-guards";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const requestId = requestIdOf(request.headers);
  const database = getDatabase();
  const report = await checkHealth(database);
  const level = report.status === "ok" ? "info" : "error";
  logger[level]({ event: "HEALTH_CHECK", requestId, ...report }, "health check");
  return Response.json(await healthReportFor(report, database.db, request.headers), {
    status: report.status === "down" ? 503 : 200,
    headers: { "cache-control": "no-store", "x-request-id": requestId },
  });
}
