import { getDb } from "@/server/db/client";
import { respondToLabelDownload } from "@/server/fulfilment/label-download";
import { getPrivateStorage } from "@/server/integrations/storage/storage";

// An order's shipping label, for staff only (see respondToLabelDownload).
export async function GET(request: Request, context: { params: Promise<{ orderNumber: string }> }): Promise<Response> {
  const { orderNumber } = await context.params;
  return respondToLabelDownload(request, orderNumber, { db: getDb(), storage: getPrivateStorage() });
}
