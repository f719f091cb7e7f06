import { z } from "zod";
import { type OnlinePaymentMethod } from "@/lib/payment-methods";
import type { PaymentRequest, PaymentsPort, PaymentStatus, ProviderPayment, ProviderRefund, RefundStatus } from "./port";
import { createPaymentWith, externalPaymentId as externalPaymentIdSchema, fromProviderAmount, orderIdFromMetadata, PaymentProviderError, paymentStatuses, refundPaymentInput, toProviderAmount } from "./port";
import { answerOf, bodyOf, errorDocumentOf, jsonOf, jsonRequest, sendToProvider } from "./provider-http";

/**
 * The live Mollie adapter, on Mollie's documented Payments API v2 (PROVIDERS.md section 1).
 *
 * Why REST and not the official `@mollie/api-client`: the SDK accepts another API address, but sends every request
 * through an HTTPS agent pinned to its own bundle of certificate authorities, so it cannot talk to the plain-HTTP
 * stand-in our tests run on 127.0.0.1 ("Protocol http: not supported"), and no option turns that off. A handful of
 * endpoints of a stable, documented API are a small price for adapters that are tested against real HTTP.
 *
 * A `test_` key gives Mollie's test mode and a `live_` key real payments; the address is the same.
 */

const defaultBaseUrl = "https://api.mollie.com/v2";

/** Mollie's method ids for our payment method names. */
const mollieMethodIds: Record<OnlinePaymentMethod, string> = {
  APPLEPAY: "applepay",
  BANCONTACT: "bancontact",
  BANKTRANSFER: "banktransfer",
  BELFIUS: "belfius",
  CREDITCARD: "creditcard",
  DIRECTDEBIT: "directdebit",
  EPS: "eps",
  GIFTCARD: "giftcard",
  GIROPAY: "giropay",
  IDEAL: "ideal",
  KBC: "kbc",
  KLARNAPAYNOW: "klarnapaynow",
  KLARNASLICEIT: "klarnasliceit",
  MYBANK: "mybank",
  PAYPAL: "paypal",
  PAYSAFECARD: "paysafecard",
  SOFORT: "sofort",
};

const methodsByMollieId = new Map(Object.entries(mollieMethodIds).map(([ours, theirs]) => [theirs, ours as OnlinePaymentMethod]));

const amount = z.object({ currency: z.string(), value: z.string() });

const paymentResponse = z.object({
  id: z.string(),
  status: z.string(),
  amount,
  method: z.string().nullish(),
  metadata: z.unknown().optional(),
  isCancelable: z.boolean().optional(),
  _links: z.object({ checkout: z.object({ href: z.string() }).optional() }).optional(),
});
type MolliePayment = z.infer<typeof paymentResponse>;

const refundResponse = z.object({ id: z.string(), status: z.string(), amount });
type MollieRefund = z.infer<typeof refundResponse>;
// A queued refund waits for balance and a processing one is on its way: both are still pending for the shop, as
// is any status Mollie adds later.
const refundStatuses = new Map<string, RefundStatus>([
  ["refunded", "refunded"],
  ["failed", "failed"],
  ["canceled", "canceled"],
]);

const methodsResponse = z.object({ count: z.number() });

const errorResponse = z.object({
  status: z.number().optional(),
  title: z.string().optional(),
  detail: z.string().optional(),
  field: z.string().optional(),
});

