import { Decimal } from "decimal.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createMolliePayments } from "@/server/integrations/payments/mollie";
import { isRefundOutcomeUnknown, PaymentProviderError, type PaymentsPort } from "@/server/integrations/payments/port";
import { mollieTestKey, startMollieStandIn, startProviderServer } from "../../../../tests/helpers/provider-server";
import { standInForFile } from "../../../../tests/helpers/stand-in";

/**
 * Acceptance 4 (Mollie): the live adapter against a local server that answers as Mollie's Payments API v2 documents
 * (PROVIDERS.md section 1): HAL payment, capture and refund resources, and `{status, title, detail, field}` errors.
 */

const server = standInForFile(startMollieStandIn);
let mollie: PaymentsPort;

beforeAll(() => {
  mollie = createMolliePayments({ apiKey: mollieTestKey, baseUrl: `${server.url}/v2` });
});

// The stand-in, like Mollie, answers a repeated key with the payment made first: each payment has its own key.
let payments = 0;
const newPayment = (overrides: Partial<Parameters<PaymentsPort["createPayment"]>[0]> = {}) =>
  mollie.createPayment({
    orderId: 1001,
    amount: new Decimal("129.9"),
    description: "Order 1001",
    method: "IDEAL",
    redirectUrl: "https://shop.example/checkout/return",
    webhookUrl: "https://shop.example/api/webhooks/mollie?secret=s",
    idempotencyKey: `order-1001-payment-${++payments}`,
    ...overrides,
  });

