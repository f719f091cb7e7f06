import { getDb } from "@/server/db/client";
import { respondToPrintRequest } from "@/server/fulfilment/documents/print-request";
import { getPrivateStorage } from "@/server/integrations/storage/storage";

export const dynamic = "force-dynamic";

/** Labels, packing slips, invoices or the pick list as one PDF, for staff only (see respondToPrintRequest). */
export async function GET(request: Request, context: { params: Promise<{ document: string }> }): Promise<Response> {
  const { document } = await context.params;
  return respondToPrintRequest(request, document, { db: getDb(), storage: getPrivateStorage() });
}
