import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { Carrier, OrderStatus, PaymentProvider, RefundStatus, ShippingMethod } from "@/lib/enums";
import { rowId } from "@/lib/id";
import type { RefundKind } from "@/lib/refund-kind";
import { postalAddressInput } from "@/server/account/schemas";
import { regionCode } from "@/server/shipping/schemas";

/** Where an order goes; one schema for the checkout form, the manual order form and the server. */
export const orderAddressInput = postalAddressInput.extend({
  /** The state or province, for countries that have them; checked against the country's regions by the server. */
  stateCode: regionCode.optional().nullable().or(z.literal("")).transform((value) => (value ? value : null)),
});

/** Where an order stands on its money (`orderStanding`): not paid yet (or never), paid, or (partly) paid back. */
export type PaymentStanding = "UNPAID" | "PAID" | "PARTLY_REFUNDED" | "REFUNDED";
/** Where an order stands on its parcel (`orderStanding`): still to go out, packed, gone, collected in the shop, or not at all. */
export type FulfilmentStanding = "TO_SHIP" | "SHIPS_LATER" | "PACKED" | "SHIPPED" | "COLLECTED" | "CANCELLED";
export type OrderStanding = { payment: PaymentStanding; fulfilment: FulfilmentStanding };

/** One of the signed-in customer's orders, by its id. */
export const customerOrderInput = z.object({ id: rowId });

/**
 * An order's named totals (ARCHITECTURE §3), from `orderTotals`: `items` is the list price of everything ordered,
 * `discount` all that came off it, `shipping` the shipping method's cost without the insurance `surcharge`, and
 * `total` what the customer pays: items - discount + shipping + surcharge.
 */
export type OrderTotals = { items: Decimal; discount: Decimal; shipping: Decimal; surcharge: Decimal; total: Decimal };

/** A refund as the customer sees it on their order page. Amounts are euro strings with two decimals. */
export type CustomerRefund = {
  id: number;
  kind: RefundKind;
  /** The line's product name for a PRODUCT refund; null for shipping and goodwill. */
  productName: string | null;
  quantity: number | null;
  amount: string;
  status: RefundStatus;
  createdAt: Date;
  settledAt: Date | null;
};

/** A line as the customer sees it: `paid` for the whole quantity after every discount, `discount` what came off. */
export type OrderViewItem = { productId: number; name: string; quantity: number; paid: Decimal; discount: Decimal };

/**
 * The one read model of an order: what the confirmation page, the confirmation e-mail and the customer's order page
 * show (and later the admin, the packing slip and the invoice).
 */
export type OrderView = {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  createdAt: Date;
  /** When the parcel was handed to the carrier; null until the order is SHIPPED. */
  shippedAt: Date | null;
  /** When the carrier's tracking said the parcel was delivered; null until then. */
  deliveredAt: Date | null;
  email: string;
  items: OrderViewItem[];
  /** The addressee and the address lines as a label prints them, ending with the country. */
  address: { name: string; lines: string[] };
  shipping: {
    method: ShippingMethod;
    carrier: Carrier | null;
    trackingNumber: string | null;
    /** The carrier's public page where the customer follows the parcel; null without a tracking number. */
    trackingUrl: string | null;
    estimatedShippingDate: string | null;
    estimatedDeliveryDate: string | null;
  };
  paymentMethod: PaymentProvider;
  totals: OrderTotals;
  /**
   * The refunds whose money went back or is on its way (PENDING and REFUNDED), oldest first; one the provider refused
   * gave nothing back and is left out until staff retry it.
   */
  refunds: CustomerRefund[];
  /** The sum of `refunds`, in euro with two decimals ("0.00" without refunds): what was paid is `totals.total`. */
  refundedTotal: string;
};

/** How the customer reads a carrier's name. */
export const carrierNames: Record<Carrier, string> = { POSTNL: "PostNL", UPS: "UPS" };
