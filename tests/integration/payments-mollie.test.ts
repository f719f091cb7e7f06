import { Decimal } from "decimal.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMolliePayments } from "@/server/integrations/payments/mollie";
import { PaymentProviderError, type PaymentsPort } from "@/server/integrations/payments/port";
import { startProviderServer, type ProviderServer, type ReceivedRequest } from "../helpers/provider-server";

/**
 * Acceptance 4 (Mollie): the live adapter against a local server that answers as Mollie's Payments API v2 documents
 * (PROVIDERS.md section 1): HAL payment and refund resources, and `{status, title, detail, field}` errors.
 */

type FakePayment = { id: string; status: string; amount: { currency: string; value: string }; method: string | null; metadata: unknown; refunded: Decimal };

const payments = new Map<string, FakePayment>();
let server: ProviderServer;
let mollie: PaymentsPort;

const error = (status: number, title: string, detail: string, field?: string) => ({
  status,
  body: { status, title, detail, ...(field ? { field } : {}), _links: { documentation: { href: "https://docs.mollie.com/overview/handling-errors", type: "text/html" } } },
});

function paymentResource(payment: FakePayment, base: string) {
  return {
    resource: "payment",
    id: payment.id,
    mode: "test",
    createdAt: "2026-03-04T10:00:00+00:00",
    status: payment.status,
    isCancelable: false,
    amount: payment.amount,
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

function handle(request: ReceivedRequest) {
  if (request.headers.authorization !== "Bearer test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM") {
    return error(401, "Unauthorized Request", "Missing authentication, or failed to authenticate");
  }
  const base = server.url;
  if (request.method === "POST" && request.path === "/v2/payments") {
    const body = request.json as { amount: { currency: string; value: string }; method: string; metadata: unknown; description: string };
    if (!/^\d+\.\d{2}$/.test(body.amount.value)) return error(422, "Unprocessable Entity", "The amount contains an invalid value", "amount.value");
    if (body.method === "sofort") return error(422, "Unprocessable Entity", "The payment method is invalid", "method");
    const payment: FakePayment = { id: `tr_${payments.size + 1}WDqYK6vllg`, status: "open", amount: body.amount, method: body.method, metadata: body.metadata, refunded: new Decimal(0) };
    payments.set(payment.id, payment);
    return { status: 201, body: paymentResource(payment, base) };
  }
  const match = /^\/v2\/payments\/([^/]+)(\/refunds|\/captures)?$/.exec(request.path);
  const payment = match ? payments.get(match[1]!) : undefined;
  if (!match || !payment) return error(404, "Not Found", `No payment exists with token ${match?.[1] ?? "?"}.`);
  if (request.method === "GET" && !match[2]) return { status: 200, body: paymentResource(payment, base) };
  if (request.method === "POST" && match[2] === "/refunds") {
    const body = request.json as { amount: { currency: string; value: string }; description?: string };
    const remaining = new Decimal(payment.amount.value).minus(payment.refunded);
    if (new Decimal(body.amount.value).greaterThan(remaining)) {
      return error(422, "Unprocessable Entity", "The refund amount is higher than the amount remaining", "amount");
    }
    payment.refunded = payment.refunded.plus(body.amount.value);
    return {
      status: 201,
      body: {
        resource: "refund", id: "re_4qqhO89gsT", amount: body.amount, status: "pending", createdAt: "2026-03-05T09:00:00+00:00",
        description: body.description ?? "", metadata: null, paymentId: payment.id,
        _links: { self: { href: `${base}/v2/payments/${payment.id}/refunds/re_4qqhO89gsT`, type: "application/hal+json" } },
      },
    };
  }
  if (request.method === "POST" && match[2] === "/captures") {
    payment.status = "paid";
    return { status: 201, body: { resource: "capture", id: "cpt_mNepDkEtco6ah3QNPUGYH", mode: "test", amount: payment.amount, status: "pending", paymentId: payment.id } };
  }
  return error(405, "Method Not Allowed", "The requested method is not allowed");
}

beforeAll(async () => {
  server = await startProviderServer(handle, "application/hal+json");
  mollie = createMolliePayments({ apiKey: "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM", baseUrl: `${server.url}/v2` });
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

const newPayment = (overrides: Partial<Parameters<PaymentsPort["createPayment"]>[0]> = {}) =>
  mollie.createPayment({
    orderId: 1001,
    amount: new Decimal("129.9"),
    description: "Order 1001",
    method: "IDEAL",
    redirectUrl: "https://shop.example/checkout/return",
    webhookUrl: "https://shop.example/api/webhooks/mollie?secret=s",
    idempotencyKey: "order-1001-payment-1",
    ...overrides,
  });

describe("live Mollie adapter", () => {
  it("creates a payment: amount as a two-decimal string, Mollie's method id, our order id as metadata, the key as Idempotency-Key", async () => {
    const created = await newPayment();
    expect(created.externalPaymentId).toMatch(/^tr_/);
    expect(created.status).toBe("open");
    expect(created.checkoutUrl).toBe(`https://www.mollie.com/checkout/select-method/${created.externalPaymentId}`);

    const sent = server.requests[0]!;
    expect(sent.headers["idempotency-key"]).toBe("order-1001-payment-1");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.json).toEqual({
      amount: { currency: "EUR", value: "129.90" },
      description: "Order 1001",
      redirectUrl: "https://shop.example/checkout/return",
      webhookUrl: "https://shop.example/api/webhooks/mollie?secret=s",
      method: "ideal",
      metadata: { orderId: 1001 },
    });
  });

  it("reads a payment's real status, amount, method and order id", async () => {
    const created = await newPayment({ method: "KLARNAPAYNOW" });
    payments.get(created.externalPaymentId)!.status = "paid";
    const payment = await mollie.getPayment(created.externalPaymentId);
    expect(payment).toMatchObject({ externalPaymentId: created.externalPaymentId, status: "paid", method: "KLARNAPAYNOW", orderId: 1001 });
    expect(payment.amount.equals("129.90")).toBe(true);
  });

  it("captures an authorized payment and leaves any other payment alone", async () => {
    const created = await newPayment({ method: "CREDITCARD" });
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("open");
    expect(server.requests.some((r) => r.path.endsWith("/captures"))).toBe(false);

    payments.get(created.externalPaymentId)!.status = "authorized";
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("paid");
    const capture = server.requests.find((r) => r.path.endsWith("/captures"))!;
    expect(capture.headers["idempotency-key"]).toBe(`capture-${created.externalPaymentId}`);
  });

  it("refunds part of a payment with the caller's idempotency key", async () => {
    const created = await newPayment();
    payments.get(created.externalPaymentId)!.status = "paid";
    const refund = await mollie.refundPayment({ externalPaymentId: created.externalPaymentId, amount: "29.90", idempotencyKey: "refund-7", description: "Crystal returned" });
    expect(refund).toMatchObject({ externalRefundId: "re_4qqhO89gsT", status: "pending" });
    expect(refund.amount.equals("29.90")).toBe(true);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe(`/v2/payments/${created.externalPaymentId}/refunds`);
    expect(sent.headers["idempotency-key"]).toBe("refund-7");
    expect(sent.json).toEqual({ amount: { currency: "EUR", value: "29.90" }, description: "Crystal returned" });
  });

  it("turns Mollie's error documents into clear errors", async () => {
    const unknown = mollie.getPayment("tr_doesNotExist");
    await expect(unknown).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(unknown).rejects.toMatchObject({ code: "NOT_FOUND", providerStatus: 404, message: "Mollie refused the request: Not Found: No payment exists with token tr_doesNotExist." });

    const created = await newPayment();
    payments.get(created.externalPaymentId)!.status = "paid";
    await expect(mollie.refundPayment({ externalPaymentId: created.externalPaymentId, amount: "500.00", idempotencyKey: "refund-too-much" })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: "Mollie refused the request: Unprocessable Entity: The refund amount is higher than the amount remaining (field amount)",
    });

    const wrongKey = createMolliePayments({ apiKey: "test_wrong", baseUrl: `${server.url}/v2` });
    await expect(wrongKey.getPayment(created.externalPaymentId)).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR", providerStatus: 401 });
  });

  it("refuses bad input before anything is sent", async () => {
    await expect(newPayment({ amount: "-1.00" })).rejects.toThrow();
    await expect(newPayment({ amount: "10.999" })).rejects.toThrow();
    await expect(newPayment({ method: "SOFORT" as never })).rejects.toThrow();
    expect(server.requests).toHaveLength(0);
  });

  it("says so when Mollie cannot be reached", async () => {
    const closed = await startProviderServer(() => ({ status: 200 }));
    await closed.close();
    const unreachable = createMolliePayments({ apiKey: "test_x", baseUrl: `${closed.url}/v2` });
    await expect(unreachable.getPayment("tr_1")).rejects.toThrow(/^Mollie could not be reached/);
  });
});
