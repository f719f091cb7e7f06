import { adminPageAccess } from "@/server/auth/admin-page-access";
import { getDb } from "@/server/db/client";
import { csvResponse } from "@/server/http/csv-response";
import { crossSiteDocumentRefusal } from "@/server/http/pdf-response";
import { orderExportInput } from "@/server/orders/admin-schemas";
import { orderExportCsv } from "@/server/orders/order-table";

/**
 * The paid orders of a period as CSV, for staff only (`?from=YYYY-MM-DD&to=YYYY-MM-DD`): it holds customers' names,
 * so anyone else gets a 404 as for a page that does not exist, and a link on another site is refused. The file is
 * streamed as it is read, a batch at a time.
 */
export async function GET(request: Request): Promise<Response> {
  const crossSite = crossSiteDocumentRefusal(request.headers);
  if (crossSite) return crossSite;
  const access = await adminPageAccess();
  if (access.kind !== "admin") return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const search = new URL(request.url).searchParams;
  const range = orderExportInput.safeParse({ from: search.get("from"), to: search.get("to") });
  if (!range.success) {
    const problem = range.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    return new Response(`Choose the days to export, as ?from=YYYY-MM-DD&to=YYYY-MM-DD (${problem}).`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return csvResponse(orderExportCsv(getDb(), range.data), `orders-${range.data.from}-to-${range.data.to}.csv`);
}
