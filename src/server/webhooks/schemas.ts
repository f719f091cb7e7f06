import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import type { OnlinePaymentMethod } from "@/lib/payment-methods";
import type { PaymentStatus, SettledPaymentStatus } from "@/server/integrations/payments/port";

/**
 * Mollie's classic webhook body (and the sandbox's): a form with the payment id and nothing else. Any other field
 * is ignored, so a body that claims a status has no say; the status is always fetched from the provider.
 */
export const mollieWebhookBody = z.object({
  id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "must be a payment id"),
});

/** A settled payment status, fetched from the provider, for the orders domain to act on. */
export type PaymentUpdate = {
  provider: string;
  externalPaymentId: string;
  status: SettledPaymentStatus;
  amount: Decimal;
  method: OnlinePaymentMethod | null;
  /** Our order id from the payment's metadata. */
  orderId: number | null;
};

/**
 * What the caller does with a payment update, inside the transaction that records it: if it throws, the record is
 * rolled back too and the provider's retry gets another chance. For an authorized payment it answers "capture" when
 * the money is to be taken (its order is waiting for exactly this payment); anything else leaves the payment
 * uncaptured.
 */
export type OnPaymentUpdate = (tx: Db, update: PaymentUpdate) => Promise<PaymentFollowUp | void>;

export type PaymentFollowUp = "capture";

export type WebhookOutcome =
  /** A new settled status, handed to the callback. */
  | { result: "processed"; externalPaymentId: string; status: SettledPaymentStatus }
  /** A status already acted on (a replay, or a second event about the same change): nothing happened. */
  | { result: "duplicate"; externalPaymentId: string; status: SettledPaymentStatus }
  /** The money is reserved and its capture asked for; the order waits for the provider to report it paid. */
  | { result: "capturing"; externalPaymentId: string; status: "authorized" }
  /** The buyer is not done yet (open, pending): nothing to act on. */
  | { result: "not-settled"; externalPaymentId: string; status: PaymentStatus }
  /** The provider does not know the payment, or the event is about something other than a payment. */
  | { result: "ignored"; externalPaymentId: string | null };
