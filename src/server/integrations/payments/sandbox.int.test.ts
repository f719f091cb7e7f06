import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxRefund } from "@/server/db/schema";
import { isRefundOutcomeUnknown, PaymentProviderError, type PaymentsPort } from "@/server/integrations/payments/port";
import { completeSandboxPayment, createSandboxPayments, getSandboxCheckout } from "@/server/integrations/payments/sandbox";
import { webhookReceiverForFile } from "../../../../tests/helpers/stand-in";
import { databaseForFile } from "../../../../tests/helpers/test-database";

/**
 * Refunds at the sandbox payment provider, which pays them out at once and refuses them as Mollie does: a repeat with
 * the same idempotency key makes no second refund, a refund of more than is left (or of a payment not paid) is
 * refused, and two refunds at the same moment never pay back more than was paid. The shop's webhook endpoint only
 * has to answer: the payments are paid on the hosted page, which calls it.
 */

const t = databaseForFile();
const shop = webhookReceiverForFile(async () => undefined);
let sandbox: PaymentsPort;
let nextOrderId = 4000;

beforeAll(() => {
  sandbox = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
});

/** A payment of `amount`, paid by the buyer on the hosted page unless said otherwise. */
async function payment(amount = "100.00", { pay = true } = {}) {
  const orderId = nextOrderId++;
  const created = await sandbox.createPayment({
    orderId,
    amount,
    description: `Order ${orderId}`,
    method: "IDEAL",
    redirectUrl: "https://shop.example/checkout/return",
    webhookUrl: `${shop.url}/api/webhooks/mollie`,
    idempotencyKey: `order-${orderId}-1`,
  });
  if (pay) expect((await completeSandboxPayment(t.db, created.externalPaymentId, "paid")).notified).toBe(true);
  return created.externalPaymentId;
}

const refundsOf = (paymentId: string) => t.db.select().from(sandboxRefund).where(eq(sandboxRefund.paymentId, paymentId));

describe("sandbox refunds", () => {
  it("pays a refund out at once and reports it as the provider knows it", async () => {
    const paymentId = await payment();
    const refund = await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "30.00", idempotencyKey: "sbx-refund-1", description: "Strap returned" });
    expect(refund).toMatchObject({ status: "refunded", providerFees: null, failureReason: null });
    expect(refund.externalRefundId).toMatch(/^sbxre_/);
    expect(refund.amount.equals("30.00")).toBe(true);
    expect(await sandbox.getRefund(paymentId, refund.externalRefundId)).toEqual(refund);
  });

  it("makes one refund for a request repeated with the same key, also when both arrive at once", async () => {
    const paymentId = await payment();
    const request = { externalPaymentId: paymentId, amount: "25.00", idempotencyKey: "sbx-refund-repeat" };
    const first = await sandbox.refundPayment(request);
    expect(await sandbox.refundPayment(request)).toEqual(first);
    expect(await refundsOf(paymentId)).toHaveLength(1);

    const [a, b] = await Promise.all([
      sandbox.refundPayment({ ...request, idempotencyKey: "sbx-refund-at-once" }),
      sandbox.refundPayment({ ...request, idempotencyKey: "sbx-refund-at-once" }),
    ]);
    expect(a).toEqual(b);
    expect(await refundsOf(paymentId)).toHaveLength(2);
  });

  it("refuses a key already used for another refund", async () => {
    const paymentId = await payment();
    await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "10.00", idempotencyKey: "sbx-refund-reused" });
    await expect(sandbox.refundPayment({ externalPaymentId: paymentId, amount: "20.00", idempotencyKey: "sbx-refund-reused" })).rejects.toMatchObject({
      providerStatus: 422,
      message: "Sandbox refused the request: Unprocessable Entity: The idempotency key sbx-refund-reused was already used for another refund",
    });
    expect(await refundsOf(paymentId)).toHaveLength(1);
  });

  it("refuses more than is left of the payment, in Mollie's words, as a clear refusal", async () => {
    const paymentId = await payment("184.40");
    await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "84.40", idempotencyKey: "sbx-refund-part" });
    const error = await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "100.01", idempotencyKey: "sbx-refund-too-much" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      providerStatus: 422,
      message: `Sandbox refused the request: Unprocessable Entity: The refund amount is higher than the amount remaining (€100.00 of payment ${paymentId}) (field amount)`,
    });
    expect(isRefundOutcomeUnknown(error)).toBe(false);
    // What is left can still be refunded, to the cent.
    await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "100.00", idempotencyKey: "sbx-refund-rest" });
    expect(await refundsOf(paymentId)).toHaveLength(2);
  });

  it("refuses a refund of a payment that is not paid, or that it does not know", async () => {
    const open = await payment("50.00", { pay: false });
    const notPaid = await sandbox.refundPayment({ externalPaymentId: open, amount: "10.00", idempotencyKey: "sbx-refund-open" }).catch((e: unknown) => e);
    expect(notPaid).toMatchObject({ providerStatus: 422, message: "Sandbox refused the request: Unprocessable Entity: The payment is open; only a paid payment can be refunded" });
    expect(isRefundOutcomeUnknown(notPaid)).toBe(false);

    const unknown = sandbox.refundPayment({ externalPaymentId: "sbx_doesnotexist", amount: "10.00", idempotencyKey: "sbx-refund-unknown" });
    await expect(unknown).rejects.toMatchObject({ code: "NOT_FOUND", providerStatus: 404 });
    await expect(sandbox.getRefund(open, "sbxre_doesnotexist")).rejects.toMatchObject({ code: "NOT_FOUND", providerStatus: 404 });
  });

  it("lets only one of two refunds at the same moment through when together they exceed the payment", async () => {
    const paymentId = await payment("100.00");
    const results = await Promise.allSettled([
      sandbox.refundPayment({ externalPaymentId: paymentId, amount: "60.00", idempotencyKey: "sbx-race-a" }),
      sandbox.refundPayment({ externalPaymentId: paymentId, amount: "60.00", idempotencyKey: "sbx-race-b" }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((result) => result.status === "rejected")!;
    expect(refused.reason).toMatchObject({ providerStatus: 422 });
    expect(isRefundOutcomeUnknown(refused.reason)).toBe(false);
    const rows = await refundsOf(paymentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount.equals("60.00")).toBe(true);
  });

  it("never pays back more than was paid, however many refunds arrive at once", async () => {
    const paymentId = await payment("100.00");
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) => sandbox.refundPayment({ externalPaymentId: paymentId, amount: "30.00", idempotencyKey: `sbx-burst-${index}` })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    const total = (await refundsOf(paymentId)).reduce((sum, row) => sum.plus(row.amount), new Decimal(0));
    expect(total.equals("90.00")).toBe(true);
  });

  it("shows the payment's refunds and what is left on the hosted page's data", async () => {
    const paymentId = await payment("120.00");
    const first = await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "20.00", idempotencyKey: "sbx-page-1" });
    const second = await sandbox.refundPayment({ externalPaymentId: paymentId, amount: "35.50", idempotencyKey: "sbx-page-2" });
    const checkout = await getSandboxCheckout(t.db, paymentId);
    expect(checkout?.refunds.map((refund) => [refund.id, refund.amount.toFixed(2)])).toEqual([
      [first.externalRefundId, "20.00"],
      [second.externalRefundId, "35.50"],
    ]);
    expect(checkout?.refunds[0]!.createdAt).toBeInstanceOf(Date);
    expect(checkout?.remaining.equals("64.50")).toBe(true);
  });
});
