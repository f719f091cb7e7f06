import { describe, expect, it } from "vitest";
import { orderStatuses } from "@/lib/enums";
import { orderMachine } from "./order-machine";

describe("order state machine", () => {
  it("lets a payment settle a PENDING order either way", () => {
    expect(orderMachine.can("PENDING", "PAID_READY_TO_SHIP")).toBe(true);
    expect(orderMachine.can("PENDING", "PAID_FUTURE_SHIPMENT")).toBe(true);
    expect(orderMachine.can("PENDING", "CANCELLED")).toBe(true);
  });

  it("ships only what was paid and packed", () => {
    expect(orderMachine.can("PAID_READY_TO_SHIP", "PROCESSED")).toBe(true);
    expect(orderMachine.can("PROCESSED", "SHIPPED")).toBe(true);
    expect(orderMachine.can("PENDING", "SHIPPED")).toBe(false);
    expect(orderMachine.can("PENDING", "PROCESSED")).toBe(false);
  });

  it("keeps shipped and cancelled orders final", () => {
    for (const to of orderStatuses) {
      expect(orderMachine.can("SHIPPED", to)).toBe(false);
      expect(orderMachine.can("CANCELLED", to)).toBe(false);
    }
  });

  it("refuses with CONFLICT and says what is allowed", () => {
    expect(() => orderMachine.assert("BC-2026-000001", "CANCELLED", "PAID_READY_TO_SHIP")).toThrow(
      expect.objectContaining({ code: "CONFLICT", message: "Order BC-2026-000001 is CANCELLED and cannot become PAID_READY_TO_SHIP: nothing more can happen to it." }),
    );
    expect(() => orderMachine.assert("BC-2026-000001", "PENDING", "PENDING")).toThrow(expect.objectContaining({ code: "CONFLICT" }));
  });
});
