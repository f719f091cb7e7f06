import { Decimal } from "decimal.js";
import { z } from "zod";
import { amountInput } from "@/lib/amount-input";
import { checkoutPaymentMethods, type OnlinePaymentMethod } from "@/lib/payment-methods";
import { AppError, type AppErrorCode } from "@/server/errors";
import type { Probe } from "../port-status";


/**
 * Taking money for an order through a payment provider: Mollie for cards, wallets and bank methods, PayPal for
 * PayPal, and a local sandbox standing in for both. Adapters convert the providers' own shapes at the edge, so the
 * rest of the shop only sees the types below. Money is always a Decimal here and travels to providers as a string
 * with two decimals; every amount is in euro.
 */

/**
 * A payment's state in our vocabulary, which is Mollie's: `open` (created, buyer not done), `pending` (started,
 * outcome unknown), `authorized` (money reserved, still to be captured), `paid`, and the final failures
 * `failed`, `canceled`, `expired`. PayPal's order and capture states are mapped onto these.
 */
export const paymentStatuses = ["open", "pending", "authorized", "paid", "failed", "canceled", "expired"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** The states that need no further word from the provider to act on: the buyer is done, one way or the other. */
export const settledPaymentStatuses = ["authorized", "paid", "failed", "canceled", "expired"] as const satisfies readonly PaymentStatus[];
export type SettledPaymentStatus = (typeof settledPaymentStatuses)[number];

export function isSettled(status: PaymentStatus): status is SettledPaymentStatus {
  return (settledPaymentStatuses as readonly string[]).includes(status);
}

const day = 24 * 60 * 60_000;

/**
 * How long a provider keeps an unfinished payment of these methods open for the buyer, where that is far longer than
 * the shop's own hold on an unpaid order's pieces. Mollie gives a bank transfer 12 business days plus 2 days for the
 * money to arrive before it expires the payment; 21 calendar days covers that across weekends and holidays. Every
 * other method is finished or abandoned within minutes, PayPal's within hours.
 */
const longPaymentLifetimes: Partial<Record<OnlinePaymentMethod, number>> = { BANKTRANSFER: 21 * day };

/**
 * Until when the buyer can still finish a payment of this method started at `startedAt`, when the provider waits for
 * them longer than the shop's own hold; null for the other methods. An unpaid order is not expired before this, since
 * its money may still be on its way.
 */
export function paymentOpenUntil(method: OnlinePaymentMethod, startedAt: Date): Date | null {
  const lifetime = longPaymentLifetimes[method];
  return lifetime === undefined ? null : new Date(startedAt.getTime() + lifetime);
}

/** Who handles a payment: PayPal for PAYPAL, Mollie for every other method. */
export type PaymentGateway = "mollie" | "paypal";

export function gatewayForMethod(method: OnlinePaymentMethod): PaymentGateway {
  return method === "PAYPAL" ? "paypal" : "mollie";
}

/** A euro amount: a Decimal, or a string or number that reads as one, more than zero and with at most two decimals. */
export const euroAmount = amountInput
  .refine((value) => value.greaterThan(0), "must be more than zero")
  .refine((value) => value.decimalPlaces() <= 2, "must have at most two decimals");

export const createPaymentInput = z.object({
  /** Our order's id; sent as metadata so a payment can always be traced back to its order. */
  orderId: z.number().int().positive(),
  amount: euroAmount,
  /** Shown to the buyer on the provider's page and on their statement; Mollie allows 255 characters. */
  description: z.string().trim().min(1).max(255),
  method: z.enum(checkoutPaymentMethods),
  /** Where the buyer lands after paying (or giving up). */
  redirectUrl: z.url({ protocol: /^https?$/ }),
  /** Where PayPal sends a buyer who cancels; the redirect URL when not given. */
  cancelUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Where the provider reports status changes (Mollie and the sandbox; PayPal's webhook is set in its dashboard). */
  webhookUrl: z.url({ protocol: /^https?$/ }),
  /** The same key makes a retried request return the payment the first one created instead of a second one. */
  idempotencyKey: z.string().min(1).max(255),
  /** The buyer's language for the provider's pages, as `en_US`, `nl_NL`. */
  locale: z.string().regex(/^[a-z]{2}_[A-Z]{2}$/).optional(),
});
export type CreatePaymentInput = z.input<typeof createPaymentInput>;
/** A payment to create, as checked by `createPaymentInput`: what an adapter turns into its provider's request. */
export type PaymentRequest = z.output<typeof createPaymentInput>;

export const refundPaymentInput = z.object({
  externalPaymentId: z.string().min(1),
  amount: euroAmount,
  /** Shown to the buyer where the provider supports it. */
  description: z.string().trim().min(1).max(255).optional(),
  /** One key per refund we mean to make: a retry with the same key never refunds twice. */
  idempotencyKey: z.string().min(1).max(255),
});
export type RefundPaymentInput = z.input<typeof refundPaymentInput>;

export const externalPaymentId = z.string().min(1).max(255);

export type CreatedPayment = {
  externalPaymentId: string;
  /** Send the buyer here to pay. */
  checkoutUrl: string;
  status: PaymentStatus;
};

/** A payment as the provider knows it now. */
export type ProviderPayment = {
  externalPaymentId: string;
  status: PaymentStatus;
  amount: Decimal;
  /** The method the buyer used, when the provider says and it is one we know. */
  method: OnlinePaymentMethod | null;
  /** Our order id from the payment's metadata; null for a payment we did not create. */
  orderId: number | null;
};

/**
 * A refund's state in our vocabulary: `pending` until the money has gone back (Mollie's queued, pending and
 * processing; PayPal's PENDING), `refunded` once it has, and the final `failed` and `canceled` (nothing was paid).
 */
export type RefundStatus = "pending" | "refunded" | "failed" | "canceled";

/** A refund as the provider knows it now. */
export type ProviderRefund = {
  externalRefundId: string;
  status: RefundStatus;
  amount: Decimal;
  /**
   * The fees the provider gave back (or kept) on this refund, where it says so per refund: PayPal's
   * `seller_payable_breakdown.paypal_fee`. Null where the provider does not report it per refund (Mollie, the
   * sandbox).
   */
  providerFees: Decimal | null;
  /** Why the refund failed, in the provider's words, where it gives a reason (PayPal's `status_details.reason`). */
  failureReason: string | null;
};

export interface PaymentsPort {
  readonly kind: "live" | "sandbox";
  /** The provider's name, for logs and for recording webhook events. */
  readonly provider: "mollie" | "paypal" | "sandbox";
  /** The owner's Test connection: one harmless authenticated call (Mollie: the enabled methods; PayPal: a token). */
  probe: Probe;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** The payment's real state, fetched from the provider; throws NOT_FOUND for an id the provider does not know. */
  getPayment(externalPaymentId: string): Promise<ProviderPayment>;
  /**
   * Takes the money of an authorized (PayPal: approved) payment; a payment already paid is returned as it is. The
   * answer may still be `authorized` while the provider carries the capture out (Mollie); it reports `paid` later.
   */
  capturePayment(externalPaymentId: string): Promise<ProviderPayment>;
  /**
   * Withdraws a payment the buyer has not finished, so that it can no longer be paid, and returns it as it is
   * afterwards: `canceled` when that worked, or still `open` or `pending` when the provider would not cancel it
   * (Mollie cancels most methods only while open). A payment that has moved on (paid, authorized, failed...) is
   * returned as it is and left alone.
   */
  cancelPayment(externalPaymentId: string): Promise<ProviderPayment>;
  /**
   * Pays part or all of a paid payment back. A request repeated with the same idempotency key returns the refund
   * the first one made instead of making a second. When it throws, `isRefundOutcomeUnknown(error)` says whether the
   * refund may still have been made (repeat it later with the same key) or was plainly refused (nothing was paid).
   */
  refundPayment(input: RefundPaymentInput): Promise<ProviderRefund>;
  /**
   * A refund's real state, fetched from the provider, to follow it until it is settled (refunded, failed or
   * canceled); throws NOT_FOUND for a refund the provider does not know (Mollie and the sandbox: on that payment;
   * PayPal knows a refund by its own id alone).
   */
  getRefund(externalPaymentId: string, externalRefundId: string): Promise<ProviderRefund>;
}

/**
 * `createPayment` of a live adapter around its provider's call (`start`): the input is checked before the provider
 * is asked, and a payment the provider made without a page for the buyer to pay on is refused, since nobody could
 * ever pay it.
 */
export function createPaymentWith(
  provider: string,
  start: (request: PaymentRequest) => Promise<{ externalPaymentId: string; checkoutUrl: string | undefined; status: PaymentStatus }>,
): PaymentsPort["createPayment"] {
  return async (input) => {
    const started = await start(createPaymentInput.parse(input));
    if (!started.checkoutUrl) throw new PaymentProviderError(provider, null, `${provider} created payment ${started.externalPaymentId} without a page for the buyer to pay on`);
    return { ...started, checkoutUrl: started.checkoutUrl };
  };
}

/**
 * A provider refused a request or could not be reached. The message says which provider and what it said, so a
 * log line or an admin toast is enough to act on; `providerStatus` and `debugId` are for support tickets.
 */
export class PaymentProviderError extends AppError {
  constructor(
    readonly provider: string,
    /**
     * The HTTP status of the provider's refusal; null when there was no answer to read: the provider could not be
     * reached, did not answer in time, hung up, or answered with something we could not read.
     */
    readonly providerStatus: number | null,
    message: string,
    readonly debugId?: string,
    options?: { cause?: unknown },
  ) {
    super(codeForStatus(providerStatus), message, options);
    this.name = "PaymentProviderError";
  }
}

function codeForStatus(status: number | null): AppErrorCode {
  if (status === 404) return "NOT_FOUND";
  if (status === 400 || status === 422) return "UNPROCESSABLE_CONTENT";
  if (status === 429) return "TOO_MANY_REQUESTS";
  // 401 and 403 mean our credentials are wrong and 5xx or no answer that the provider is down: neither is the
  // buyer's doing.
  return "INTERNAL_SERVER_ERROR";
}

/**
 * Whether a failed refund request may still have been carried out, so the caller must repeat the SAME request with
 * the SAME idempotency key later (the provider then answers with the refund it made, or makes it now) and must not
 * record the refund as failed meanwhile. True when the request got no clear answer: no answer at all (unreachable,
 * timed out, connection lost, an answer we could not read), a 5xx (the provider broke down, possibly after making
 * the refund), 408 (the request timed out on the way), 429 (too many requests: asked again later it goes through),
 * and 409 (the answer to a request whose idempotency key is still being worked on: PayPal "might fail the second" of
 * two requests with one PayPal-Request-Id at once). Any other error we cannot place is treated the same
 * way, since it cannot be ruled out that the request went out.
 *
 * False when the refund plainly did not happen, so it failed and nothing was paid: the provider refused it with a
 * 4xx (more than is left, a payment not paid, an unknown payment, bad credentials), or the adapter or its input
 * check refused it before anything was sent (an AppError of our own, a ZodError).
 */
export function isRefundOutcomeUnknown(error: unknown): boolean {
  if (error instanceof PaymentProviderError) {
    const status = error.providerStatus;
    return status === null || status >= 500 || status < 400 || [408, 409, 429].includes(status);
  }
  if (error instanceof AppError || error instanceof z.ZodError) return false;
  return true;
}

/** An amount as providers want it: a string with exactly two decimals. */
export function toProviderAmount(amount: Decimal): string {
  return amount.toFixed(2, Decimal.ROUND_HALF_UP);
}

/** Reads a provider's amount, refusing anything but euro: the shop charges nothing else. */
export function fromProviderAmount(provider: string, value: string, currency: string): Decimal {
  if (currency !== "EUR") throw new PaymentProviderError(provider, null, `${provider} reported an amount in ${currency}; the shop only takes euro`);
  return new Decimal(value);
}

/** Our order id as written into a payment's metadata, or null when it is missing or not ours. */
export function orderIdFromMetadata(value: unknown): number | null {
  const id = typeof value === "string" ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : null;
}
