"use server";

import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { currentSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { openSandboxReturn, requestSandboxCancellation, sandboxCancellationInput, sandboxReturnInput } from "@/server/integrations/marketplace/sandbox-requests";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";

/**
 * The buyer's "Return this item" and "Cancel this order" on a sandbox marketplace order: the request is made as on
 * eBay (the shop finds it on its next poll of eBay's requests), and the buyer comes back to the order page, told
 * what happened or why the marketplace refused it.
 */
async function askAndReturn(orderId: string, ask: () => Promise<unknown>, done: string): Promise<never> {
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  let message = done;
  try {
    await ask();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    message = `refused:${error.message}`;
  }
  redirect(`/sandbox/ebay/order/${encodeURIComponent(orderId)}?request=${encodeURIComponent(message)}#requests`);
}

export async function askReturn(formData: FormData): Promise<void> {
  const orderId = String(formData.get("orderId") ?? "");
  const parsed = sandboxReturnInput.safeParse({
    orderId,
    lineItemId: formData.get("lineItemId"),
    quantity: formData.get("quantity"),
    reason: formData.get("reason"),
    comment: formData.get("comment") || undefined,
  });
  await askAndReturn(orderId, async () => {
    if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues[0]?.message ?? "Check the form");
    await openSandboxReturn(getDb(), parsed.data);
  }, "return");
}

export async function askCancellation(formData: FormData): Promise<void> {
  const orderId = String(formData.get("orderId") ?? "");
  const parsed = sandboxCancellationInput.safeParse({ orderId, reason: formData.get("reason") });
  await askAndReturn(orderId, async () => {
    if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues[0]?.message ?? "Check the form");
    await requestSandboxCancellation(getDb(), parsed.data);
  }, "cancellation");
}
