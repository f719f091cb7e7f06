"use client";

import { useFormContext, useWatch } from "react-hook-form";
import { paymentMethodLabels } from "@/lib/labels";
import { checkoutPaymentMethods } from "@/lib/payment-methods";
import { cn } from "@/lib/utils";
import type { CheckoutFormInput } from "@/server/checkout/schemas";
import { CheckoutSection } from "./form-field";

/** The payment methods the shop takes online; the buyer pays on the provider's page after placing the order. */
export function PaymentSection() {
  const form = useFormContext<CheckoutFormInput>();
  const chosen = useWatch({ control: form.control, name: "paymentMethod" });
  const error = form.formState.errors.paymentMethod?.message;
  return (
    <CheckoutSection step={4} title="Payment" description="You pay securely on the payment provider's page after placing the order.">
      <fieldset className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-describedby={error ? "checkout-paymentMethod-error" : undefined}>
        <legend className="sr-only">Payment method</legend>
        {checkoutPaymentMethods.map((method) => (
          <label
            key={method}
            className={cn(
              "flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2.5 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
              chosen === method ? "border-primary bg-accent/40 font-medium" : "hover:bg-accent/30",
            )}
          >
            <input type="radio" value={method} className="size-4 accent-primary" {...form.register("paymentMethod")} />
            {paymentMethodLabels[method]}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p id="checkout-paymentMethod-error" className="mt-2 text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </CheckoutSection>
  );
}
