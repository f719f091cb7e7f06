import http from "node:http";
import type { AddressInfo } from "node:net";
import { Decimal } from "decimal.js";

/**
 * A local stand-in for an outside provider's HTTP API (ARCHITECTURE section 4): Node's http server on 127.0.0.1 and
 * a random port, answering with whatever the test's handler returns, and keeping every request it received so a
 * test can check what the adapter sent. The handler is where a test writes the provider's documented shapes; the
 * Mollie and PayPal stand-ins below are such handlers, shared by the adapters' tests and the shop's payment tests.
 */

export type ReceivedRequest = {
  method: string;
  /** The path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
};

export type ProviderAnswer = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Close the connection without answering, as a provider (or the network between) that breaks down mid-request. */
  hangUp?: boolean;
};

export type ProviderHandler = (request: ReceivedRequest) => ProviderAnswer | Promise<ProviderAnswer>;

export type ProviderServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ReceivedRequest[];
  close: () => Promise<void>;
};

export async function startProviderServer(handler: ProviderHandler, contentType = "application/json"): Promise<ProviderServer> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const request: ReceivedRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body, json };
    requests.push(request);
    try {
      const answer = await handler(request);
      if (answer.hangUp) {
        res.socket?.destroy();
        return;
      }
      res.writeHead(answer.status, { "content-type": contentType, ...answer.headers });
      res.end(answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(`The test's provider handler failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * How a stand-in loses its answer to a request it has carried out: a 503 as from a provider that broke down after
 * doing the work, or a connection closed without a word.
 */
export type LostAnswer = "unavailable" | "hang-up";

// ---------------------------------------------------------------------------------------------------------------
// Mollie's Payments API v2 (PROVIDERS.md section 1): HAL payment, capture and refund resources, and
// `{status, title, detail, field}` errors.

export const mollieTestKey = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM";

export type FakeMolliePayment = {
  id: string;
  status: string;
  amount: { currency: string; value: string };
  method: string | null;
  metadata: unknown;
  /** Mollie carries the capture out later: the payment stays authorized until the test makes it paid. */
  captureLater?: boolean;
  /** Whether Mollie lets an open payment be cancelled; true unless said otherwise, as for most methods. */
  cancelable?: boolean;
};

/** A refund as the stand-in keeps it; a test moves it on by setting `status` (Mollie's words). */
export type FakeMollieRefund = {
  id: string;
  paymentId: string;
  amount: { currency: string; value: string };
  description: string;
  /** queued, pending, processing, refunded, failed or canceled. */
  status: string;
  createdAt: string;
};

export type MollieStandIn = ProviderServer & {
  payments: Map<string, FakeMolliePayment>;
  /** Every refund made, by id: what Mollie's dashboard would list. */
  refunds: Map<string, FakeMollieRefund>;
  /** The next refund request is carried out, but its answer is lost as said. */
  loseNextRefundAnswer: (how: LostAnswer) => void;
};

/** What is left to refund of a payment: its amount less every refund that has not failed or been canceled. */
function mollieRemaining(payment: FakeMolliePayment, refunds: Map<string, FakeMollieRefund>): Decimal {
  let remaining = new Decimal(payment.amount.value);
  for (const refund of refunds.values()) {
    if (refund.paymentId === payment.id && refund.status !== "failed" && refund.status !== "canceled") remaining = remaining.minus(refund.amount.value);
  }
  return remaining;
}

function mollieRefundResource(refund: FakeMollieRefund, base: string) {
  return {
    resource: "refund",
    id: refund.id,
    mode: "test",
    description: refund.description,
    amount: refund.amount,
    settlementAmount: { currency: refund.amount.currency, value: new Decimal(refund.amount.value).negated().toFixed(2) },
    metadata: null,
    paymentId: refund.paymentId,
    status: refund.status,
    createdAt: refund.createdAt,
    _links: {
      self: { href: `${base}/v2/payments/${refund.paymentId}/refunds/${refund.id}`, type: "application/hal+json" },
      payment: { href: `${base}/v2/payments/${refund.paymentId}`, type: "application/hal+json" },
      documentation: { href: "https://docs.mollie.com/reference/get-refund", type: "text/html" },
    },
  };
}

const mollieError = (status: number, title: string, detail: string, field?: string): ProviderAnswer => ({
  status,
  body: { status, title, detail, ...(field ? { field } : {}), _links: { documentation: { href: "https://docs.mollie.com/overview/handling-errors", type: "text/html" } } },
});

function molliePaymentResource(payment: FakeMolliePayment, refunds: Map<string, FakeMollieRefund>, base: string) {
  const remaining = mollieRemaining(payment, refunds);
  return {
    resource: "payment",
    id: payment.id,
    mode: "test",
    createdAt: "2026-03-04T10:00:00+00:00",
    status: payment.status,
    isCancelable: payment.status === "open" && payment.cancelable !== false,
    amount: payment.amount,
    ...(payment.status === "paid"
      ? {
          amountRefunded: { currency: payment.amount.currency, value: new Decimal(payment.amount.value).minus(remaining).toFixed(2) },
          amountRemaining: { currency: payment.amount.currency, value: remaining.toFixed(2) },
        }
      : {}),
    description: "Order 1001",
    method: payment.method,
    metadata: payment.metadata,
    profileId: "pfl_QkEhN94Ba",
    sequenceType: "oneoff",
    redirectUrl: "https://shop.example/checkout/return",
    webhookUrl: "https://shop.example/api/webhooks/mollie?secret=s",
    expiresAt: "2026-03-04T10:15:00+00:00",
    _links: {
      self: { href: `${base}/v2/payments/${payment.id}`, type: "application/hal+json" },
      ...(payment.status === "open" ? { checkout: { href: `https://www.mollie.com/checkout/select-method/${payment.id}`, type: "text/html" } } : {}),
      documentation: { href: "https://docs.mollie.com/reference/get-payment", type: "text/html" },
    },
  };
}

