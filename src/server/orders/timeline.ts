import { orderStatuses, type LogEventType, type OrderStatus, type Severity, type StockRecordType } from "@/lib/enums";
import type { TimelineEntry, TimelineKind } from "./admin-schemas";

/**
 * An order's timeline, merged from three records kept for other reasons: the logbook (what the shop and staff did,
 * its refunds' entries included), the payment callbacks as received (`webhook_event`) and the stock ledger rows of
 * its items (a refund's pieces put back name their line too). Pure: the reads are in admin-service.ts.
 */

export type TimelineLogRow = {
  id: number;
  at: Date;
  eventType: LogEventType;
  entityType: string | null;
  level: Severity;
  description: string;
  previousState: unknown;
  newState: unknown;
  by: string | null;
};

export type TimelineWebhookRow = { id: number; at: Date; provider: string; externalPaymentId: string; status: string };

export type TimelineStockRow = { id: number; at: Date; type: StockRecordType; quantity: number; productName: string };

const isStatus = (value: unknown): value is OrderStatus => typeof value === "string" && (orderStatuses as readonly string[]).includes(value);

function field(state: unknown, key: string): unknown {
  return state !== null && typeof state === "object" ? (state as Record<string, unknown>)[key] : undefined;
}

/** A label's fields, as fulfilment logs them when it buys or voids one. */
const labelFields = ["trackingNumber", "gcsLabelFilename"];

function kindOfLogRow(row: TimelineLogRow): TimelineKind {
  if (row.eventType === "EMAIL") return "email";
  // Money that moved: the payment and its callbacks, and refunds (given, paid out by the provider, refused, retried).
  if (row.eventType === "WEBHOOK" || row.entityType === "PAYMENT_DETAIL" || row.eventType === "REFUND") return "payment";
  if (row.eventType !== "ORDER") return "note";
  const from = field(row.previousState, "status");
  const to = field(row.newState, "status");
  if (isStatus(from) && isStatus(to) && from !== to) return "status";
  if (row.previousState === null && to === "PENDING") return "placed";
  if (labelFields.some((key) => field(row.newState, key) !== undefined)) return "label";
  return "note";
}

export function logTimelineEntry(row: TimelineLogRow): TimelineEntry {
  const kind = kindOfLogRow(row);
  const from = field(row.previousState, "status");
  const to = field(row.newState, "status");
  return {
    at: row.at,
    kind,
    text: row.description,
    level: row.level,
    by: row.by,
    change: kind === "status" && isStatus(from) && isStatus(to) ? { from, to } : null,
  };
}

export function webhookTimelineEntry(row: TimelineWebhookRow): TimelineEntry {
  const provider = row.provider.charAt(0).toUpperCase() + row.provider.slice(1);
  return { at: row.at, kind: "webhook", text: `${provider} reported payment ${row.externalPaymentId} ${row.status}`, level: "INFO", by: null, change: null };
}

const stockReasons: Record<StockRecordType, string> = {
  ORDER_ITEM: "order",
  REFUND: "refund",
  INVENTORY_CORRECTION: "correction",
  PURCHASE_RECORD: "purchase",
};

export function stockTimelineEntry(row: TimelineStockRow): TimelineEntry {
  const movement = row.quantity < 0 ? `${-row.quantity} × ${row.productName} taken from stock` : `${row.quantity} × ${row.productName} back in stock`;
  return { at: row.at, kind: "stock", text: `${movement} (${stockReasons[row.type]})`, level: "INFO", by: null, change: null };
}

/**
 * One list, oldest first. What one transaction wrote shares its time (PostgreSQL's `now()` is the transaction's
 * start), so ties read in cause-and-effect order: the provider's callback, then what the shop did about it, then the
 * stock that moved because of it; within a source, in the order written.
 */
export function mergeTimeline(sources: { webhooks: TimelineWebhookRow[]; log: TimelineLogRow[]; stock: TimelineStockRow[] }): TimelineEntry[] {
  const ranked = [
    ...sources.webhooks.map((row) => ({ rank: 0, id: row.id, entry: webhookTimelineEntry(row) })),
    ...sources.log.map((row) => ({ rank: 1, id: row.id, entry: logTimelineEntry(row) })),
    ...sources.stock.map((row) => ({ rank: 2, id: row.id, entry: stockTimelineEntry(row) })),
  ];
  ranked.sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || a.rank - b.rank || a.id - b.id);
  return ranked.map((item) => item.entry);
}
