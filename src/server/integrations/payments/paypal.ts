import { AppError } from "@/server/errors";
import type { PaymentRequest, PaymentsPort } from "./port";
import { createPaymentWith, externalPaymentId as externalPaymentIdSchema, PaymentProviderError, refundPaymentInput, toProviderAmount } from "./port";
import { errorResponse, orderResponse, refundResponse, reshapeOrder, reshapeRefund, reshapeStatus, tokenResponse, verificationResponse, type PayPalOrder } from "./paypal-records";
import { answerOf, bodyOf, errorDocumentOf, jsonOf, jsonRequest, sendToProvider } from "./provider-http";

/**
 * The live PayPal adapter, on PayPal's documented REST API (Orders v2, Payments v2, Notifications v1).
 *
 * Why REST and not `@paypal/paypal-server-sdk`: the SDK only knows its two fixed environments, so it cannot be
 * pointed at the local stand-in the tests need; it has no webhook verification, which we must call over REST
 * anyway; and PayPal itself still marks it as changing. The calls we need are few and stable.
 *
 * A buyer pays like this: we create an order with intent CAPTURE and send the buyer to its `payer-action` link;
 * PayPal returns them to our return URL with the order approved; we capture it (on return or on the
 * CHECKOUT.ORDER.APPROVED webhook, whichever comes first: the capture is idempotent), and only a completed
 * capture counts as paid. No money moves before that capture, which the shop makes only for an order still waiting
 * for its payment.
 */

export type PayPalEnvironment = "live" | "sandbox";

const baseUrls: Record<PayPalEnvironment, string> = {
  live: "https://api-m.paypal.com",
  sandbox: "https://api-m.sandbox.paypal.com",
};

export type PayPalPayments = PaymentsPort & {
  /**
   * Whether a webhook call really comes from PayPal, asked of PayPal itself
   * (`POST /v1/notifications/verify-webhook-signature`) with the transmission headers and the event.
   */
  verifyWebhook(headers: Headers, rawBody: string): Promise<boolean>;
};

// A token is renewed this long before PayPal says it expires, so a request never leaves with a dying token.
const tokenMarginMs = 60_000;

