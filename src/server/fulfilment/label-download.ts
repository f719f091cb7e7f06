import "server-only";
import { decideAdminAccess } from "@/server/admin/page-access";
import { readSession } from "@/server/auth/session";
import type { Db } from "@/server/db/client";
import type { StoragePort } from "@/server/integrations/storage/port";
import { readLabelPdf } from "./service";

/**
 * `GET /admin/orders/label/{orderNumber}`: the order's shipping label as a PDF download, for staff only. A label
 * carries the customer's name and address, so anyone else (signed in or not) gets the same 404 as an order without a
 * label, which reveals nothing.
 */
export async function respondToLabelDownload(request: Request, orderNumber: string, deps: { db: Db; storage: StoragePort }): Promise<Response> {
  const access = decideAdminAccess(await readSession(deps.db, request.headers));
  const label = access.kind === "admin" ? await readLabelPdf(deps.db, deps.storage, orderNumber) : null;
  if (!label) {
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return new Response(new Uint8Array(label.body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(label.body.length),
      "Content-Disposition": `attachment; filename="${label.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
