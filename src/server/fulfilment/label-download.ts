import "server-only";
import { decideAdminAccess } from "@/server/auth/admin-page-access";
import { readSession } from "@/server/auth/session";
import type { Db } from "@/server/db/client";
import { crossSiteDocumentRefusal, pdfResponse, textResponse } from "@/server/http/pdf-response";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { readLabelPdf } from "./labels";

/**
 * `GET /admin/orders/label/{orderNumber}`: the order's shipping label as a PDF download, for staff only. A label
 * carries the customer's name and address, so anyone else (signed in or not) gets the same 404 as an order without a
 * label, which reveals nothing. Labels are kept in the private storage, so this is the only way to one; a link on
 * another site is refused (`crossSiteDocumentRefusal`).
 */
export async function respondToLabelDownload(request: Request, orderNumber: string, deps: { db: Db; storage: PrivateStoragePort }): Promise<Response> {
  const crossSite = crossSiteDocumentRefusal(request.headers);
  if (crossSite) return crossSite;
  const access = decideAdminAccess(await readSession(deps.db, request.headers));
  const label = access.kind === "admin" ? await readLabelPdf(deps.db, deps.storage, orderNumber) : null;
  if (!label) return textResponse(404, "Not found");
  return pdfResponse(label.body, label.filename, "attachment");
}