export function createPayPalPayments(options: {
  clientId: string;
  clientSecret: string;
  environment: PayPalEnvironment;
  /** The id PayPal gave our webhook in its dashboard; without it incoming webhooks cannot be verified. */
  webhookId?: string;
  /** Shown to the buyer on PayPal's pages. */
  brandName?: string;
  /** A local stand-in for tests; the environment's PayPal address otherwise. */
  baseUrl?: string;
}): PayPalPayments {
  const baseUrl = (options.baseUrl ?? baseUrls[options.environment]).replace(/\/+$/, "");
  // One token per process, shared by concurrent requests; it lives for hours and PayPal limits how often it is asked for.
  let token: { value: string; expiresAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    pendingToken ??= (async () => {
      try {
        const response = await sendToProvider("PayPal", `${baseUrl}/v1/oauth2/token`, {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: "grant_type=client_credentials",
        });
        const body = tokenResponse.parse(jsonOf(await readBody(response)));
        token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 - tokenMarginMs };
        return body.access_token;
      } finally {
        pendingToken = null;
      }
    })();
    return pendingToken;
  }

  /** One request to PayPal with our token; the answer's body, or a PaymentProviderError with PayPal's words. */
  async function call(method: "GET" | "POST", path: string, init: { body?: unknown; requestId?: string } = {}): Promise<string> {
    const attempt = async () => {
      const headers = {
        authorization: `Bearer ${await accessToken()}`,
        accept: "application/json",
        ...(init.requestId ? { "paypal-request-id": init.requestId } : {}),
        ...(method === "POST" ? { prefer: "return=representation" } : {}),
      };
      return fetchOrThrow(`${baseUrl}${path}`, jsonRequest(method, headers, init.body));
    };
    let response = await attempt();
    if (response.status === 401) {
      // A token PayPal revoked before its time: fetch a new one once.
      token = null;
      response = await attempt();
    }
    return readBody(response);
  }

  async function api(method: "GET" | "POST", path: string, init: { body?: unknown; requestId?: string } = {}): Promise<unknown> {
    return jsonOf(await call(method, path, init));
  }

  async function fetchOrder(id: string): Promise<PayPalOrder> {
    const orderId = externalPaymentIdSchema.parse(id);
    return orderResponse.parse(await api("GET", `/v2/checkout/orders/${encodeURIComponent(orderId)}`));
  }

  /** `POST /v2/checkout/orders` with intent CAPTURE: the order, with the page the buyer approves it on. */
  async function startPayment(request: PaymentRequest) {
    const order = orderResponse.parse(
      await api("POST", "/v2/checkout/orders", {
        requestId: request.idempotencyKey,
        body: {
          intent: "CAPTURE",
          purchase_units: [
            {
              reference_id: String(request.orderId),
              custom_id: String(request.orderId),
              description: request.description.slice(0, 127),
              amount: { currency_code: "EUR", value: toProviderAmount(request.amount) },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                return_url: request.redirectUrl,
                cancel_url: request.cancelUrl ?? request.redirectUrl,
                // The buyer confirms the amount at PayPal, so the button there says "Pay now".
                user_action: "PAY_NOW",
                // The shop collects and ships to the address given at checkout.
                shipping_preference: "NO_SHIPPING",
                ...(options.brandName ? { brand_name: options.brandName.slice(0, 127) } : {}),
                ...(request.locale ? { locale: request.locale.replace("_", "-") } : {}),
              },
            },
          },
        },
      }),
    );
    const link = order.links?.find((l) => l.rel === "payer-action") ?? order.links?.find((l) => l.rel === "approve");
    return { externalPaymentId: order.id, checkoutUrl: link?.href, status: reshapeStatus(order) };
  }

  return {
    kind: "live",
    provider: "paypal",
    /** A fresh client-credentials token (`POST /v1/oauth2/token`): PayPal answers 401 invalid_client to bad credentials. */
    async probe() {
      token = null;
      await accessToken();
      return `PayPal (${options.environment}) issued an access token`;
    },
    createPayment: createPaymentWith("PayPal", startPayment),

    async getPayment(id) {
      return reshapeOrder(await fetchOrder(id));
    },

    async capturePayment(id) {
      const order = await fetchOrder(id);
      if (order.status !== "APPROVED") return reshapeOrder(order);
      try {
        const captured = await api("POST", `/v2/checkout/orders/${encodeURIComponent(order.id)}/capture`, {
          body: {},
          // One capture per order, whoever asks for it (the return page or the webhook).
          requestId: `capture-${order.id}`,
        });
        return reshapeOrder(orderResponse.parse(captured));
      } catch (error) {
        // The other path captured it between our read and our request.
        if (error instanceof PaymentProviderError && error.message.includes("ORDER_ALREADY_CAPTURED")) return reshapeOrder(await fetchOrder(order.id));
        throw error;
      }
    },

    async cancelPayment(id) {
      const payment = reshapeOrder(await fetchOrder(id));
      // PayPal has no call to withdraw an order the buyer has not approved (voiding is for authorize intent); it
      // lapses by itself. With intent CAPTURE, not capturing is what cancelling means: from now on the shop treats
      // the order as canceled, and should the buyer still approve it, the webhook finds our order cancelled and
      // leaves it uncaptured.
      return payment.status === "open" ? { ...payment, status: "canceled" } : payment;
    },

    /**
     * `POST /v2/payments/captures/{capture_id}/refund` on the order's capture. PayPal keeps a refund's
     * PayPal-Request-Id for 45 days and answers a repeat with that refund's latest state instead of refunding again.
     */
    async refundPayment(raw) {
      const input = refundPaymentInput.parse(raw);
      const order = await fetchOrder(input.externalPaymentId);
      const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
      if (!capture) throw new AppError("CONFLICT", `PayPal order ${order.id} has no captured payment to refund`);
      const text = await call("POST", `/v2/payments/captures/${encodeURIComponent(capture.id)}/refund`, {
        requestId: input.idempotencyKey,
        body: {
          amount: { currency_code: "EUR", value: toProviderAmount(input.amount) },
          ...(input.description ? { note_to_payer: input.description } : {}),
        },
      });
      return reshapeRefund(answerOf("PayPal", refundResponse, text), input.amount);
    },

    /**
     * `GET /v2/payments/refunds/{refund_id}` ("Show refund details"). PayPal knows a refund by its own id alone;
     * the order id is checked for form only.
     */
    async getRefund(orderId, refundId) {
      externalPaymentIdSchema.parse(orderId);
      const text = await call("GET", `/v2/payments/refunds/${encodeURIComponent(externalPaymentIdSchema.parse(refundId))}`);
      return reshapeRefund(answerOf("PayPal", refundResponse, text));
    },

    async verifyWebhook(headers, rawBody) {
      if (!options.webhookId) throw new Error("PayPal webhooks cannot be verified without the webhook id from PayPal's dashboard");
      const transmission = {
        auth_algo: headers.get("paypal-auth-algo"),
        cert_url: headers.get("paypal-cert-url"),
        transmission_id: headers.get("paypal-transmission-id"),
        transmission_sig: headers.get("paypal-transmission-sig"),
        transmission_time: headers.get("paypal-transmission-time"),
      };
      if (Object.values(transmission).some((value) => !value)) return false;
      let event: unknown;
      try {
        event = JSON.parse(rawBody);
      } catch {
        return false;
      }
      const answer = verificationResponse.parse(
        await api("POST", "/v1/notifications/verify-webhook-signature", {
          body: { ...transmission, webhook_id: options.webhookId, webhook_event: event },
        }),
      );
      return answer.verification_status === "SUCCESS";
    },
  };
}

/** Sends a request; a 401 is handed back for the caller to renew its token, any other error becomes a PaymentProviderError. */
async function fetchOrThrow(url: string, init: RequestInit): Promise<Response> {
  const response = await sendToProvider("PayPal", url, init);
  if (response.ok || response.status === 401) return response;
  throw await errorFrom(response);
}

/** The body of a successful answer; an error document becomes a PaymentProviderError. */
async function readBody(response: Response): Promise<string> {
  if (!response.ok) throw await errorFrom(response);
  return bodyOf("PayPal", response);
}

/** PayPal's error document (`{name, message, debug_id, details[]}`, or OAuth's `{error, error_description}`) as one readable message. */
async function errorFrom(response: Response): Promise<PaymentProviderError> {
  // A refusal cut off while it was read is still a refusal: its status says enough.
  const text = await response.text().catch(() => "");
  const parsed = errorDocumentOf(errorResponse, text);
  const name = parsed.name ?? parsed.error ?? `HTTP ${response.status}`;
  const message = parsed.message ?? parsed.error_description ?? (text.slice(0, 200) || response.statusText);
  const details = (parsed.details ?? [])
    .map((detail) => [detail.issue, detail.description].filter(Boolean).join(": "))
    .filter(Boolean)
    .join("; ");
  const debug = parsed.debug_id ? ` (debug id ${parsed.debug_id})` : "";
  return new PaymentProviderError("PayPal", response.status, `PayPal refused the request: ${name}: ${message}${details ? ` [${details}]` : ""}${debug}`, parsed.debug_id);
}
