import { describe, expect, it } from "vitest";
import { mergeTimeline, type TimelineLogRow } from "./timeline";

const at = new Date("2026-03-04T09:00:00Z");
const later = new Date("2026-03-04T09:05:00Z");
const log = (row: Partial<TimelineLogRow>): TimelineLogRow => ({
  id: 1,
  at,
  eventType: "ORDER",
  entityType: "ORDER",
  level: "INFO",
  description: "",
  previousState: null,
  newState: null,
  by: null,
  ...row,
});

describe("an order's timeline", () => {
  it("names what each logbook entry was", () => {
    const entries = mergeTimeline({
      webhooks: [],
      stock: [],
      log: [
        log({ id: 1, newState: { orderNumber: "BC-2026-000001", status: "PENDING" }, description: "placed" }),
        log({ id: 2, entityType: "PAYMENT_DETAIL", newState: { status: "open" }, description: "payment started" }),
        log({ id: 3, previousState: { status: "PENDING" }, newState: { status: "PAID_READY_TO_SHIP" }, description: "paid", by: "Sam" }),
        log({ id: 4, newState: { trackingNumber: "3SABCD", gcsLabelFilename: "labels/x.pdf" }, description: "label" }),
        log({ id: 5, previousState: { trackingNumber: "3SABCD" }, newState: { trackingNumber: null }, description: "voided" }),
        log({ id: 6, eventType: "EMAIL", description: "mail" }),
        log({ id: 7, eventType: "WEBHOOK", level: "ERROR", description: "wrong amount" }),
        log({ id: 8, previousState: { estimatedShippingDate: "2026-03-04" }, newState: { estimatedShippingDate: "2026-03-06" }, description: "moved" }),
        log({ id: 9, eventType: "REFUND", entityType: "REFUND", newState: { status: "PENDING", amount: "12.50" }, description: "refund given" }),
        log({ id: 10, eventType: "REFUND", entityType: "REFUND", level: "ERROR", previousState: { status: "PENDING" }, newState: { status: "FAILED" }, description: "refund refused" }),
        log({ id: 11, eventType: "EMAIL", entityType: "REFUND", description: "refund mail" }),
      ],
    });
    expect(entries.map((entry) => [entry.text, entry.kind])).toEqual([
      ["placed", "placed"],
      ["payment started", "payment"],
      ["paid", "status"],
      ["label", "label"],
      ["voided", "label"],
      ["mail", "email"],
      ["wrong amount", "payment"],
      ["moved", "note"],
      ["refund given", "payment"],
      ["refund refused", "payment"],
      ["refund mail", "email"],
    ]);
    // A refund's status is the refund's, not the order's: no order status change is read into it.
    expect(entries[9]).toMatchObject({ level: "ERROR", change: null });
    expect(entries[2]).toMatchObject({ by: "Sam", change: { from: "PENDING", to: "PAID_READY_TO_SHIP" } });
  });

  it("reads one transaction's entries as cause and effect: the callback, what the shop did, the stock", () => {
    const entries = mergeTimeline({
      log: [log({ id: 9, previousState: { status: "PENDING" }, newState: { status: "CANCELLED" }, description: "cancelled" })],
      stock: [
        { id: 2, at, type: "ORDER_ITEM", quantity: 1, productName: "Seiko" },
        { id: 1, at: later, type: "REFUND", quantity: 1, productName: "Strap" },
      ],
      webhooks: [{ id: 5, at, provider: "mollie", externalPaymentId: "tr_1", status: "expired" }],
    });
    expect(entries.map((entry) => entry.text)).toEqual([
      "Mollie reported payment tr_1 expired",
      "cancelled",
      "1 × Seiko back in stock (order)",
      "1 × Strap back in stock (refund)",
    ]);
  });
});