/**
 * A Mollie stand-in at `${url}/v2`, taking `mollieTestKey`; a test changes a payment's state through `payments` and
 * a refund's through `refunds`. Like Mollie it answers a POST repeated with an `Idempotency-Key` it has seen with the
 * answer it gave the first time, without doing the work again.
 */
export async function startMollieStandIn(): Promise<MollieStandIn> {
  const payments = new Map<string, FakeMolliePayment>();
  const refunds = new Map<string, FakeMollieRefund>();
  const answered = new Map<string, ProviderAnswer>();
  let loseRefundAnswer: LostAnswer | null = null;
  let base = "";
  const handle = (request: ReceivedRequest): ProviderAnswer => {
    if (request.headers.authorization !== `Bearer ${mollieTestKey}`) {
      return mollieError(401, "Unauthorized Request", "Missing authentication, or failed to authenticate");
    }
    const key = request.method === "POST" ? request.headers["idempotency-key"] : undefined;
    const earlier = typeof key === "string" ? answered.get(`${request.path} ${key}`) : undefined;
    if (earlier) return earlier;
    const answer = answerMollie(request);
    if (typeof key === "string" && answer.status < 300) answered.set(`${request.path} ${key}`, answer);
    if (loseRefundAnswer && request.method === "POST" && request.path.endsWith("/refunds")) {
      const how = loseRefundAnswer;
      loseRefundAnswer = null;
      return how === "hang-up" ? { status: 0, hangUp: true } : mollieError(503, "Service Unavailable", "The service is temporarily unavailable");
    }
    return answer;
  };
  const answerMollie = (request: ReceivedRequest): ProviderAnswer => {
    // List payment methods: those enabled on the key's profile.
    if (request.method === "GET" && request.path === "/v2/methods") {
      const methods = ["ideal", "creditcard", "bancontact"].map((id) => ({ resource: "method", id, description: id, status: "activated" }));
      return { status: 200, body: { count: methods.length, _embedded: { methods }, _links: { self: { href: `${base}/v2/methods`, type: "application/hal+json" } } } };
    }
    if (request.method === "POST" && request.path === "/v2/payments") {
      const body = request.json as { amount: { currency: string; value: string }; method: string; metadata: unknown; description: string };
      if (!/^\d+\.\d{2}$/.test(body.amount.value)) return mollieError(422, "Unprocessable Entity", "The amount contains an invalid value", "amount.value");
      if (body.method === "sofort") return mollieError(422, "Unprocessable Entity", "The payment method is invalid", "method");
      const payment: FakeMolliePayment = { id: `tr_${payments.size + 1}WDqYK6vllg`, status: "open", amount: body.amount, method: body.method, metadata: body.metadata };
      payments.set(payment.id, payment);
      return { status: 201, body: molliePaymentResource(payment, refunds, base) };
    }
    const match = /^\/v2\/payments\/([^/]+)(\/refunds|\/captures)?(?:\/([^/]+))?$/.exec(request.path);
    const payment = match ? payments.get(match[1]!) : undefined;
    if (!match || !payment) return mollieError(404, "Not Found", `No payment exists with token ${match?.[1] ?? "?"}.`);
    if (request.method === "GET" && match[2] === "/refunds" && match[3]) {
      const refund = refunds.get(match[3]);
      if (!refund || refund.paymentId !== payment.id) return mollieError(404, "Not Found", `No refund exists with token ${match[3]}.`);
      return { status: 200, body: mollieRefundResource(refund, base) };
    }
    if (match[3]) return mollieError(404, "Not Found", "The requested resource does not exist");
    if (request.method === "GET" && !match[2]) return { status: 200, body: molliePaymentResource(payment, refunds, base) };
    if (request.method === "DELETE" && !match[2]) {
      if (payment.status !== "open" || payment.cancelable === false) return mollieError(422, "Unprocessable Entity", "The payment cannot be canceled");
      payment.status = "canceled";
      return { status: 200, body: molliePaymentResource(payment, refunds, base) };
    }
    if (request.method === "POST" && match[2] === "/refunds") {
      const body = request.json as { amount: { currency: string; value: string }; description?: string };
      if (payment.status !== "paid") return mollieError(422, "Unprocessable Entity", "The payment cannot be refunded");
      if (new Decimal(body.amount.value).greaterThan(mollieRemaining(payment, refunds))) {
        return mollieError(422, "Unprocessable Entity", "The refund amount is higher than the amount remaining", "amount");
      }
      const refund: FakeMollieRefund = {
        id: `re_${refunds.size + 4}qqhO89gsT`,
        paymentId: payment.id,
        amount: body.amount,
        description: body.description ?? "",
        status: "pending",
        createdAt: "2026-03-05T09:00:00+00:00",
      };
      refunds.set(refund.id, refund);
      return { status: 201, body: mollieRefundResource(refund, base) };
    }
    if (request.method === "POST" && match[2] === "/captures") {
      if (payment.status !== "authorized") return mollieError(422, "Unprocessable Entity", "The payment cannot be captured");
      if (!payment.captureLater) payment.status = "paid";
      return { status: 201, body: { resource: "capture", id: "cpt_mNepDkEtco6ah3QNPUGYH", mode: "test", amount: payment.amount, status: "pending", paymentId: payment.id } };
    }
    return mollieError(405, "Method Not Allowed", "The requested method is not allowed");
  };
  const server = await startProviderServer(handle, "application/hal+json");
  base = server.url;
  return {
    ...server,
    payments,
    refunds,
    loseNextRefundAnswer: (how) => {
      loseRefundAnswer = how;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// PayPal's Orders v2, Payments v2 and Notifications v1 (PROVIDERS.md section 2), with
// `{name, message, debug_id, details}` errors.

export const payPalCredentials = {
  clientId: "AeA1QIZXiflr1_-r0U2UbWTziOWX1GRQer5jkUq4ZfWT5qwb6qQRPq7jDtv57TL4POEEezGLdutcxnkJ",
  clientSecret: "the-secret",
  webhookId: "4JH86294D6297924G",
  /** The transmission signature the stand-in's verification endpoint accepts. */
  goodSignature: "good-signature",
};

export type FakePayPalOrder = {
  id: string;
  status: string;
  amount: { currency_code: string; value: string };
  customId: string;
  capture?: { id: string; status: string };
  /** Someone else captures the order between our read and our capture request. */
  capturedElsewhere?: boolean;
};

/** A refund as the stand-in keeps it; a test moves it on by setting `status` (and `reason`), in PayPal's words. */
export type FakePayPalRefund = {
  id: string;
  captureId: string;
  amount: { currency_code: string; value: string };
  /** PENDING, COMPLETED, FAILED or CANCELLED. */
  status: string;
  /** `status_details.reason` of a PENDING or FAILED refund (PayPal documents ECHECK). */
  reason?: string;
  noteToPayer?: string;
};

export type PayPalStandIn = ProviderServer & {
  orders: Map<string, FakePayPalOrder>;
  /** Every refund made, by id: what PayPal's dashboard would list. */
  refunds: Map<string, FakePayPalRefund>;
  tokensIssued: () => number;
  /** The next refund request is carried out, but its answer is lost as said. */
  loseNextRefundAnswer: (how: LostAnswer) => void;
};

/**
 * The part of PayPal's fee the stand-in gives back with a refund, at a made-up 2.99% of the refund: enough to see
 * `seller_payable_breakdown` read. PayPal's real fees depend on the account and country.
 */
export const payPalRefundFeeRate = new Decimal("0.0299");

function payPalRefundResource(refund: FakePayPalRefund, refunds: Map<string, FakePayPalRefund>) {
  const gross = new Decimal(refund.amount.value);
  const fee = gross.times(payPalRefundFeeRate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const totalRefunded = [...refunds.values()]
    .filter((other) => other.captureId === refund.captureId && other.status === "COMPLETED")
    .reduce((sum, other) => sum.plus(other.amount.value), new Decimal(0));
  const money = (value: Decimal) => ({ currency_code: refund.amount.currency_code, value: value.toFixed(2) });
  return {
    id: refund.id,
    amount: refund.amount,
    ...(refund.noteToPayer ? { note_to_payer: refund.noteToPayer } : {}),
    seller_payable_breakdown: { gross_amount: refund.amount, paypal_fee: money(fee), net_amount: money(gross.minus(fee)), total_refunded_amount: money(totalRefunded) },
    status: refund.status,
    ...(refund.reason ? { status_details: { reason: refund.reason } } : {}),
    create_time: "2026-03-05T09:00:00Z",
    update_time: "2026-03-05T09:00:00Z",
    links: [
      { href: `https://api-m.sandbox.paypal.com/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
      { href: `https://api-m.sandbox.paypal.com/v2/payments/captures/${refund.captureId}`, rel: "up", method: "GET" },
    ],
  };
}

const payPalError = (status: number, name: string, message: string, details: { issue: string; description: string }[] = []): ProviderAnswer => ({
  status,
  body: { name, message, debug_id: "f0d4bc7a9e2c1", details, links: [{ href: "https://developer.paypal.com/docs/api/orders/v2/#error", rel: "information_link" }] },
});

function payPalOrderResource(order: FakePayPalOrder) {
  return {
    id: order.id,
    intent: "CAPTURE",
    status: order.status,
    payment_source: { paypal: {} },
    purchase_units: [
      {
        reference_id: order.customId,
        custom_id: order.customId,
        amount: order.amount,
        ...(order.capture
          ? { payments: { captures: [{ id: order.capture.id, status: order.capture.status, amount: order.amount, final_capture: true, create_time: "2026-03-04T10:05:00Z" }] } }
          : {}),
      },
    ],
    links: [
      { href: `https://api-m.sandbox.paypal.com/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
      ...(order.status === "PAYER_ACTION_REQUIRED"
        ? [{ href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" }]
        : []),
    ],
  };
}

/**
 * A PayPal stand-in taking `payPalCredentials`; a test changes an order's state through `orders` and a refund's
 * through `refunds`. Like PayPal it answers a refund repeated with a `PayPal-Request-Id` it has seen with the latest
 * state of the refund the first request made, without refunding again.
 */
export async function startPayPalStandIn(): Promise<PayPalStandIn> {
  const orders = new Map<string, FakePayPalOrder>();
  const refunds = new Map<string, FakePayPalRefund>();
  const refundsByRequestId = new Map<string, string>();
  let loseRefundAnswer: LostAnswer | null = null;
  let tokensIssued = 0;
  let captures = 0;
  const newCapture = () => ({ id: `3C679366HH90899${captures++}F`, status: "COMPLETED" });
  const handle = (request: ReceivedRequest): ProviderAnswer => {
    if (request.path === "/v1/oauth2/token") {
      const expected = `Basic ${Buffer.from(`${payPalCredentials.clientId}:${payPalCredentials.clientSecret}`).toString("base64")}`;
      if (request.headers.authorization !== expected || request.body !== "grant_type=client_credentials") {
        return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
      }
      tokensIssued++;
      return { status: 200, body: { scope: "https://uri.paypal.com/services/payments/payment", access_token: `A21AAF-token-${tokensIssued}`, token_type: "Bearer", app_id: "APP-80W284485P519543T", expires_in: 32400, nonce: "2026-03-04T10:00:00Z" } };
    }
    if (!/^Bearer A21AAF-token-\d+$/.test(String(request.headers.authorization))) {
      return { status: 401, body: { error: "invalid_token", error_description: "Token signature verification failed" } };
    }
    if (request.method === "POST" && request.path === "/v2/checkout/orders") {
      const body = request.json as { purchase_units: { custom_id: string; amount: { currency_code: string; value: string } }[] };
      const unit = body.purchase_units[0]!;
      if (unit.amount.value === "0.00") {
        return payPalError(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
          { issue: "CANNOT_BE_ZERO_OR_NEGATIVE", description: "Must be greater than zero." },
        ]);
      }
      const order: FakePayPalOrder = { id: `5O190127TN36471${orders.size}4K`, status: "PAYER_ACTION_REQUIRED", amount: unit.amount, customId: unit.custom_id };
      orders.set(order.id, order);
      return { status: 200, body: payPalOrderResource(order) };
    }
    const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(request.path);
    if (orderMatch) {
      const order = orders.get(orderMatch[1]!);
      if (!order) {
        return payPalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
          { issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist. Please check the resource ID and try again." },
        ]);
      }
      if (request.method === "GET") return { status: 200, body: payPalOrderResource(order) };
      if (order.capturedElsewhere) Object.assign(order, { status: "COMPLETED", capture: newCapture(), capturedElsewhere: false });
      if (order.status === "COMPLETED") {
        return payPalError(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
          { issue: "ORDER_ALREADY_CAPTURED", description: "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed." },
        ]);
      }
      order.status = "COMPLETED";
      order.capture = newCapture();
      return { status: 201, body: payPalOrderResource(order) };
    }
    const refundMatch = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(request.path);
    if (refundMatch && request.method === "POST") {
      const answer = refundCapture(request, refundMatch[1]!);
      if (loseRefundAnswer) {
        const how = loseRefundAnswer;
        loseRefundAnswer = null;
        return how === "hang-up" ? { status: 0, hangUp: true } : payPalError(503, "SERVICE_UNAVAILABLE", "Service Unavailable.");
      }
      return answer;
    }
    const showRefund = /^\/v2\/payments\/refunds\/([^/]+)$/.exec(request.path);
    if (showRefund && request.method === "GET") {
      const refund = refunds.get(showRefund[1]!);
      if (!refund) {
        return payPalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
          { issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist. Please check the resource ID and try again." },
        ]);
      }
      return { status: 200, body: payPalRefundResource(refund, refunds) };
    }
    if (request.path === "/v1/notifications/verify-webhook-signature") {
      const body = request.json as { transmission_sig: string; webhook_id: string };
      const genuine = body.transmission_sig === payPalCredentials.goodSignature && body.webhook_id === payPalCredentials.webhookId;
      return { status: 200, body: { verification_status: genuine ? "SUCCESS" : "FAILURE" } };
    }
    return payPalError(404, "NOT_FOUND", "No such endpoint in the stand-in");
  };

  /** `POST /v2/payments/captures/{id}/refund`: at most what is left of the capture, once per PayPal-Request-Id. */
  function refundCapture(request: ReceivedRequest, captureId: string): ProviderAnswer {
    const representation = request.headers.prefer === "return=representation";
    const answerWith = (refund: FakePayPalRefund): ProviderAnswer => ({
      status: 201,
      body: representation ? payPalRefundResource(refund, refunds) : { id: refund.id, status: refund.status, links: payPalRefundResource(refund, refunds).links },
    });
    const requestId = request.headers["paypal-request-id"];
    const earlier = typeof requestId === "string" ? refunds.get(refundsByRequestId.get(requestId) ?? "") : undefined;
    if (earlier) return answerWith(earlier);

    const order = [...orders.values()].find((candidate) => candidate.capture?.id === captureId);
    if (!order?.capture) {
      return payPalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
        { issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist. Please check the resource ID and try again." },
      ]);
    }
    const body = request.json as { amount?: { value: string; currency_code: string }; note_to_payer?: string } | undefined;
    const refunded = [...refunds.values()]
      .filter((refund) => refund.captureId === captureId && refund.status !== "FAILED" && refund.status !== "CANCELLED")
      .reduce((sum, refund) => sum.plus(refund.amount.value), new Decimal(0));
    const remaining = new Decimal(order.amount.value).minus(refunded);
    // No amount refunds what is left.
    const amount = body?.amount ?? { currency_code: order.amount.currency_code, value: remaining.toFixed(2) };
    if (remaining.lessThanOrEqualTo(0) || new Decimal(amount.value).greaterThan(remaining)) {
      return payPalError(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
        { issue: "REFUND_AMOUNT_EXCEEDED", description: "The refund amount must be less than or equal to the capture amount that has not yet been refunded." },
      ]);
    }
    const refund: FakePayPalRefund = {
      id: `1JU0890278169141${refunds.size}`,
      captureId,
      amount,
      status: "COMPLETED",
      ...(body?.note_to_payer ? { noteToPayer: body.note_to_payer } : {}),
    };
    refunds.set(refund.id, refund);
    if (typeof requestId === "string") refundsByRequestId.set(requestId, refund.id);
    order.capture.status = remaining.equals(amount.value) ? "REFUNDED" : "PARTIALLY_REFUNDED";
    return answerWith(refund);
  }

  const server = await startProviderServer(handle);
  return {
    ...server,
    orders,
    refunds,
    tokensIssued: () => tokensIssued,
    loseNextRefundAnswer: (how) => {
      loseRefundAnswer = how;
    },
  };
}

/** The headers PayPal sends with a webhook, signed as the stand-in accepts (or not). */
export function payPalWebhookHeaders(signature: string = payPalCredentials.goodSignature): Headers {
  return new Headers({
    "paypal-auth-algo": "SHA256withRSA",
    "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270",
    "paypal-transmission-id": "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
    "paypal-transmission-sig": signature,
    "paypal-transmission-time": "2026-03-04T10:06:00Z",
  });
}