describe("live Mollie adapter", () => {
  it("creates a payment: amount as a two-decimal string, Mollie's method id, our order id as metadata, the key as Idempotency-Key", async () => {
    const created = await newPayment({ idempotencyKey: "order-1001-payment-1" });
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
    // Asked again with the same key (a retried checkout), Mollie answers with the payment it made.
    expect(await newPayment({ idempotencyKey: "order-1001-payment-1" })).toEqual(created);
  });

  it("reads a payment's real status, amount, method and order id", async () => {
    const created = await newPayment({ method: "KLARNAPAYNOW" });
    server.payments.get(created.externalPaymentId)!.status = "paid";
    const payment = await mollie.getPayment(created.externalPaymentId);
    expect(payment).toMatchObject({ externalPaymentId: created.externalPaymentId, status: "paid", method: "KLARNAPAYNOW", orderId: 1001 });
    expect(payment.amount.equals("129.90")).toBe(true);
  });

  it("captures an authorized payment and leaves any other payment alone", async () => {
    const created = await newPayment({ method: "CREDITCARD" });
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("open");
    expect(server.requests.some((r) => r.path.endsWith("/captures"))).toBe(false);

    server.payments.get(created.externalPaymentId)!.status = "authorized";
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("paid");
    const capture = server.requests.find((r) => r.path.endsWith("/captures"))!;
    expect(capture.headers["idempotency-key"]).toBe(`capture-${created.externalPaymentId}`);
  });

  it("leaves a payment authorized while Mollie carries the capture out, and takes a repeated capture request calmly", async () => {
    const created = await newPayment({ method: "KLARNAPAYNOW" });
    Object.assign(server.payments.get(created.externalPaymentId)!, { status: "authorized", captureLater: true });
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("authorized");
    // Asked again (a retried webhook, the sweep): Mollie refuses a second capture, the payment is still authorized.
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("authorized");
    expect(server.requests.filter((r) => r.path.endsWith("/captures"))).toHaveLength(2);
    server.payments.get(created.externalPaymentId)!.status = "paid";
    expect((await mollie.capturePayment(created.externalPaymentId)).status).toBe("paid");
    expect(server.requests.filter((r) => r.path.endsWith("/captures"))).toHaveLength(2);
  });

  it("cancels an open payment with DELETE and leaves one Mollie will not cancel, or that has moved on, as it is", async () => {
    const open = await newPayment({ method: "BANKTRANSFER" });
    const canceled = await mollie.cancelPayment(open.externalPaymentId);
    expect(canceled.status).toBe("canceled");
    expect(server.requests.at(-1)).toMatchObject({ method: "DELETE", path: `/v2/payments/${open.externalPaymentId}` });

    const stuck = await newPayment();
    Object.assign(server.payments.get(stuck.externalPaymentId)!, { status: "pending" });
    server.requests.length = 0;
    expect((await mollie.cancelPayment(stuck.externalPaymentId)).status).toBe("pending");
    const authorized = await newPayment({ method: "KLARNAPAYNOW" });
    server.payments.get(authorized.externalPaymentId)!.status = "authorized";
    expect((await mollie.cancelPayment(authorized.externalPaymentId)).status).toBe("authorized");
    expect(server.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  /** A payment the buyer has paid at Mollie. */
  async function paidPayment(amount = "129.90") {
    const created = await newPayment({ amount });
    server.payments.get(created.externalPaymentId)!.status = "paid";
    return created.externalPaymentId;
  }

  const refundsAtMollie = (paymentId: string) => [...server.refunds.values()].filter((refund) => refund.paymentId === paymentId);

  it("refunds part of a payment with the caller's idempotency key", async () => {
    const paymentId = await paidPayment();
    const refund = await mollie.refundPayment({ externalPaymentId: paymentId, amount: "29.90", idempotencyKey: "refund-7", description: "Crystal returned" });
    expect(refund).toMatchObject({ status: "pending", providerFees: null, failureReason: null });
    expect(refund.externalRefundId).toMatch(/^re_/);
    expect(refund.amount.equals("29.90")).toBe(true);
    expect(refundsAtMollie(paymentId).map((r) => r.id)).toEqual([refund.externalRefundId]);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe(`/v2/payments/${paymentId}/refunds`);
    expect(sent.headers["idempotency-key"]).toBe("refund-7");
    expect(sent.json).toEqual({ amount: { currency: "EUR", value: "29.90" }, description: "Crystal returned" });
    expect((await mollie.getPayment(paymentId)).status).toBe("paid");
  });

  it("follows a refund with Get payment refund, reading each of Mollie's statuses", async () => {
    const paymentId = await paidPayment();
    const { externalRefundId } = await mollie.refundPayment({ externalPaymentId: paymentId, amount: "10.00", idempotencyKey: "refund-follow" });
    const expected = { queued: "pending", pending: "pending", processing: "pending", refunded: "refunded", failed: "failed", canceled: "canceled", "some-new-status": "pending" };
    for (const [theirs, ours] of Object.entries(expected)) {
      server.refunds.get(externalRefundId)!.status = theirs;
      const refund = await mollie.getRefund(paymentId, externalRefundId);
      expect(refund, theirs).toMatchObject({ externalRefundId, status: ours, providerFees: null, failureReason: null });
      expect(refund.amount.equals("10.00")).toBe(true);
    }
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", path: `/v2/payments/${paymentId}/refunds/${externalRefundId}` });

    // Mollie knows a refund only on its own payment.
    const other = await paidPayment();
    await expect(mollie.getRefund(other, externalRefundId)).rejects.toMatchObject({ code: "NOT_FOUND", providerStatus: 404, message: `Mollie refused the request: Not Found: No refund exists with token ${externalRefundId}.` });
  });

  it("reports a refund Mollie refuses as plainly failed, in Mollie's words", async () => {
    const paymentId = await paidPayment();
    const tooMuch = await mollie.refundPayment({ externalPaymentId: paymentId, amount: "129.91", idempotencyKey: "refund-over" }).catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(PaymentProviderError);
    expect(tooMuch).toMatchObject({ providerStatus: 422, message: "Mollie refused the request: Unprocessable Entity: The refund amount is higher than the amount remaining (field amount)" });
    expect(isRefundOutcomeUnknown(tooMuch)).toBe(false);

    const open = (await newPayment()).externalPaymentId;
    const notPaid = await mollie.refundPayment({ externalPaymentId: open, amount: "1.00", idempotencyKey: "refund-open" }).catch((e: unknown) => e);
    expect(notPaid).toMatchObject({ providerStatus: 422, message: "Mollie refused the request: Unprocessable Entity: The payment cannot be refunded" });
    expect(isRefundOutcomeUnknown(notPaid)).toBe(false);
    expect(refundsAtMollie(paymentId)).toHaveLength(0);
    expect(refundsAtMollie(open)).toHaveLength(0);
  });

  it.each(["unavailable", "hang-up"] as const)("repeats a refund whose answer was lost (%s) with the same key and gets the one refund Mollie made", async (how) => {
    const paymentId = await paidPayment();
    server.loseNextRefundAnswer(how);
    const request = { externalPaymentId: paymentId, amount: "50.00", idempotencyKey: `refund-lost-${how}` };
    const lost = await mollie.refundPayment(request).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PaymentProviderError);
    expect(lost).toMatchObject(
      how === "unavailable" ? { providerStatus: 503, code: "INTERNAL_SERVER_ERROR" } : { providerStatus: null, message: expect.stringMatching(/^Mollie could not be reached: fetch failed \(other side closed\)$/) },
    );
    expect(isRefundOutcomeUnknown(lost)).toBe(true);
    // Mollie made the refund all the same.
    expect(refundsAtMollie(paymentId)).toHaveLength(1);

    const retried = await mollie.refundPayment(request);
    expect(retried.externalRefundId).toBe(refundsAtMollie(paymentId)[0]!.id);
    expect(retried.amount.equals("50.00")).toBe(true);
    expect(refundsAtMollie(paymentId)).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === "POST" && r.path.endsWith("/refunds")).map((r) => r.headers["idempotency-key"])).toEqual([request.idempotencyKey, request.idempotencyKey]);
  });

  it("turns Mollie's error documents into clear errors", async () => {
    const unknown = mollie.getPayment("tr_doesNotExist");
    await expect(unknown).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(unknown).rejects.toMatchObject({ code: "NOT_FOUND", providerStatus: 404, message: "Mollie refused the request: Not Found: No payment exists with token tr_doesNotExist." });

    const created = await newPayment();
    server.payments.get(created.externalPaymentId)!.status = "paid";
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
