import "server-only";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { logChange, type LogChange } from "@/server/logbook/service";
import type { RefundRow } from "./refund-rows";
import { refundKindOf } from "@/lib/refund-kind";
import { refundSubject } from "./rules";

/* A refund in the logbook: who acts on it, its entries (event and entity REFUND) and the words that name it there. */

/** Who acts: staff giving or retrying a refund, or null for a job. `now` is for tests. */
export type RefundActor = { userId: string | null; now?: Date };

/** How the logbook and staff's notices name a refund: its id, order, what it is for and its amount. */
export const describeRefund = (row: Pick<RefundRow, "id" | "type" | "refundedOrderItemId" | "quantity" | "productName" | "amount">, orderNumber: string) =>
  `Refund ${row.id} of order ${orderNumber} (${refundSubject({ kind: refundKindOf({ type: row.type, orderItemId: row.refundedOrderItemId }), quantity: row.quantity, productName: row.productName })}, ${formatEuro(row.amount)})`;

/** A refund's logbook entry (event and entity REFUND), in the caller's transaction. */
export function logRefundChange(db: Db, refundId: number, change: Omit<LogChange, "eventType" | "entityType" | "entityId">): Promise<number> {
  return logChange(db, { ...change, eventType: "REFUND", entityType: "REFUND", entityId: refundId });
}
