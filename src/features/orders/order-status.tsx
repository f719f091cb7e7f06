import type { OrderStatus } from "@/lib/enums";
import { cn } from "@/lib/utils";

const labels: Record<OrderStatus, string> = {
  PENDING: "Awaiting payment",
  PAID_READY_TO_SHIP: "Paid, ready to ship",
  PAID_FUTURE_SHIPMENT: "Paid, ships on the next shipping day",
  PROCESSED: "Being packed",
  SHIPPED: "Shipped",
  CANCELLED: "Cancelled",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span
      className={cn(
        "inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium",
        status === "CANCELLED" ? "bg-destructive/10 text-destructive" : status === "SHIPPED" ? "bg-primary text-primary-foreground" : "bg-accent text-accent-foreground",
      )}
    >
      {labels[status]}
    </span>
  );
}
