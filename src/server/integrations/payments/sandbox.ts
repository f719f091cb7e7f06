import "server-only";
import { randomBytes } from "node:crypto";
import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { sandboxPayment, sandboxRefund } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { isOnlinePaymentMethod } from "@/lib/payment-methods";
import { createPaymentInput, externalPaymentId as externalPaymentIdSchema, paymentStatuses, refundPaymentInput, type PaymentsPort, type PaymentStatus, type ProviderPayment } from "./port";

/**
 * The embedded default's payment provider. It behaves as Mollie does towards the shop: a payment starts `open`,
 * the buyer is sent to a hosted page (ours, at `/sandbox/pay/{id}`) where they choose what happens, the provider
 * then calls the webhook URL with `id=<payment id>` as a form post and nothing else, and sends the buyer back to
 * the redirect URL. The webhook must fetch the status through `getPayment`, exactly as with Mollie.
 *
 * It stands in for PayPal as well: PayPal's approve-then-capture dance has no outcome a buyer could tell apart
 * here, so PayPal payments in the sandbox are simply paid on the page. Klarna's is kept: a Klarna payment can be
 * authorised on the page, and is paid only when the shop captures it, as with Mollie.
 */

/** What the buyer can choose on the hosted page; `authorized` only for the methods that authorise first. */
export const sandboxOutcomes = ["paid", "authorized", "failed", "canceled", "expired"] as const;
export type SandboxOutcome = (typeof sandboxOutcomes)[number];

/** The methods Mollie authorises first and pays out only on capture (Klarna's pay now and slice it). */
const authorisingMethods: readonly string[] = ["KLARNAPAYNOW", "KLARNASLICEIT"];

/** What the hosted page offers for a payment of this method. */
export function sandboxOutcomesFor(method: string): readonly SandboxOutcome[] {
  return authorisingMethods.includes(method) ? sandboxOutcomes : sandboxOutcomes.filter((outcome) => outcome !== "authorized");
}

export const sandboxPaymentPath = (id: string) => `/sandbox/pay/${encodeURIComponent(id)}`;

export function createSandboxPayments(options: { db: Db; baseUrl: string }): PaymentsPort {
  const { db } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  async function fetchPayment(id: string): Promise<ProviderPayment> {
    const row = await findPayment(db, externalPaymentIdSchema.parse(id));
    if (!row) throw new AppError("NOT_FOUND", `The sandbox has no payment ${id}`);
    return {
      externalPaymentId: row.id,
      status: row.status,
      amount: row.amount,
      method: isOnlinePaymentMethod(row.method) ? row.method : null,
      orderId: row.orderId,
    };
  }

  return {
    kind: "sandbox",
    provider: "sandbox",

    async createPayment(raw) {
      const input = createPaymentInput.parse(raw);
      await db
        .insert(sandboxPayment)
        .values({
          id: `sbx_${randomBytes(10).toString("hex")}`,
          orderId: input.orderId,
          amount: input.amount,
          description: input.description,
          method: input.method,
          redirectUrl: input.redirectUrl,
          webhookUrl: input.webhookUrl,
          idempotencyKey: input.idempotencyKey,
        })
        .onConflictDoNothing({ target: sandboxPayment.idempotencyKey });
      // The row just made, or the one an earlier request with the same key made.
      const [row] = await db.select().from(sandboxPayment).where(eq(sandboxPayment.idempotencyKey, input.idempotencyKey));
      if (!row) throw new AppError("INTERNAL_SERVER_ERROR", "The sandbox payment was not stored");
      return { externalPaymentId: row.id, checkoutUrl: `${baseUrl}${sandboxPaymentPath(row.id)}`, status: readStatus(row.status) };
    },

    getPayment: fetchPayment,

    // Mollie carries a capture out on its own time and then calls the webhook with the payment paid; the sandbox
    // does the same at once.
    async capturePayment(id) {
      const [captured] = await db
        .update(sandboxPayment)
        .set({ status: "paid" })
        .where(and(eq(sandboxPayment.id, externalPaymentIdSchema.parse(id)), eq(sandboxPayment.status, "authorized")))
        .returning();
      if (captured) await notifyWebhook(captured.webhookUrl, captured.id);
      return fetchPayment(id);
    },

    // Like Mollie, only a payment the buyer has not started can be cancelled; a pending one is left to finish.
    async cancelPayment(id) {
      await db
        .update(sandboxPayment)
        .set({ status: "canceled", completedAt: new Date() })
        .where(and(eq(sandboxPayment.id, externalPaymentIdSchema.parse(id)), eq(sandboxPayment.status, "open")));
      return fetchPayment(id);
    },

    async refundPayment(raw) {
      const input = refundPaymentInput.parse(raw);
      return db.transaction(async (tx) => {
        const [earlier] = await tx.select().from(sandboxRefund).where(eq(sandboxRefund.idempotencyKey, input.idempotencyKey));
        if (earlier) return { externalRefundId: earlier.id, status: "refunded" as const, amount: earlier.amount };

        // Locked so that two refunds at once cannot both fit in what is left.
        const [payment] = await tx.select().from(sandboxPayment).where(eq(sandboxPayment.id, input.externalPaymentId)).for("update");
        if (!payment) throw new AppError("NOT_FOUND", `The sandbox has no payment ${input.externalPaymentId}`);
        if (payment.status !== "paid") throw new AppError("CONFLICT", `Payment ${payment.id} is ${payment.status}; only a paid payment can be refunded`);
        const [refunded] = await tx
          .select({ total: sql<string>`coalesce(sum(${sandboxRefund.amount}), 0)` })
          .from(sandboxRefund)
          .where(eq(sandboxRefund.paymentId, payment.id));
        const remaining = payment.amount.minus(new Decimal(refunded?.total ?? 0));
        if (input.amount.greaterThan(remaining)) {
          throw new AppError("UNPROCESSABLE_CONTENT", `Only €${remaining.toFixed(2)} of payment ${payment.id} is left to refund`);
        }
        const [refund] = await tx
          .insert(sandboxRefund)
          .values({ id: `sbxre_${randomBytes(10).toString("hex")}`, paymentId: payment.id, amount: input.amount, description: input.description, idempotencyKey: input.idempotencyKey })
          .returning();
        return { externalRefundId: refund!.id, status: "refunded" as const, amount: refund!.amount };
      });
    },
  };
}

