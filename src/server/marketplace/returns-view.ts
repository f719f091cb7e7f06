import "server-only";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { marketplaceRequest, order, orderItem, product } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { reasonText } from "./returns-import";
import type { MarketplaceRequestView } from "./returns-schemas";

/** Buyers' requests from eBay as the order page shows them, with what staff can do about each now. */

type RequestRow = typeof marketplaceRequest.$inferSelect;

/** What staff can do with a request as it stands: the rules the actions check again under the row's lock. */
export function requestActions(row: Pick<RequestRow, "kind" | "state" | "receivedAt" | "refundIds">): MarketplaceRequestView["can"] {
  const isReturn = row.kind === "RETURN";
  return {
    decide: row.state === "REQUESTED",
    receive: isReturn && (row.state === "ACCEPTED" || row.state === "CLOSED") && row.receivedAt === null,
    refund: isReturn && row.state === "ACCEPTED" && row.refundIds.length === 0,
  };
}

async function viewsOf(db: Db, rows: RequestRow[]): Promise<MarketplaceRequestView[]> {
  const itemIds = [...new Set(rows.flatMap((row) => row.lines.map((line) => line.orderItemId)))];
  const names = itemIds.length
    ? await db.select({ id: orderItem.id, name: product.name }).from(orderItem).innerJoin(product, eq(product.id, orderItem.productId)).where(inArray(orderItem.id, itemIds))
    : [];
  const nameOf = new Map(names.map((entry) => [entry.id, entry.name]));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    marketplaceRequestId: row.marketplaceRequestId,
    state: row.state,
    marketplaceState: row.marketplaceState,
    reason: reasonText(row.reason),
    buyerComment: row.buyerComment,
    lines: row.lines.map((line) => ({ orderItemId: line.orderItemId, productName: nameOf.get(line.orderItemId) ?? "a line no longer on the order", quantity: line.quantity })),
    requestedRefund: row.requestedRefund?.toFixed(2) ?? null,
    requestedAt: row.requestedAt,
    respondBy: row.respondBy,
    decidedAt: row.decidedAt,
    receivedAt: row.receivedAt,
    refundIds: row.refundIds,
    closedAt: row.closedAt,
    can: requestActions(row),
  }));
}

/** The order's requests from eBay, oldest first; none for an order not sold there. */
export async function orderRequests(db: Db, orderNumber: string): Promise<MarketplaceRequestView[]> {
  const rows = await db
    .select({ request: marketplaceRequest })
    .from(marketplaceRequest)
    .innerJoin(order, eq(order.id, marketplaceRequest.orderId))
    .where(eq(order.orderNumber, orderNumber))
    .orderBy(asc(marketplaceRequest.requestedAt), asc(marketplaceRequest.id));
  return viewsOf(
    db,
    rows.map((row) => row.request),
  );
}

/** One request as staff see it. */
export async function requestView(db: Db, requestId: number): Promise<MarketplaceRequestView> {
  const [row] = await db.select().from(marketplaceRequest).where(eq(marketplaceRequest.id, requestId));
  if (!row) throw new AppError("NOT_FOUND", `There is no eBay request ${requestId}.`);
  const [view] = await viewsOf(db, [row]);
  return view!;
}
