import { AdminBadge, type AdminBadgeTone } from "@/components/ui/admin-badge";
import type { OrderStatus } from "@/lib/enums";

/** The statuses as the sidebar names them (SPEC section 2), so a list, a badge and a button say the same. */
export const orderStatusLabels: Record<OrderStatus, string> = {
  PENDING: "Pending",
  PAID_READY_TO_SHIP: "Ready to Ship",
  PAID_FUTURE_SHIPMENT: "Future Shipment",
  PROCESSED: "Processed",
  SHIPPED: "Shipped",
  CANCELLED: "Cancelled",
};

const tones: Record<OrderStatus, AdminBadgeTone> = {
  PENDING: "warning",
  PAID_READY_TO_SHIP: "info",
  PAID_FUTURE_SHIPMENT: "brass",
  PROCESSED: "neutral",
  SHIPPED: "success",
  CANCELLED: "danger",
};

export function AdminOrderStatusBadge({ status }: { status: OrderStatus }) {
  return <AdminBadge tone={tones[status]}>{orderStatusLabels[status]}</AdminBadge>;
}
