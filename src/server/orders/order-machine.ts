import type { OrderStatus } from "@/lib/enums";
import { defineStateMachine } from "@/server/state-machine";

/**
 * The order state machine (SPEC section 4). An order is PENDING until its payment settles: paid makes it
 * PAID_READY_TO_SHIP, or PAID_FUTURE_SHIPMENT when it is to leave after the next shipping day; a failed, cancelled
 * or expired payment makes it CANCELLED. Staff move a paid order between the two paid states when its shipping
 * date changes, pack it (PROCESSED, which they can undo while the parcel is still here) and hand it to the carrier
 * (SHIPPED). A paid or packed order can still be cancelled (the money is then refunded); shipped and cancelled
 * orders are final.
 */
export const orderMachine = defineStateMachine<OrderStatus>("Order", {
  PENDING: ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "CANCELLED"],
  PAID_READY_TO_SHIP: ["PAID_FUTURE_SHIPMENT", "PROCESSED", "CANCELLED"],
  PAID_FUTURE_SHIPMENT: ["PAID_READY_TO_SHIP", "PROCESSED", "CANCELLED"],
  PROCESSED: ["PAID_READY_TO_SHIP", "SHIPPED", "CANCELLED"],
  SHIPPED: [],
  CANCELLED: [],
});

export const paidOrderStatuses = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "SHIPPED"] as const satisfies readonly OrderStatus[];

