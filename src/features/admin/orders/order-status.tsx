import { AdminBadge, type AdminBadgeTone } from "@/components/ui/admin-badge";
import type { OrderStatus } from "@/lib/enums";
import type { FulfilmentStanding, OrderStanding, PaymentStanding } from "@/server/orders/schemas";

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

const paymentStandings: Record<PaymentStanding, { label: string; tone: AdminBadgeTone }> = {
  UNPAID: { label: "unpaid", tone: "warning" },
  PAID: { label: "paid", tone: "success" },
  PARTLY_REFUNDED: { label: "refunded in part", tone: "brass" },
  REFUNDED: { label: "refunded", tone: "danger" },
};

const fulfilmentStandings: Record<FulfilmentStanding, { label: string; tone: AdminBadgeTone }> = {
  TO_SHIP: { label: "to ship", tone: "info" },
  SHIPS_LATER: { label: "ships later", tone: "brass" },
  PACKED: { label: "packed", tone: "neutral" },
  SHIPPED: { label: "shipped", tone: "success" },
  COLLECTED: { label: "collected in the shop", tone: "success" },
  CANCELLED: { label: "cancelled", tone: "danger" },
};

/** The order's payment and its parcel, each on its own, as `orderStanding` reads them from the one status. */
export function OrderStandingBadges({ standing }: { standing: OrderStanding }) {
  const payment = paymentStandings[standing.payment];
  const fulfilment = fulfilmentStandings[standing.fulfilment];
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-testid="order-standing">
      <AdminBadge tone={payment.tone}>Payment: {payment.label}</AdminBadge>
      <AdminBadge tone={fulfilment.tone}>Fulfilment: {fulfilment.label}</AdminBadge>
    </span>
  );
}

/** The same in a line of text, for a table row. */
export function orderStandingText(standing: OrderStanding): string {
  return `${paymentStandings[standing.payment].label[0]!.toUpperCase()}${paymentStandings[standing.payment].label.slice(1)} · ${fulfilmentStandings[standing.fulfilment].label}`;
}
