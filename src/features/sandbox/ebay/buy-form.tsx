"use client";

import { AlertCircle } from "lucide-react";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** What the form shows after a refused purchase: why, and what the buyer had typed. */
export type BuyFormState = { error: string | null; values: Partial<Record<BuyField, string>> };
export type BuyField = (typeof fields)[number]["name"];

const fields = [
  { name: "fullName", label: "Name", autoComplete: "name", type: "text" },
  { name: "addressLine1", label: "Street and house number", autoComplete: "address-line1", type: "text" },
  { name: "postalCode", label: "Postal code", autoComplete: "postal-code", type: "text" },
  { name: "city", label: "City", autoComplete: "address-level2", type: "text" },
  { name: "countryCode", label: "Country (2 letters)", autoComplete: "country", type: "text" },
  { name: "email", label: "E-mail", autoComplete: "email", type: "email" },
] as const;

/** The "Buy it now" form of a listing: where to send it, how many, and one button that pays at once. */
export function BuyForm({ listingId, available, action }: { listingId: string; available: number; action: (state: BuyFormState, formData: FormData) => Promise<BuyFormState> }) {
  const [state, submit, pending] = useActionState(action, { error: null, values: {} });
  return (
    <form action={submit} className="space-y-4" aria-labelledby="buy-heading" data-testid="sandbox-buy-form">
      <h2 id="buy-heading" className="font-medium">
        Buy it now
      </h2>
      <input type="hidden" name="listingId" value={listingId} />
      {state.error ? (
        <p role="alert" className="flex gap-2 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive" data-testid="sandbox-buy-error">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{state.error}</span>
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {fields.map((field) => (
          <div key={field.name} className={field.name === "fullName" || field.name === "addressLine1" ? "space-y-1.5 sm:col-span-2" : "space-y-1.5"}>
            <Label htmlFor={`buy-${field.name}`}>{field.label}</Label>
            <Input
              id={`buy-${field.name}`}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              required
              defaultValue={state.values[field.name] ?? (field.name === "countryCode" ? "NL" : "")}
              maxLength={field.name === "countryCode" ? 2 : 100}
            />
          </div>
        ))}
      </div>
      <div className="flex items-end gap-3">
        <div className="w-24 space-y-1.5">
          <Label htmlFor="buy-quantity">Quantity</Label>
          <Input id="buy-quantity" name="quantity" type="number" inputMode="numeric" min={1} max={available} defaultValue={1} required />
        </div>
        <Button type="submit" size="lg" className="flex-1 rounded-full" disabled={pending}>
          {pending ? "Buying…" : "Buy it now"}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">Paid at once, as a test. The seller hears of the order as from eBay.</p>
    </form>
  );
}
