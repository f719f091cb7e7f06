"use server";

import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { BuyField, BuyFormState } from "@/features/sandbox/ebay/buy-form";
import { currentSession } from "@/server/auth/require-session";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { buySandboxListing, sandboxPurchaseInput } from "@/server/integrations/marketplace/sandbox-store";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";

const buyerFields: BuyField[] = ["fullName", "addressLine1", "postalCode", "city", "countryCode", "email"];

/**
 * "Buy it now" on a sandbox marketplace listing: the sale is made, the shop is notified as by eBay, and the buyer
 * goes to the order's confirmation. A refusal (sold out meanwhile, a field missing) comes back to the form.
 */
export async function buyListing(_state: BuyFormState, formData: FormData): Promise<BuyFormState> {
  // The page answers 404 to whoever may not use it; the action must not be reachable around it.
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  const values = Object.fromEntries(buyerFields.map((name) => [name, String(formData.get(name) ?? "")])) as Record<BuyField, string>;
  const parsed = sandboxPurchaseInput.safeParse({ listingId: formData.get("listingId"), quantity: formData.get("quantity"), buyer: values });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the form", values };

  let bought: { orderId: string; notified: boolean };
  try {
    bought = await buySandboxListing(getDb(), parsed.data, { shopUrl: shopUrl() });
  } catch (error) {
    if (error instanceof AppError) return { error: error.message, values };
    throw error;
  }
  redirect(`/sandbox/ebay/order/${bought.orderId}${bought.notified ? "" : "?notified=0"}`);
}
