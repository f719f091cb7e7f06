import { z } from "zod";
import { adminPageAccess } from "@/server/auth/admin-page-access";
import { getDb } from "@/server/db/client";
import { csvResponse } from "@/server/http/csv-response";
import { crossSiteDocumentRefusal, textResponse } from "@/server/http/pdf-response";
import { reportCsv } from "@/server/reports/report-csv";
import { reportNames } from "@/server/reports/schemas";

/**
 * One of the owner's reports as CSV for the accountant (`?report=sales&months=24`, `?report=sellers&period=2026-Q1`),
 * for staff only: it shows cost prices, so anyone else gets a 404 as for a page that does not exist, and a link on
 * another site is refused.
 */
export async function GET(request: Request): Promise<Response> {
  const crossSite = crossSiteDocumentRefusal(request.headers);
  if (crossSite) return crossSite;
  const access = await adminPageAccess();
  if (access.kind !== "admin") return textResponse(404, "Not found");
  const search = new URL(request.url).searchParams;
  const report = z.enum(reportNames).safeParse(search.get("report"));
  if (!report.success) return textResponse(400, `Choose a report: ?report=${reportNames.join(", ")}.`);
  try {
    const { filename, lines } = reportCsv(getDb(), report.data, search);
    return csvResponse(lines, filename);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    return textResponse(400, `This report cannot be read so: ${error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}.`);
  }
}
