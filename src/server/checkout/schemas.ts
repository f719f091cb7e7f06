import type { Decimal } from "decimal.js";
import { z } from "zod";
import { shippingMethods, type OrderStatus, type ShippingMethod } from "@/lib/enums";
import { text } from "@/lib/text";
import { checkoutPaymentMethods } from "@/server/integrations/payments/port";
import { cartItemsInput } from "@/server/pricing/schemas";
import { regionCode } from "@/server/shipping/schemas";

const requiredText = (label: string, max = 120) => text().trim().min(1, `${label} is required`).max(max, `${label} is at most ${max} characters`);
const optionalText = (label: string, max = 120) =>
  text()
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null));

/** Where the order goes; one schema for the checkout form and the server. */
export const checkoutAddressInput = z.object({
  firstName: requiredText("First name"),
  lastName: requiredText("Last name"),
  companyName: optionalText("Company"),
  street: requiredText("Street"),
  houseNumber: requiredText("House number", 20),
  addressLine2: optionalText("Address line 2"),
  postCode: requiredText("Postcode", 20),
  city: requiredText("City"),
  countryCode: z.string().trim().regex(/^[A-Za-z]{2}$/, "Choose a country").toUpperCase(),
  /** The state or province, for countries that have them; checked against the country's regions by the server. */
  stateCode: regionCode.optional().nullable().or(z.literal("")).transform((value) => (value ? value : null)),
  phoneNumber: z
    .string()
    .trim()
    .regex(/^[+0-9 ()-]{6,30}$/, "Enter a phone number with digits only, e.g. +31 6 12345678")
    .optional()
    .nullable()
    .or(z.literal(""))
    .transform((value) => (value ? value : null)),
});
export type CheckoutAddressInput = z.input<typeof checkoutAddressInput>;

/** A discount code, or none: an empty field means no code. */
const optionalCouponCode = text()
  .trim()
  .max(64)
  .optional()
  .transform((value) => (value ? value : undefined));

/** What the buyer fills in at checkout; the checkout form validates with it before the server does again. */
export const checkoutFormInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address")),
  address: checkoutAddressInput,
  /** Signed-in customers: keep the address in their address book. */
  saveAddress: z.boolean().default(false),
  shippingMethod: z.enum(shippingMethods, { error: "Choose a shipping method" }),
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

export type PlacedOrder = {
  orderId: number;
  paymentMethod: CheckoutPaymentMethod;
  orderNumber: string;
  email: string;
  total: Decimal;
};

export type ConfirmationItem = { productId: number; name: string; quantity: number; totalPrice: Decimal };

/** What the confirmation page and e-mail show. */
export type OrderConfirmation = {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  createdAt: Date;
  email: string;
  items: ConfirmationItem[];
  address: { name: string; lines: string[] };
  shippingMethod: ShippingMethod;
  estimatedShippingDate: string | null;
  estimatedDeliveryDate: string | null;
  paymentMethod: string;
  itemTotal: Decimal;
  discount: Decimal;
  surcharge: Decimal;
  shipping: Decimal;
  total: Decimal;
  orderEmailSent: boolean;
};
