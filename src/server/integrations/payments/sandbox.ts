import "server-only";
import { randomBytes } from "node:crypto";
import { Decimal } from "decimal.js";
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { sandboxPayment, sandboxRefund } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { isOnlinePaymentMethod } from "@/lib/payment-methods";
import { sandboxProbeAnswer } from "../port-status";
import {
  createPaymentInput,
  externalPaymentId as externalPaymentIdSchema,
  PaymentProviderError,
  paymentStatuses,
  refundPaymentInput,
  type PaymentsPort,
  type PaymentStatus,
  type ProviderPayment,
  type ProviderRefund,
} from "./port";

/**
 * The embedded default's payment provider. It behaves as Mollie does towards the shop: a payment starts `open`,
 * the buyer is sent to a hosted page (ours, at `/sandbox/pay/{id}`) where they choose what happens, the provider
 * then calls the webhook URL with `id=<payment id>` as a form post and nothing else, and sends the buyer back to
 * the redirect URL. The webhook must fetch the status through `getPayment`, exactly as with Mollie.
 *
 * It stands in for PayPal as well: PayPal's approve-then-capture dance has no outcome a buyer could tell apart
 * here, so PayPal payments in the sandbox are simply paid on the page. Klarna's is kept: a Klarna payment can be
 * authorised on the page, and is paid only when the shop captures it, as with Mollie.
 *
 * Refunds behave as Mollie's do towards the shop, except that the sandbox pays them out at once (`refunded`): a
 * repeat with the same idempotency key returns the refund the first request made, and a refund of more than is
 * left of the payment, or of a payment that is not paid, is refused with a 422 in Mollie's words. The hosted page
 * lists a payment's refunds as a provider's dashboard would.
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
    probe: async () => sandboxProbeAnswer,

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
        // The payment is locked before anything is read, so that refunds of it at the same time (two staff members,
        // or one request repeated while the first is still running) are taken one after the other: the second sees
        // the first's refund, and together they can never pay back more than was paid.
        const [payment] = await tx.select().from(sandboxPayment).where(eq(sandboxPayment.id, input.externalPaymentId)).for("update");
        if (!payment) throw refused(404, "Not Found", `No payment exists with token ${input.externalPaymentId}.`);

        const [earlier] = await tx.select().from(sandboxRefund).where(eq(sandboxRefund.idempotencyKey, input.idempotencyKey));
        if (earlier) {
          // A key stands for one refund: the same key for another payment or amount is a mistake, not a retry.
          if (earlier.paymentId !== payment.id || !earlier.amount.equals(input.amount)) {
            throw refused(422, "Unprocessable Entity", `The idempotency key ${input.idempotencyKey} was already used for another refund`);
          }
          return reshapeRefund(earlier);
        }

        if (payment.status !== "paid") throw refused(422, "Unprocessable Entity", `The payment is ${payment.status}; only a paid payment can be refunded`);
        const remaining = payment.amount.minus(await refundedOf(tx, payment.id));
        if (input.amount.greaterThan(remaining)) {
          throw refused(422, "Unprocessable Entity", `The refund amount is higher than the amount remaining (€${remaining.toFixed(2)} of payment ${payment.id})`, "amount");
        }
        const [refund] = await tx
          .insert(sandboxRefund)
          .values({ id: `sbxre_${randomBytes(10).toString("hex")}`, paymentId: payment.id, amount: input.amount, description: input.description, idempotencyKey: input.idempotencyKey })
          .returning();
        return reshapeRefund(refund!);
      });
    },

    async getRefund(paymentId, refundId) {
      const [refund] = await db
        .select()
        .from(sandboxRefund)
        .where(and(eq(sandboxRefund.id, externalPaymentIdSchema.parse(refundId)), eq(sandboxRefund.paymentId, externalPaymentIdSchema.parse(paymentId))));
      if (!refund) throw refused(404, "Not Found", `No refund exists with token ${refundId} on payment ${paymentId}.`);
      return reshapeRefund(refund);
    },
  };
}

/** The sandbox pays a refund out the moment it is made, and charges no fees. */
function reshapeRefund(refund: typeof sandboxRefund.$inferSelect): ProviderRefund {
  return { externalRefundId: refund.id, status: "refunded", amount: refund.amount, providerFees: null, failureReason: null };
}

/** A refusal worded and numbered as Mollie's (see mollie.ts), so the shop meets the same errors as in live. */
function refused(status: number, title: string, detail: string, field?: string): PaymentProviderError {
  return new PaymentProviderError("Sandbox", status, `Sandbox refused the request: ${title}: ${detail}${field ? ` (field ${field})` : ""}`);
}

/** What has been paid back of a payment so far. */
async function refundedOf(db: Pick<Db, "select">, paymentId: string): Promise<Decimal> {
  const [refunded] = await db
    .select({ total: sql<string>`coalesce(sum(${sandboxRefund.amount}), 0)` })
    .from(sandboxRefund)
    .where(eq(sandboxRefund.paymentId, paymentId));
  return new Decimal(refunded?.total ?? 0);
}

async function findPayment(db: Db, id: string) {
  const [row] = await db.select().from(sandboxPayment).where(eq(sandboxPayment.id, id));
  return row ? { ...row, status: readStatus(row.status) } : null;
}

function readStatus(status: string): PaymentStatus {
  return z.enum(paymentStatuses).parse(status);
}

/**
 * What the hosted page shows: the payment with its refunds (oldest first) and what is left of it, or null for an
 * id the sandbox does not know.
 */
export async function getSandboxCheckout(db: Db, id: string) {
  const row = await findPayment(db, id);
  if (!row) return null;
  const refunds = await db
    .select({ id: sandboxRefund.id, amount: sandboxRefund.amount, createdAt: sandboxRefund.createdAt })
    .from(sandboxRefund)
    .where(eq(sandboxRefund.paymentId, row.id))
    .orderBy(asc(sandboxRefund.createdAt), asc(sandboxRefund.id));
  const refunded = refunds.reduce((sum, refund) => sum.plus(refund.amount), new Decimal(0));
  return {
    id: row.id,
    orderId: row.orderId,
    amount: row.amount,
    description: row.description,
    method: row.method,
    status: row.status,
    redirectUrl: row.redirectUrl,
    refunds,
    /** What can still be refunded: the amount less every refund. */
    remaining: row.amount.minus(refunded),
  };
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
