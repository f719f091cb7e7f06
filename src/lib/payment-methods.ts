import type { PaymentProvider } from "@/lib/enums";

/**
 * The payment methods a buyer can pay with online: the Mollie methods among SPEC section 9's payment providers,
 * and PAYPAL. The other providers of that list (ACCOUNT, EBAY, BUCKAROO, STRIPE, RABO) describe how orders taken
 * elsewhere were paid and are never started from the checkout.
 */
export const onlinePaymentMethods = [
  "APPLEPAY", "BANCONTACT", "BANKTRANSFER", "BELFIUS", "CREDITCARD", "DIRECTDEBIT", "EPS", "GIFTCARD", "GIROPAY",
  "IDEAL", "KBC", "KLARNAPAYNOW", "KLARNASLICEIT", "MYBANK", "PAYPAL", "PAYSAFECARD", "SOFORT",
] as const satisfies readonly PaymentProvider[];
export type OnlinePaymentMethod = (typeof onlinePaymentMethods)[number];

export function isOnlinePaymentMethod(value: string): value is OnlinePaymentMethod {
  return (onlinePaymentMethods as readonly string[]).includes(value);
}

/**
 * The methods the checkout offers. Mollie retired giropay and Sofort (its SDK lists them only as historic methods,
 * and creating a payment with them fails), so they stay readable on old payments but are not offered. Direct debit
 * needs a mandate from a first payment and is for subscriptions, not one-off web shop orders.
 */
export const checkoutPaymentMethods = onlinePaymentMethods.filter(
  (method) => method !== "GIROPAY" && method !== "SOFORT" && method !== "DIRECTDEBIT",
);
