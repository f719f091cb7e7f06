"use client";

import { Loader2, Save } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import type { OutOfStockAction } from "@/lib/enums";
import { channelSettingsInput, MARKUP_PERCENT_RANGE, type ChannelSettings } from "@/server/marketplace/schemas";
import { useChannelSettings, useSaveChannelSettings } from "./queries";

const outOfStockChoices: { value: OutOfStockAction; label: string; hint: string }[] = [
  { value: "KEEP", label: "Keep it at 0", hint: "The listing stays, out of stock and hidden from search, and sells again when stock returns." },
  { value: "END", label: "End the listing", hint: "The listing ends when stock reaches 0 and is relisted, under a new listing number, when stock returns." },
];

/** /admin/ebay's listing rules: the markup on list prices for eBay, and what a listing does when stock reaches 0. */
export function ListingSettings() {
  const settings = useChannelSettings();
  return (
    <AdminCard aria-label="Listing rules">
      <AdminCardHeader title="Listing rules" description="How eBay's prices follow the shop's, and what a listing does when the last piece is sold." />
      {settings.data ? (
        <SettingsForm key={`${settings.data.markupPercent.toString()}:${settings.data.outOfStock}`} saved={settings.data} />
      ) : (
        <div className="m-4 h-32 animate-pulse rounded-md bg-muted/40" aria-busy="true" />
      )}
    </AdminCard>
  );
}

/** The form, started from the settings as saved (a new save remounts it with them). */
function SettingsForm({ saved }: { saved: ChannelSettings }) {
  const save = useSaveChannelSettings();
  const [markup, setMarkup] = useState(saved.markupPercent.toString());
  const [outOfStock, setOutOfStock] = useState<OutOfStockAction>(saved.outOfStock);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = channelSettingsInput.safeParse({ markupPercent: markup, outOfStock });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Check the markup.");
      return;
    }
    setError(null);
    save.mutate(parsed.data, { onSuccess: (result) => toast.success("eBay settings saved", result.message ? { description: result.message } : undefined) });
  };

  return (
    <form className="space-y-3 px-4 py-3 text-sm" onSubmit={submit} noValidate aria-label="Listing rules">
      <label className="block" htmlFor="ebay-markup">
        <span className="font-medium">Markup on the shop price</span>
        <span className="mt-1 flex items-center gap-2">
          <AdminInput
            id="ebay-markup"
            inputMode="decimal"
            className="w-24 text-right tabular-nums"
            value={markup}
            onChange={(event) => setMarkup(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby="ebay-markup-hint"
          />
          <span>%</span>
        </span>
        <span id="ebay-markup-hint" className="mt-1 block text-xs text-muted-foreground">
          From {MARKUP_PERCENT_RANGE.min} to {MARKUP_PERCENT_RANGE.max} %, on the list price before any web-shop discount. A fixed eBay price on a product overrides it.
        </span>
        {error ? <span className="mt-1 block text-xs text-destructive">{error}</span> : null}
      </label>
      <fieldset>
        <legend className="font-medium">When stock reaches 0</legend>
        {outOfStockChoices.map((choice) => (
          <label key={choice.value} className="mt-1.5 flex items-start gap-2">
            <input type="radio" name="outOfStock" className="mt-1 size-4 accent-[var(--primary)]" checked={outOfStock === choice.value} onChange={() => setOutOfStock(choice.value)} />
            <span>
              {choice.label}
              <span className="block text-xs text-muted-foreground">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Button type="submit" size="sm" disabled={save.isPending}>
        {save.isPending ? <Loader2 className="animate-spin" /> : <Save />} Save listing rules
      </Button>
    </form>
  );
}
