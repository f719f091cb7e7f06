import { Decimal } from "decimal.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPayPalPayments, type PayPalPayments } from "@/server/integrations/payments/paypal";
import { PaymentProviderError } from "@/server/integrations/payments/port";
import { startProviderServer, type ProviderServer, type ReceivedRequest } from "../helpers/provider-server";

/**
 * Acceptance 4 (PayPal): the live adapter against a local server that answers as PayPal's Orders v2, Payments v2
 * and Notifications v1 document (PROVIDERS.md section 2), including `{name, message, debug_id, details}` errors.
 */

type FakeOrder = {
  id: string;
  status: string;
  amount: { currency_code: string; value: string };
  customId: string;
  capture?: { id: string; status: string };
  /** Someone else captures the order between our read and our capture request. */
  capturedElsewhere?: boolean;
};

const clientId = "AeA1QIZXiflr1_-r0U2UbWTziOWX1GRQer5jkUq4ZfWT5qwb6qQRPq7jDtv57TL4POEEezGLdutcxnkJ";
const orders = new Map<string, FakeOrder>();
let server: ProviderServer;
let paypal: PayPalPayments;
let tokensIssued = 0;

const paypalError = (status: number, name: string, message: string, details: { issue: string; description: string }[] = []) => ({
  status,
  body: { name, message, debug_id: "f0d4bc7a9e2c1", details, links: [{ href: "https://developer.paypal.com/docs/api/orders/v2/#error", rel: "information_link" }] },
});

function orderResource(order: FakeOrder) {
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

function handle(request: ReceivedRequest) {
  if (request.path === "/v1/oauth2/token") {
    const expected = `Basic ${Buffer.from(`${clientId}:the-secret`).toString("base64")}`;
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
      return paypalError(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
        { issue: "CANNOT_BE_ZERO_OR_NEGATIVE", description: "Must be greater than zero." },
      ]);
    }
    const order: FakeOrder = { id: `5O190127TN36471${orders.size}4K`, status: "PAYER_ACTION_REQUIRED", amount: unit.amount, customId: unit.custom_id };
    orders.set(order.id, order);
    return { status: 200, body: orderResource(order) };
  }
  const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(request.path);
  if (orderMatch) {
    const order = orders.get(orderMatch[1]!);
    if (!order) {
      return paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
        { issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist. Please check the resource ID and try again." },
      ]);
    }
    if (request.method === "GET") return { status: 200, body: orderResource(order) };
    if (order.capturedElsewhere) Object.assign(order, { status: "COMPLETED", capture: { id: "3C679366HH908993F", status: "COMPLETED" }, capturedElsewhere: false });
    if (order.status === "COMPLETED") {
      return paypalError(422, "UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [
        { issue: "ORDER_ALREADY_CAPTURED", description: "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed." },
      ]);
    }
    order.status = "COMPLETED";
    order.capture = { id: "3C679366HH908993F", status: "COMPLETED" };
    return { status: 201, body: orderResource(order) };
  }
  const refundMatch = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(request.path);
  if (refundMatch && request.method === "POST") {
    const body = request.json as { amount: { value: string; currency_code: string } };
    return { status: 201, body: { id: "1JU08902781691411", amount: body.amount, status: "COMPLETED", links: [] } };
  }
  if (request.path === "/v1/notifications/verify-webhook-signature") {
    const body = request.json as { transmission_sig: string; webhook_id: string };
    return { status: 200, body: { verification_status: body.transmission_sig === "good-signature" && body.webhook_id === "4JH86294D6297924G" ? "SUCCESS" : "FAILURE" } };
  }
  return paypalError(404, "NOT_FOUND", "No such endpoint in the stand-in");
}

