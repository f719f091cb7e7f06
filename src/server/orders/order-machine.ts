import type { OrderStatus } from "@/lib/enums";
import { AppError } from "@/server/errors";

/**
 * The order state machine (SPEC section 4). An order is PENDING until its payment settles: paid makes it
 * PAID_READY_TO_SHIP, or PAID_FUTURE_SHIPMENT when it is to leave after the next shipping day; a failed, cancelled
 * or expired payment makes it CANCELLED. Staff move a paid order between the two paid states when its shipping
 * date changes, pack it (PROCESSED, which they can undo while the parcel is still here) and hand it to the carrier
 * (SHIPPED). A paid or packed order can still be cancelled (the money is then refunded); shipped and cancelled
 * orders are final.
 */
export const orderTransitions: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  PENDING: ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "CANCELLED"],
  PAID_READY_TO_SHIP: ["PAID_FUTURE_SHIPMENT", "PROCESSED", "CANCELLED"],
  PAID_FUTURE_SHIPMENT: ["PAID_READY_TO_SHIP", "PROCESSED", "CANCELLED"],
  PROCESSED: ["PAID_READY_TO_SHIP", "SHIPPED", "CANCELLED"],
  SHIPPED: [],
  CANCELLED: [],
};

export const paidOrderStatuses = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "SHIPPED"] as const satisfies readonly OrderStatus[];

export function canTransitionOrder(from: OrderStatus, to: OrderStatus): boolean {
  return orderTransitions[from].includes(to);
}

/** Refuses a transition the machine does not allow (CONFLICT), saying what the order's state permits instead. */
export function assertOrderTransition(orderNumber: string, from: OrderStatus, to: OrderStatus): void {
  if (canTransitionOrder(from, to)) return;
  if (from === to) throw new AppError("CONFLICT", `Order ${orderNumber} is already ${from}.`);
  const next = orderTransitions[from];
  const hint = next.length ? `it can only become ${next.join(" or ")}` : "nothing more can happen to it";
  throw new AppError("CONFLICT", `Order ${orderNumber} is ${from} and cannot become ${to}: ${hint}.`);
}
