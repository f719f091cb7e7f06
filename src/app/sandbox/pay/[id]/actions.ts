"use server";

import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { currentSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";
import { completeSandboxPayment, sandboxOutcomes } from "@/server/integrations/payments/sandbox";
import { logger } from "@/server/logger";

const choice = z.object({ id: z.string().regex(/^sbx_[a-f0-9]+$/), outcome: z.enum(sandboxOutcomes) });

/**
 * The buyer's button on the sandbox's hosted-payment page: record the outcome, call the shop's webhook as Mollie
 * would, and send the buyer back to the shop.
 */
export async function choosePaymentOutcome(formData: FormData): Promise<never> {
  // The page answers 404 to whoever may not use it; the action must not be reachable around it.
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  const { id, outcome } = choice.parse({ id: formData.get("id"), outcome: formData.get("outcome") });
  const { redirectUrl, notified } = await completeSandboxPayment(getDb(), id, outcome);
  if (!notified) logger.info({ paymentId: id, outcome }, "sandbox payment: no webhook sent (already decided) or the webhook did not answer");
  redirect(redirectUrl);
}
