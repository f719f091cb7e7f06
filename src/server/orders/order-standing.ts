import type { Decimal } from "decimal.js";
import type { OrderStatus, ShippingMethod } from "@/lib/enums";
import type { FulfilmentStanding, OrderStanding, PaymentStanding } from "./schemas";

/**
 * Where an order stands on its money and on its parcel, read apart for staff from the one order machine: an order has
 * one status (`order-machine.ts`), and this only names what that status, the way it leaves and its refunds mean for
 * each. `wasPaid` is whether a payment was ever recorded (`order.soldAt`): a cancelled order may have been paid and
 * refunded, or never paid at all. `paid` is what was paid (`paymentDetail.total`), `refunded` what went back or is on
 * its way.
 */
export function orderStanding(order: { status: OrderStatus; shippingMethod: ShippingMethod; wasPaid: boolean; paid: Decimal; refunded: Decimal }): OrderStanding {
  return { payment: paymentStanding(order), fulfilment: fulfilmentStanding(order) };
}

function paymentStanding({ status, wasPaid, paid, refunded }: { status: OrderStatus; wasPaid: boolean; paid: Decimal; refunded: Decimal }): PaymentStanding {
  if (status === "PENDING" || !wasPaid) return "UNPAID";
  if (refunded.isZero() || refunded.isNegative()) return "PAID";
  return refunded.greaterThanOrEqualTo(paid) ? "REFUNDED" : "PARTLY_REFUNDED";
}

function fulfilmentStanding({ status, shippingMethod }: { status: OrderStatus; shippingMethod: ShippingMethod }): FulfilmentStanding {
  switch (status) {
    case "PENDING":
    case "PAID_READY_TO_SHIP":
      return "TO_SHIP";
    case "PAID_FUTURE_SHIPMENT":
      return "SHIPS_LATER";
    case "PROCESSED":
      return "PACKED";
    case "SHIPPED":
      return shippingMethod === "COLLECTED" ? "COLLECTED" : "SHIPPED";
    case "CANCELLED":
      return "CANCELLED";
  }
}
