"use client";

import { Decimal } from "decimal.js";
import type { UseFormRegisterReturn } from "react-hook-form";
import { formatEuro } from "@/lib/money";
import { productEuroRange } from "@/server/catalog/admin-schemas";
import { channelPrice, channelPriceBasis } from "@/server/marketplace/schemas";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { NumberInput } from "../kit/forms/number-input";
import { useChannelSettings } from "../marketplace/queries";

/** A typed amount as a Decimal, or null while it is not one. */
function amount(text: string): Decimal | null {
  const value = text.trim().replace(",", ".");
  return /^\d+(\.\d{1,2})?$/.test(value) ? new Decimal(value) : null;
}

/**
 * The product's eBay price beside its shop price: empty, eBay gets the shop price with the shop's markup, shown as
 * the field's placeholder and hint as the marketplace's rule computes it; filled, that fixed price.
 */
export function EbayPriceField({ registration, price, ebayPrice, error }: { registration: UseFormRegisterReturn; price: string; ebayPrice: string; error?: string }) {
  const settings = useChannelSettings();
  const listPrice = amount(price);
  const markup = settings.data?.markupPercent;
  const withMarkup = listPrice && markup ? channelPrice({ price: listPrice, ebayPrice: null }, markup) : null;
  const fixed = amount(ebayPrice);
  const hint = fixed
    ? "Fixed for eBay; empty it to follow the shop price"
    : withMarkup && markup
      ? `Empty: ${formatEuro(withMarkup)}, the shop price ${channelPriceBasis({ ebayPrice: null }, markup)}`
      : "Empty: the shop price with the eBay markup";
  return (
    <FormField label="eBay price (€)" htmlFor="field-ebayPrice" hint={hint} error={error}>
      <NumberInput {...fieldProps("ebayPrice", error)} {...registration} {...productEuroRange} placeholder={withMarkup ? withMarkup.toFixed(2) : "—"} />
    </FormField>
  );
}
