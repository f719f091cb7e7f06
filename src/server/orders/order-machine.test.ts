import { describe, expect, it } from "vitest";
import { orderStatuses } from "@/lib/enums";
import { assertOrderTransition, canTransitionOrder } from "./order-machine";

describe("order state machine", () => {
  it("lets a payment settle a PENDING order either way", () => {
    expect(canTransitionOrder("PENDING", "PAID_READY_TO_SHIP")).toBe(true);
    expect(canTransitionOrder("PENDING", "PAID_FUTURE_SHIPMENT")).toBe(true);
    expect(canTransitionOrder("PENDING", "CANCELLED")).toBe(true);
  });

  it("ships only what was paid and packed", () => {
    expect(canTransitionOrder("PAID_READY_TO_SHIP", "PROCESSED")).toBe(true);
    expect(canTransitionOrder("PROCESSED", "SHIPPED")).toBe(true);
    expect(canTransitionOrder("PENDING", "SHIPPED")).toBe(false);
    expect(canTransitionOrder("PENDING", "PROCESSED")).toBe(false);
  });

  it("keeps shipped and cancelled orders final", () => {
    for (const to of orderStatuses) {
      expect(canTransitionOrder("SHIPPED", to)).toBe(false);
      expect(canTransitionOrder("CANCELLED", to)).toBe(false);
    }
  });

  it("refuses with CONFLICT and says what is allowed", () => {
    expect(() => assertOrderTransition("BC-2026-000001", "CANCELLED", "PAID_READY_TO_SHIP")).toThrow(
      expect.objectContaining({ code: "CONFLICT", message: "Order BC-2026-000001 is CANCELLED and cannot become PAID_READY_TO_SHIP: nothing more can happen to it." }),
    );
    expect(() => assertOrderTransition("BC-2026-000001", "PENDING", "PENDING")).toThrow(expect.objectContaining({ code: "CONFLICT" }));
  });
});