export function createMolliePayments(options: { apiKey: string; baseUrl?: string }): PaymentsPort {
  const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "");

  /** One request to Mollie; the answer's body, or a PaymentProviderError with Mollie's words for a refusal. */
  async function call(method: "GET" | "POST" | "DELETE", path: string, init: { body?: unknown; idempotencyKey?: string } = {}): Promise<string> {
    const headers = {
      authorization: `Bearer ${options.apiKey}`,
      accept: "application/hal+json",
      // Mollie replays its stored answer for a key it has seen, so a retried create never makes a second payment.
      ...(init.idempotencyKey ? { "idempotency-key": init.idempotencyKey } : {}),
    };
    const response = await sendToProvider("Mollie", `${baseUrl}${path}`, jsonRequest(method, headers, init.body));
    // A refusal cut off while it was read is still a refusal: its status says enough.
    if (!response.ok) throw errorFrom(response, await response.text().catch(() => ""));
    return bodyOf("Mollie", response);
  }

  async function api(method: "GET" | "POST" | "DELETE", path: string, init: { body?: unknown; idempotencyKey?: string } = {}): Promise<unknown> {
    return jsonOf(await call(method, path, init));
  }

  async function fetchPayment(id: string): Promise<ProviderPayment> {
    const paymentId = externalPaymentIdSchema.parse(id);
    return reshapePayment(paymentResponse.parse(await api("GET", `/payments/${encodeURIComponent(paymentId)}`)));
  }

  /** `POST /payments`: the payment, with the checkout page the buyer pays on. */
  async function startPayment(request: PaymentRequest) {
    const payment = paymentResponse.parse(
      await api("POST", "/payments", {
        idempotencyKey: request.idempotencyKey,
        body: {
          amount: { currency: "EUR", value: toProviderAmount(request.amount) },
          description: request.description,
          redirectUrl: request.redirectUrl,
          ...(request.cancelUrl ? { cancelUrl: request.cancelUrl } : {}),
          webhookUrl: request.webhookUrl,
          method: mollieMethodIds[request.method],
          metadata: { orderId: request.orderId },
          ...(request.locale ? { locale: request.locale } : {}),
        },
      }),
    );
    return { externalPaymentId: payment.id, checkoutUrl: payment._links?.checkout?.href, status: reshapeStatus(payment.status) };
  }

  return {
    kind: "live",
    provider: "mollie",
    /** `GET /methods`: the methods enabled on the profile the key belongs to; Mollie answers 401 to a bad key. */
    async probe() {
      const methods = answerOf("Mollie", methodsResponse, await call("GET", "/methods"));
      const mode = options.apiKey.startsWith("live_") ? "live" : "test";
      return `Mollie accepted the ${mode} key: ${methods.count} payment method${methods.count === 1 ? "" : "s"} enabled`;
    },
    createPayment: createPaymentWith("Mollie", startPayment),
    getPayment: fetchPayment,

    async capturePayment(id) {
      const payment = await fetchPayment(id);
      // Only an authorized payment (Klarna, cards with manual capture) has money left to take.
      if (payment.status !== "authorized") return payment;
      try {
        await api("POST", `/payments/${encodeURIComponent(payment.externalPaymentId)}/captures`, {
          body: {},
          idempotencyKey: `capture-${payment.externalPaymentId}`,
        });
      } catch (error) {
        // Mollie refuses a second capture of what an earlier one (still being carried out) already takes; the
        // payment's status says how that one goes.
        if (!(error instanceof PaymentProviderError && error.code === "UNPROCESSABLE_CONTENT")) throw error;
      }
      return fetchPayment(payment.externalPaymentId);
    },

    async cancelPayment(id) {
      const paymentId = externalPaymentIdSchema.parse(id);
      const path = `/payments/${encodeURIComponent(paymentId)}`;
      const payment = paymentResponse.parse(await api("GET", path));
      // An authorized payment is never withdrawn here: the shop captures it (or staff decide), the sweep does not.
      if ((payment.status !== "open" && payment.status !== "pending") || !payment.isCancelable) return reshapePayment(payment);
      try {
        return reshapePayment(paymentResponse.parse(await api("DELETE", path)));
      } catch (error) {
        // The buyer finished it between our read and the cancel: Mollie refuses, and the payment is as it now is.
        if (error instanceof PaymentProviderError && error.code === "UNPROCESSABLE_CONTENT") return fetchPayment(paymentId);
        throw error;
      }
    },

    /** `POST /payments/{id}/refunds`; Mollie replays its first answer to a request repeated with the same key. */
    async refundPayment(raw) {
      const input = refundPaymentInput.parse(raw);
      const text = await call("POST", `/payments/${encodeURIComponent(input.externalPaymentId)}/refunds`, {
        idempotencyKey: input.idempotencyKey,
        body: {
          amount: { currency: "EUR", value: toProviderAmount(input.amount) },
          ...(input.description ? { description: input.description } : {}),
        },
      });
      return reshapeRefund(answerOf("Mollie", refundResponse, text));
    },

    /** `GET /payments/{paymentId}/refunds/{refundId}` (Mollie's "Get payment refund"). */
    async getRefund(paymentId, refundId) {
      const path = `/payments/${encodeURIComponent(externalPaymentIdSchema.parse(paymentId))}/refunds/${encodeURIComponent(externalPaymentIdSchema.parse(refundId))}`;
      return reshapeRefund(answerOf("Mollie", refundResponse, await call("GET", path)));
    },
  };
}

/** Mollie reports neither fees nor a reason per refund: a failed refund's reason is only in its dashboard. */
function reshapeRefund(refund: MollieRefund): ProviderRefund {
  return {
    externalRefundId: refund.id,
    status: refundStatuses.get(refund.status) ?? "pending",
    amount: fromProviderAmount("Mollie", refund.amount.value, refund.amount.currency),
    providerFees: null,
    failureReason: null,
  };
}

function reshapePayment(payment: MolliePayment): ProviderPayment {
  const metadata = payment.metadata as { orderId?: unknown } | null | undefined;
  return {
    externalPaymentId: payment.id,
    status: reshapeStatus(payment.status),
    amount: fromProviderAmount("Mollie", payment.amount.value, payment.amount.currency),
    method: payment.method ? (methodsByMollieId.get(payment.method) ?? null) : null,
    orderId: orderIdFromMetadata(metadata?.orderId),
  };
}

function reshapeStatus(status: string): PaymentStatus {
  // Mollie's statuses are our vocabulary; a status it adds later is treated as still open rather than guessed at.
  return (paymentStatuses as readonly string[]).includes(status) ? (status as PaymentStatus) : "open";
}

/** Mollie's error document (`application/hal+json` `{status, title, detail, field}`) as one readable message. */
function errorFrom(response: Response, text: string): PaymentProviderError {
  const parsed = errorDocumentOf(errorResponse, text);
  const title = parsed.title ?? `HTTP ${response.status}`;
  const detail = parsed.detail ?? (text.slice(0, 200) || response.statusText);
  const field = parsed.field ? ` (field ${parsed.field})` : "";
  return new PaymentProviderError("Mollie", response.status, `Mollie refused the request: ${title}: ${detail}${field}`);
}
