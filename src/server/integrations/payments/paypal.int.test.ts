import { Decimal } from "decimal.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createPayPalPayments, type PayPalPayments } from "@/server/integrations/payments/paypal";
import { isRefundOutcomeUnknown, PaymentProviderError } from "@/server/integrations/payments/port";
import { payPalCredentials, payPalWebhookHeaders, startPayPalStandIn } from "../../../../tests/helpers/provider-server";
import { standInForFile } from "../../../../tests/helpers/stand-in";

/**
 * Acceptance 4 (PayPal): the live adapter against a local server that answers as PayPal's Orders v2, Payments v2
 * and Notifications v1 document (PROVIDERS.md section 2), including `{name, message, debug_id, details}` errors.
 */

const server = standInForFile(startPayPalStandIn);
let paypal: PayPalPayments;
const { clientId } = payPalCredentials;

beforeAll(() => {
  const { clientSecret, webhookId } = payPalCredentials;
  paypal = createPayPalPayments({ clientId, clientSecret, webhookId, environment: "sandbox", baseUrl: server.url, brandName: "Balance & Crown" });
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
    const before = server.tokensIssued();
    await newOrder();
    await newOrder();
    expect(server.tokensIssued() - before).toBeLessThanOrEqual(1);
    expect(server.requests.filter((r) => r.path === "/v1/oauth2/token")).toHaveLength(server.tokensIssued() - before);
  });

  it("reads an order as open, approved as authorized, and captured as paid", async () => {
    const created = await newOrder();
    expect((await paypal.getPayment(created.externalPaymentId)).status).toBe("open");
    server.orders.get(created.externalPaymentId)!.status = "APPROVED";
    const approved = await paypal.getPayment(created.externalPaymentId);
    expect(approved).toMatchObject({ status: "authorized", method: "PAYPAL", orderId: 1002 });
    expect(approved.amount.equals(new Decimal("249.50"))).toBe(true);
  });

  it("captures an approved order once, idempotently, and treats a second capture as done", async () => {
    const created = await newOrder();
    expect((await paypal.capturePayment(created.externalPaymentId)).status).toBe("open");

    server.orders.get(created.externalPaymentId)!.status = "APPROVED";
    const captured = await paypal.capturePayment(created.externalPaymentId);
    expect(captured.status).toBe("paid");
    const capture = server.requests.find((r) => r.path.endsWith("/capture"))!;
    expect(capture.headers["paypal-request-id"]).toBe(`capture-${created.externalPaymentId}`);

    // Captured meanwhile by the other path (return page or webhook): PayPal answers ORDER_ALREADY_CAPTURED.
    const raced = await newOrder();
    Object.assign(server.orders.get(raced.externalPaymentId)!, { status: "APPROVED", capturedElsewhere: true });
    expect((await paypal.capturePayment(raced.externalPaymentId)).status).toBe("paid");
    expect(server.requests.filter((r) => r.path === `/v2/checkout/orders/${raced.externalPaymentId}/capture`)).toHaveLength(1);
  });

  it("treats an order the buyer has not approved as canceled once the shop gives it up, and leaves an approved one alone", async () => {
    const created = await newOrder();
    expect((await paypal.cancelPayment(created.externalPaymentId)).status).toBe("canceled");
    server.orders.get(created.externalPaymentId)!.status = "APPROVED";
    expect((await paypal.cancelPayment(created.externalPaymentId)).status).toBe("authorized");
    expect(server.requests.some((r) => r.path.endsWith("/capture"))).toBe(false);
  });

  it("reads a declined capture as failed", async () => {
    const created = await newOrder();
    Object.assign(server.orders.get(created.externalPaymentId)!, { status: "COMPLETED", capture: { id: "9XX", status: "DECLINED" } });
    expect((await paypal.getPayment(created.externalPaymentId)).status).toBe("failed");
  });

  /** An order the buyer approved and we captured: paid. */
  async function capturedOrder(amount = "249.50") {
    const created = await newOrder(amount);
    server.orders.get(created.externalPaymentId)!.status = "APPROVED";
    expect((await paypal.capturePayment(created.externalPaymentId)).status).toBe("paid");
    return { orderId: created.externalPaymentId, captureId: server.orders.get(created.externalPaymentId)!.capture!.id };
  }

  const refundsAtPayPal = (captureId: string) => [...server.refunds.values()].filter((refund) => refund.captureId === captureId);

  it("refunds the order's capture with the caller's idempotency key, and reads the fee PayPal gave back", async () => {
    const { orderId, captureId } = await capturedOrder();
    const refund = await paypal.refundPayment({ externalPaymentId: orderId, amount: new Decimal("49.5"), idempotencyKey: "refund-12", description: "Strap returned" });
    expect(refund).toMatchObject({ status: "refunded", failureReason: null });
    expect(refundsAtPayPal(captureId).map((r) => r.id)).toEqual([refund.externalRefundId]);
    expect(refund.amount.equals("49.50")).toBe(true);
    // seller_payable_breakdown.paypal_fee: the stand-in gives back 2.99% of 49.50.
    expect(refund.providerFees?.equals("1.48")).toBe(true);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe(`/v2/payments/captures/${captureId}/refund`);
    expect(sent.headers["paypal-request-id"]).toBe("refund-12");
    expect(sent.headers.prefer).toBe("return=representation");
    expect(sent.json).toEqual({ amount: { currency_code: "EUR", value: "49.50" }, note_to_payer: "Strap returned" });
    // A partly refunded capture is still a paid order.
    expect((await paypal.getPayment(orderId)).status).toBe("paid");
  });

  it("follows a refund with Show refund details, reading each of PayPal's statuses", async () => {
    const { orderId } = await capturedOrder();
    const { externalRefundId } = await paypal.refundPayment({ externalPaymentId: orderId, amount: "100.00", idempotencyKey: "refund-follow" });
    const expected = { PENDING: "pending", COMPLETED: "refunded", FAILED: "failed", CANCELLED: "canceled", SOME_NEW_STATUS: "pending" };
    for (const [theirs, ours] of Object.entries(expected)) {
      server.refunds.get(externalRefundId)!.status = theirs;
      const refund = await paypal.getRefund(orderId, externalRefundId);
      expect(refund, theirs).toMatchObject({ externalRefundId, status: ours, failureReason: null });
      expect(refund.amount.equals("100.00")).toBe(true);
      expect(refund.providerFees?.equals("2.99")).toBe(true);
    }
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", path: `/v2/payments/refunds/${externalRefundId}` });

    // A failed refund says why, where PayPal does.
    Object.assign(server.refunds.get(externalRefundId)!, { status: "FAILED", reason: "ECHECK" });
    expect(await paypal.getRefund(orderId, externalRefundId)).toMatchObject({ status: "failed", failureReason: "ECHECK" });

    await expect(paypal.getRefund(orderId, "0RF00000000000000")).rejects.toMatchObject({ code: "NOT_FOUND", providerStatus: 404 });
  });

  it("reports a refund PayPal refuses as plainly failed, in PayPal's words", async () => {
    const { orderId, captureId } = await capturedOrder("60.00");
    await paypal.refundPayment({ externalPaymentId: orderId, amount: "50.00", idempotencyKey: "refund-first" });
    const tooMuch = await paypal.refundPayment({ externalPaymentId: orderId, amount: "10.01", idempotencyKey: "refund-over" }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(PaymentProviderError);
    expect(tooMuch).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      providerStatus: 422,
      debugId: "f0d4bc7a9e2c1",
      message:
        "PayPal refused the request: UNPROCESSABLE_ENTITY: The requested action could not be performed, semantically incorrect, or failed business validation. [REFUND_AMOUNT_EXCEEDED: The refund amount must be less than or equal to the capture amount that has not yet been refunded.] (debug id f0d4bc7a9e2c1)",
    });
    expect(isRefundOutcomeUnknown(tooMuch)).toBe(false);
    expect(refundsAtPayPal(captureId)).toHaveLength(1);
  });

  it.each(["unavailable", "hang-up"] as const)("repeats a refund whose answer was lost (%s) with the same PayPal-Request-Id and gets the one refund PayPal made", async (how) => {
    const { orderId, captureId } = await capturedOrder();
    server.loseNextRefundAnswer(how);
    const request = { externalPaymentId: orderId, amount: "80.00", idempotencyKey: `refund-lost-${how}` };
    const lost = await paypal.refundPayment(request).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PaymentProviderError);
    expect(lost).toMatchObject(
      how === "unavailable" ? { providerStatus: 503, code: "INTERNAL_SERVER_ERROR" } : { providerStatus: null, message: expect.stringMatching(/^PayPal could not be reached: fetch failed \(other side closed\)$/) },
    );
    expect(isRefundOutcomeUnknown(lost)).toBe(true);
    // PayPal made the refund all the same.
    expect(refundsAtPayPal(captureId)).toHaveLength(1);

    const retried = await paypal.refundPayment(request);
    expect(retried).toMatchObject({ externalRefundId: refundsAtPayPal(captureId)[0]!.id, status: "refunded" });
    expect(retried.amount.equals("80.00")).toBe(true);
    expect(refundsAtPayPal(captureId)).toHaveLength(1);
    const sent = server.requests.filter((r) => r.path === `/v2/payments/captures/${captureId}/refund`);
    expect(sent.map((r) => r.headers["paypal-request-id"])).toEqual([request.idempotencyKey, request.idempotencyKey]);
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
    expect(await paypal.verifyWebhook(payPalWebhookHeaders(), JSON.stringify(event))).toBe(true);
    const sent = server.requests.at(-1)!.json as Record<string, unknown>;
    expect(sent).toMatchObject({ auth_algo: "SHA256withRSA", transmission_id: "69cd13f0-d67a-11e5-baa3-778b53f4ae55", webhook_id: "4JH86294D6297924G", webhook_event: event });

    expect(await paypal.verifyWebhook(payPalWebhookHeaders("forged"), JSON.stringify(event))).toBe(false);
    server.requests.length = 0;
    expect(await paypal.verifyWebhook(new Headers(), JSON.stringify(event))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
