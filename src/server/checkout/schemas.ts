import type { Decimal } from "decimal.js";
import { z } from "zod";
import { deliveryMethods, type ShippingMethod } from "@/lib/enums";
import { text } from "@/lib/text";
import { checkoutPaymentMethods } from "@/lib/payment-methods";
import { orderAddressInput, type OrderTotals } from "@/server/orders/schemas";
import { cartItemsInput, type PricedCart } from "@/server/pricing/schemas";
import { regionCode, type ShippingOptions } from "@/server/shipping/schemas";

/** A discount code, or none: an empty field means no code. */
const optionalCouponCode = text()
  .trim()
  .max(64)
  .optional()
  .transform((value) => (value ? value : undefined));

/** What the buyer fills in at checkout; the checkout form validates with it before the server does again. */
export const checkoutFormInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address")),
  address: orderAddressInput,
  /** Signed-in customers: keep the address in their address book. */
  saveAddress: z.boolean().default(false),
  shippingMethod: z.enum(deliveryMethods, { error: "Choose a shipping method" }),
  paymentMethod: z.enum(checkoutPaymentMethods, { error: "Choose a payment method" }),
  couponCode: optionalCouponCode,
});
export type CheckoutFormInput = z.input<typeof checkoutFormInput>;
export type CheckoutFormValues = z.output<typeof checkoutFormInput>;

export const placeOrderInput = checkoutFormInput.extend({
  /** A guest's cart from the browser; a signed-in customer's saved cart is read from the database instead. */
  items: cartItemsInput.default([]),
});
export type PlaceOrderInput = z.input<typeof placeOrderInput>;

export const checkoutShippingInput = z.object({
  /** Left out until the buyer has chosen where the order goes. */
  countryCode: z.string().trim().regex(/^[A-Za-z]{2}$/, "Choose a country").optional(),
  stateCode: regionCode.optional().or(z.literal("")),
  couponCode: optionalCouponCode,
  items: cartItemsInput.default([]),
});
export type CheckoutShippingInput = z.input<typeof checkoutShippingInput>;

export type CheckoutPaymentMethod = (typeof checkoutPaymentMethods)[number];

/**
 * The checkout's summary as the server priced it: the cart, each shipping method's cost and dates once the
 * destination is known, and the order's named totals with each method the destination allows, as placing the order
 * stores them; the browser shows these and adds nothing up itself.
 */
export type CheckoutQuote = { cart: PricedCart; shipping: ShippingOptions | null; totals: { method: ShippingMethod; totals: OrderTotals }[] };

export type PlacedOrder = {
  orderId: number;
  paymentMethod: CheckoutPaymentMethod;
  orderNumber: string;
  email: string;
  total: Decimal;
};