beforeAll(async () => {
  server = await startProviderServer(handle);
  paypal = createPayPalPayments({ clientId, clientSecret: "the-secret", environment: "sandbox", baseUrl: server.url, webhookId: "4JH86294D6297924G", brandName: "Balance & Crown" });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

const newOrder = (amount = "249.50") =>
  paypal.createPayment({
    orderId: 1002,
    amount,
    description: "Order 1002",
    method: "PAYPAL",
    redirectUrl: "https://shop.example/checkout/return",
    cancelUrl: "https://shop.example/checkout/cancelled",
    webhookUrl: "https://shop.example/api/webhooks/paypal",
    idempotencyKey: "order-1002-payment-1",
  });

describe("live PayPal adapter", () => {
  it("creates an order with intent CAPTURE and the return and cancel URLs, and sends the buyer to the payer-action link", async () => {
    const created = await newOrder();
    expect(created.status).toBe("open");
    expect(created.checkoutUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${created.externalPaymentId}`);

    const sent = server.requests.find((r) => r.path === "/v2/checkout/orders")!;
    expect(sent.headers["paypal-request-id"]).toBe("order-1002-payment-1");
    expect(sent.headers.prefer).toBe("return=representation");
    expect(sent.json).toEqual({
      intent: "CAPTURE",
      purchase_units: [{ reference_id: "1002", custom_id: "1002", description: "Order 1002", amount: { currency_code: "EUR", value: "249.50" } }],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: "https://shop.example/checkout/return",
            cancel_url: "https://shop.example/checkout/cancelled",
            user_action: "PAY_NOW",
            shipping_preference: "NO_SHIPPING",
            brand_name: "Balance & Crown",
          },
        },
      },
    });
  });

  it("asks for an access token once and reuses it until it expires", async () => {
    const before = tokensIssued;
    await newOrder();
    await newOrder();
    expect(tokensIssued - before).toBeLessThanOrEqual(1);
    expect(server.requests.filter((r) => r.path === "/v1/oauth2/token")).toHaveLength(tokensIssued - before);
  });

  it("reads an order as open, approved as authorized, and captured as paid", async () => {
    const created = await newOrder();
    expect((await paypal.getPayment(created.externalPaymentId)).status).toBe("open");
    orders.get(created.externalPaymentId)!.status = "APPROVED";
    const approved = await paypal.getPayment(created.externalPaymentId);
    expect(approved).toMatchObject({ status: "authorized", method: "PAYPAL", orderId: 1002 });
    expect(approved.amount.equals(new Decimal("249.50"))).toBe(true);
  });

  it("captures an approved order once, idempotently, and treats a second capture as done", async () => {
    const created = await newOrder();
    expect((await paypal.capturePayment(created.externalPaymentId)).status).toBe("open");

    orders.get(created.externalPaymentId)!.status = "APPROVED";
    const captured = await paypal.capturePayment(created.externalPaymentId);
    expect(captured.status).toBe("paid");
    const capture = server.requests.find((r) => r.path.endsWith("/capture"))!;
    expect(capture.headers["paypal-request-id"]).toBe(`capture-${created.externalPaymentId}`);

    // Captured meanwhile by the other path (return page or webhook): PayPal answers ORDER_ALREADY_CAPTURED.
    const raced = await newOrder();
    Object.assign(orders.get(raced.externalPaymentId)!, { status: "APPROVED", capturedElsewhere: true });
    expect((await paypal.capturePayment(raced.externalPaymentId)).status).toBe("paid");
    expect(server.requests.filter((r) => r.path === `/v2/checkout/orders/${raced.externalPaymentId}/capture`)).toHaveLength(1);
  });

  it("reads a declined capture as failed", async () => {
    const created = await newOrder();
    Object.assign(orders.get(created.externalPaymentId)!, { status: "COMPLETED", capture: { id: "9XX", status: "DECLINED" } });
    expect((await paypal.getPayment(created.externalPaymentId)).status).toBe("failed");
  });

  it("refunds the order's capture with the caller's idempotency key", async () => {
    const created = await newOrder();
    orders.get(created.externalPaymentId)!.status = "APPROVED";
    await paypal.capturePayment(created.externalPaymentId);
    const refund = await paypal.refundPayment({ externalPaymentId: created.externalPaymentId, amount: new Decimal("49.5"), idempotencyKey: "refund-12", description: "Strap returned" });
    expect(refund).toMatchObject({ externalRefundId: "1JU08902781691411", status: "refunded" });
    expect(refund.amount.equals("49.50")).toBe(true);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v2/payments/captures/3C679366HH908993F/refund");
    expect(sent.headers["paypal-request-id"]).toBe("refund-12");
    expect(sent.json).toEqual({ amount: { currency_code: "EUR", value: "49.50" }, note_to_payer: "Strap returned" });
  });

  it("will not refund an order that was never captured", async () => {
    const created = await newOrder();
    await expect(paypal.refundPayment({ externalPaymentId: created.externalPaymentId, amount: "10.00", idempotencyKey: "refund-13" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("turns PayPal's error documents into clear errors", async () => {
    const unknown = paypal.getPayment("0VF52814937998046");
    await expect(unknown).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(unknown).rejects.toMatchObject({
      code: "NOT_FOUND",
      debugId: "f0d4bc7a9e2c1",
      message:
        "PayPal refused the request: RESOURCE_NOT_FOUND: The specified resource does not exist. [INVALID_RESOURCE_ID: Specified resource ID does not exist. Please check the resource ID and try again.] (debug id f0d4bc7a9e2c1)",
    });
    await expect(newOrder("0.00")).rejects.toThrow(); // refused by our own validation first
    const badCredentials = createPayPalPayments({ clientId, clientSecret: "wrong", environment: "sandbox", baseUrl: server.url });
    await expect(badCredentials.getPayment("x")).rejects.toMatchObject({
      providerStatus: 401,
      message: "PayPal refused the request: invalid_client: Client Authentication failed",
    });
  });

  it("verifies webhooks by asking PayPal, with the transmission headers, our webhook id and the event", async () => {
    const event = { id: "WH-2WR32451HC0233532-67976317FL4543714", event_type: "CHECKOUT.ORDER.APPROVED", resource_type: "checkout-order", resource: { id: "5O190127TN364715T" } };
    const headers = (signature: string) =>
      new Headers({
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270",
        "paypal-transmission-id": "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
        "paypal-transmission-sig": signature,
        "paypal-transmission-time": "2026-03-04T10:06:00Z",
      });
    expect(await paypal.verifyWebhook(headers("good-signature"), JSON.stringify(event))).toBe(true);
    const sent = server.requests.at(-1)!.json as Record<string, unknown>;
    expect(sent).toMatchObject({ auth_algo: "SHA256withRSA", transmission_id: "69cd13f0-d67a-11e5-baa3-778b53f4ae55", webhook_id: "4JH86294D6297924G", webhook_event: event });

    expect(await paypal.verifyWebhook(headers("forged"), JSON.stringify(event))).toBe(false);
    server.requests.length = 0;
    expect(await paypal.verifyWebhook(new Headers(), JSON.stringify(event))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
