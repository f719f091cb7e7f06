"use client";

import { Package, Truck } from "lucide-react";
import { useFormContext, useWatch } from "react-hook-form";
import { Skeleton } from "@/components/ui/skeleton";
import { formatShippingDay, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { CheckoutFormInput } from "@/server/checkout/schemas";
import type { ShippingOptions } from "@/server/shipping/schemas";
import { CheckoutSection } from "./form-field";

const methodNotes = {
  UNTRACKED: "Registered letter post without tracking, for small parts of modest value.",
  TNT: "Tracked and insured to your door, with a tracking number by e-mail.",
} as const;

/**
 * The shipping methods for the chosen destination, each with its cost and expected delivery day; untracked post
 * is shown but cannot be chosen above the destination's limit, with the reason.
 */
export function ShippingSection({
  shipping,
  waitingFor,
  loading,
  error,
}: {
  shipping: ShippingOptions | null;
  /** What the buyer still has to choose before methods can be shown; null when the destination is complete. */
  waitingFor: string | null;
  loading: boolean;
  error: string | null;
}) {
  const form = useFormContext<CheckoutFormInput>();
  const chosen = useWatch({ control: form.control, name: "shippingMethod" });
  const fieldError = form.formState.errors.shippingMethod?.message;

  let body: React.ReactNode;
  if (waitingFor) body = <p className="text-sm text-muted-foreground">{waitingFor}</p>;
  else if (error) body = <p role="alert" className="text-sm text-destructive">{error}</p>;
  else if (loading || !shipping)
    body = (
      <div className="grid gap-3">
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
      </div>
    );
  else
    body = (
      <fieldset className="grid gap-3" aria-describedby={fieldError ? "checkout-shippingMethod-error" : undefined}>
        <legend className="sr-only">Shipping method</legend>
        {shipping.options.map((option) => {
          const Icon = option.method === "TNT" ? Truck : Package;
          return (
            <label
              key={option.method}
              data-testid={`shipping-${option.method}`}
              className={cn(
                "flex gap-3 rounded-lg border p-4 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                !option.available ? "cursor-not-allowed opacity-70" : chosen === option.method ? "cursor-pointer border-primary bg-accent/40" : "cursor-pointer hover:bg-accent/30",
              )}
            >
              <input type="radio" value={option.method} disabled={!option.available} className="mt-1 size-4 accent-primary" {...form.register("shippingMethod")} />
              <span className="flex flex-1 flex-col gap-1">
                <span className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="flex items-center gap-2 font-medium">
                    <Icon className="size-4 text-primary" aria-hidden />
                    {shippingMethodLabels[option.method]}
                  </span>
                  <span className="font-serif font-semibold tabular-nums">{formatEuro(option.cost)}</span>
                </span>
                <span className="text-muted-foreground">{methodNotes[option.method]}</span>
                {option.available ? (
                  <span>
                    {option.estimatedDeliveryDate
                      ? `Expected ${formatShippingDay(option.estimatedDeliveryDate, { short: true })}`
                      : `About ${option.etaDays} working days after dispatch`}
                    {option.surcharge.isZero() ? null : <span className="text-muted-foreground"> · includes {formatEuro(option.surcharge)} insurance surcharge</span>}
                  </span>
                ) : (
                  <span className="text-destructive">{option.unavailableReason}</span>
                )}
              </span>
            </label>
          );
        })}
        {shipping.estimatedShippingDate ? (
          <p className="text-xs text-muted-foreground">
            Paid orders leave our workshop on {formatShippingDay(shipping.estimatedShippingDate)} at the earliest.
          </p>
        ) : null}
      </fieldset>
    );

  return (
    <CheckoutSection step={3} title="Shipping method">
      {body}
      {fieldError ? (
        <p id="checkout-shippingMethod-error" className="mt-2 text-xs text-destructive">
          {fieldError}
        </p>
      ) : null}
    </CheckoutSection>
  );
}
