import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { orderStatuses } from "@/lib/enums";
import { orderStanding } from "./order-standing";

const order = (status: (typeof orderStatuses)[number], more: Partial<Parameters<typeof orderStanding>[0]> = {}) =>
  orderStanding({ status, shippingMethod: "TNT", wasPaid: status !== "PENDING", paid: new Decimal("50.00"), refunded: new Decimal(0), ...more });

describe("an order's payment and fulfilment, read apart from its one status", () => {
  it("names each status's parcel", () => {
    expect(Object.fromEntries(orderStatuses.map((status) => [status, order(status).fulfilment]))).toEqual({
      PENDING: "TO_SHIP",
      PAID_READY_TO_SHIP: "TO_SHIP",
      PAID_FUTURE_SHIPMENT: "SHIPS_LATER",
      PROCESSED: "PACKED",
      SHIPPED: "SHIPPED",
      CANCELLED: "CANCELLED",
    });
  });

  it("calls a shipped counter sale collected", () => {
    expect(order("SHIPPED", { shippingMethod: "COLLECTED" })).toEqual({ payment: "PAID", fulfilment: "COLLECTED" });
  });

  it("reads the money from the payment and the refunds", () => {
    expect(order("PENDING").payment).toBe("UNPAID");
    expect(order("PAID_READY_TO_SHIP").payment).toBe("PAID");
    expect(order("SHIPPED", { refunded: new Decimal("10.00") }).payment).toBe("PARTLY_REFUNDED");
    expect(order("SHIPPED", { refunded: new Decimal("50.00") }).payment).toBe("REFUNDED");
    expect(order("CANCELLED", { refunded: new Decimal("50.00") })).toEqual({ payment: "REFUNDED", fulfilment: "CANCELLED" });
    // Cancelled before its payment came in: never paid, nothing to give back.
    expect(order("CANCELLED", { wasPaid: false }).payment).toBe("UNPAID");
  });
});
