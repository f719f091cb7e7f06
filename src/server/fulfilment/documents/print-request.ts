import "server-only";
import { z } from "zod";
import { decideAdminAccess } from "@/server/auth/admin-page-access";
import { readSession } from "@/server/auth/session";
import type { Db } from "@/server/db/client";
import { AppError, type AppErrorCode } from "@/server/errors";
import { crossSiteDocumentRefusal, pdfResponse, textResponse } from "@/server/http/pdf-response";
import { requestIdOf } from "@/server/http/request-guards";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { logger } from "@/server/logger";
import { isPrintDocument, MAX_ORDERS_PER_DOCUMENT, printDocument, type OrderSelection } from "./service";

/**
 * `GET /admin/orders/print/{labels|packing-slips|invoices|pick-list}?orders=12,13` or `?day=today`: one PDF, shown in
 * the browser, for staff only. Anyone else gets the same 404 as an unknown document, which reveals nothing; a bad
 * query a 400 that says what to write instead; a link on another site a 403. Printing only reads: invoices are made
 * (numbered) by `admin.fulfilment.makeInvoices`, a POST with the shop's CSRF check (SECURITY-REVIEW N-L1).
 */

const orderId = z.string().regex(/^\d{1,9}$/, "Order ids are whole numbers, separated by commas, such as ?orders=12,13.").transform(Number);

const printQuery = z
  .object({
    // Longer than 500 ids of nine digits and their commas is never a real selection.
    orders: z.string().max(MAX_ORDERS_PER_DOCUMENT * 10 + 200, `One document holds at most ${MAX_ORDERS_PER_DOCUMENT} orders.`).optional(),
    day: z.literal("today", "The day's batch is ?day=today; for other orders, choose them with ?orders=12,13.").optional(),
  })
  .refine((query) => (query.orders === undefined) !== (query.day === undefined), "Say what to print: ?orders=12,13 for chosen orders, or ?day=today for today's batch (not both).")
  .transform((query, ctx): OrderSelection => {
    if (query.day) return { day: query.day };
    const ids = z.array(orderId).min(1, "Choose at least one order: ?orders=12,13.").safeParse(query.orders!.split(",").map((part) => part.trim()).filter(Boolean));
    if (ids.success) return { orderIds: ids.data };
    for (const issue of ids.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
    return z.NEVER;
  });

/** The selection a print request's query asks for; BAD_REQUEST with a readable message otherwise. */
export function parsePrintQuery(params: URLSearchParams): OrderSelection {
  const parsed = printQuery.safeParse({ orders: params.get("orders") ?? undefined, day: params.get("day") ?? undefined });
  if (parsed.success) return parsed.data;
  throw new AppError("BAD_REQUEST", [...new Set(parsed.error.issues.map((issue) => issue.message))].join(" "));
}

const statusOf: Partial<Record<AppErrorCode, number>> = { BAD_REQUEST: 400, NOT_FOUND: 404, CONFLICT: 409, PRECONDITION_FAILED: 409 };

/** Answers a print request: the PDF inline, or a plain-text reason staff can act on. */
export async function respondToPrintRequest(request: Request, document: string, deps: { db: Db; storage: PrivateStoragePort; now?: Date }): Promise<Response> {
  const crossSite = crossSiteDocumentRefusal(request.headers);
  if (crossSite) return crossSite;
  const access = decideAdminAccess(await readSession(deps.db, request.headers));
  if (access.kind !== "admin" || !isPrintDocument(document)) return textResponse(404, "Not found");
  const requestId = requestIdOf(request.headers);
  const log = logger.child({ event: "PRINT", document, requestId, userId: access.user.id });
  try {
    const selection = parsePrintQuery(new URL(request.url).searchParams);
    const printed = await printDocument(deps.db, deps.storage, document, selection, { now: deps.now });
    log.info({ orders: printed.orderNumbers.length }, `printed ${document} for ${printed.orderNumbers.length} orders`);
    return pdfResponse(printed.pdf, printed.filename, "inline");
  } catch (error) {
    const status = error instanceof AppError ? statusOf[error.code] : undefined;
    if (status) return textResponse(status, (error as AppError).message);
    log.error({ err: error }, "a document could not be made");
    return textResponse(500, `The document could not be made; the error is in the shop's log (request ${requestId}).`);
  }
}
