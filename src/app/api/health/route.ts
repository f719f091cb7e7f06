import { getDatabase } from "@/server/db/client";
import { checkHealth } from "@/server/health/service";
import { logger } from "@/server/logger";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const requestId = request.headers.get("x-request-id") ?? crypto.randomUUID();
  const report = await checkHealth(getDatabase());
  const level = report.status === "ok" ? "info" : "error";
  logger[level]({ event: "HEALTH_CHECK", requestId, ...report }, "health check");
  return Response.json(report, {
    status: report.status === "down" ? 503 : 200,
    headers: { "cache-control": "no-store", "x-request-id": requestId },
  });
}