async function findPayment(db: Db, id: string) {
  const [row] = await db.select().from(sandboxPayment).where(eq(sandboxPayment.id, id));
  return row ? { ...row, status: readStatus(row.status) } : null;
}

function readStatus(status: string): PaymentStatus {
  return z.enum(paymentStatuses).parse(status);
}

/** What the hosted page shows: the payment, or null for an id the sandbox does not know. */
export async function getSandboxCheckout(db: Db, id: string) {
  const row = await findPayment(db, id);
  if (!row) return null;
  return { id: row.id, orderId: row.orderId, amount: row.amount, description: row.description, method: row.method, status: row.status, redirectUrl: row.redirectUrl };
}

/**
 * Records the buyer's choice on the hosted page and calls the shop's webhook as Mollie would. Only an open
 * payment can be decided: pressing a button again (a second tab, the back button) changes nothing and sends no
 * second callback. Returns where to send the buyer next.
 */
export async function completeSandboxPayment(db: Db, id: string, outcome: SandboxOutcome): Promise<{ redirectUrl: string; notified: boolean }> {
  const existing = await findPayment(db, id);
  if (!existing) throw new AppError("NOT_FOUND", `The sandbox has no payment ${id}`);
  if (!sandboxOutcomesFor(existing.method).includes(outcome)) {
    throw new AppError("BAD_REQUEST", `A ${existing.method} payment cannot be ${outcome}`);
  }
  const [decided] = await db
    .update(sandboxPayment)
    .set({ status: outcome, completedAt: new Date() })
    .where(and(eq(sandboxPayment.id, id), eq(sandboxPayment.status, "open")))
    .returning();
  if (!decided) return { redirectUrl: existing.redirectUrl, notified: false };
  return { redirectUrl: decided.redirectUrl, notified: await notifyWebhook(decided.webhookUrl, decided.id) };
}

/**
 * Mollie's classic webhook call: a form post whose body is only the payment id. Mollie retries failed calls for
 * hours; the sandbox tries three times within a few seconds, since the buyer is waiting on the page.
 */
export async function notifyWebhook(webhookUrl: string, paymentId: string): Promise<boolean> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const response = await fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ id: paymentId }).toString(),
        signal: AbortSignal.timeout(15_000),
      });
      if (response.ok) return true;
    } catch {
      // Unreachable or too slow: try again below.
    }
    if (attempt < 3) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
  return false;
}
