import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import type { OrderView } from "@/server/orders/schemas";
import { pickLines } from "./pick-list";

const order = (orderNumber: string, items: [productId: number, name: string, quantity: number][]): OrderView => ({
  orderId: Number(orderNumber.slice(-3)),
  orderNumber,
  status: "PAID_READY_TO_SHIP",
  createdAt: new Date("2026-03-04T09:00:00Z"),
  shippedAt: null,
  deliveredAt: null,
  email: "buyer@example.com",
  items: items.map(([productId, name, quantity]) => ({ productId, name, quantity, paid: new Decimal(10), discount: new Decimal(0) })),
  address: { name: "Ada Lovelace", lines: ["Dam 1", "1012 JS Amsterdam", "Netherlands"] },
  shipping: { method: "TNT", carrier: null, trackingNumber: null, trackingUrl: null, estimatedShippingDate: null, estimatedDeliveryDate: null },
  paymentMethod: "IDEAL",
  totals: { items: new Decimal(0), discount: new Decimal(0), shipping: new Decimal(0), surcharge: new Decimal(0), total: new Decimal(0) },
  refunds: [],
  refundedTotal: "0.00",
});

describe("the pick list", () => {
  it("sums each product over the orders, says how many go into which order, and sorts by name then product number", () => {
    const lines = pickLines([
      order("BC-2026-000101", [[7, "Seiko 5 crown", 2], [3, "Écrin, presentation box", 1]]),
      order("BC-2026-000102", [[7, "Seiko 5 crown", 1], [9, "Crystal 30 mm", 1]]),
      order("BC-2026-000103", [[4, "crystal 30 mm", 1], [7, "Seiko 5 crown", 1]]),
    ]);

    expect(lines.map((line) => [line.productId, line.quantity])).toEqual([
      [4, 1],
      [9, 1],
      [3, 1],
      [7, 4],
    ]);
    expect(lines.at(-1)!.orders).toEqual([
      { orderNumber: "BC-2026-000101", quantity: 2 },
      { orderNumber: "BC-2026-000102", quantity: 1 },
      { orderNumber: "BC-2026-000103", quantity: 1 },
    ]);
  });
});
