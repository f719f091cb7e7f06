import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { startPayment } from "@/server/checkout/payment";
import { adminNotification, mailOutbox, order, paymentDetail, product, sandboxPayment } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createMolliePayments } from "@/server/integrations/payments/mollie";
import type { OnlinePaymentMethod } from "@/lib/payment-methods";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { completeSandboxPayment, createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { runWaitingJobs } from "@/server/jobs/worker";
import { logger } from "@/server/logger";
import { handleMollieWebhook } from "@/server/webhooks/service";
import type { CheckoutPaymentMethod } from "@/server/checkout/schemas";
import { placeOneWatchOrder } from "../../../tests/helpers/factories";
import { startProviderServer, type ProviderServer } from "../../../tests/helpers/provider-server";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { mailDeliveryJob } from "@/server/messages/jobs";
import { settlePaymentAndConfirm } from "./confirmation";
import { sweepUnpaidOrders, type OrderExpiryOptions } from "./unpaid-sweep";

/**
 * The unpaid-order sweep asks the provider before it expires anything (SECURITY-REVIEW M7, M9, L7), with the
 * sandbox provider, which keeps its payments in the database and calls the shop's webhook as Mollie does.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const hour = 60 * 60_000;
let t: TestDatabase;
let sandbox: PaymentsPort;
let shop: ProviderServer;
let options: OrderExpiryOptions;

const webhookUrl = () => `${shop.url}/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`;
const deliver = (paymentId: string) =>
  handleMollieWebhook(t.db, { url: webhookUrl(), body: `id=${paymentId}`, payments: sandbox, onPaymentUpdate: settlePaymentAndConfirm(now) });
const sweep = (at: Date = now) => sweepUnpaidOrders(t.db, options, logger, at);

/** Places a one-watch order paid by `method`, `ageHours` old, and starts its sandbox payment unless told not to. */
async function placed(email: string, method: OnlinePaymentMethod, ageHours: number, startsPayment = true) {
  const { watchId, ...placedOrder } = await placeOneWatchOrder(t.db, { email, method: method as CheckoutPaymentMethod, now });
  const watch = { id: watchId };
  await t.db.update(order).set({ createdAt: new Date(now.getTime() - ageHours * hour) }).where(eq(order.id, placedOrder.orderId));
  if (!startsPayment) return { ...placedOrder, paymentId: null, watchId: watch.id };
  await startPayment(t.db, placedOrder, { payments: sandbox, redirectUrl: "https://shop.example/checkout/return", webhookUrl: webhookUrl(), shopName: "Balance & Crown" });
  const [detail] = await t.db.select({ id: paymentDetail.externalPaymentId }).from(paymentDetail).where(eq(paymentDetail.orderId, placedOrder.orderId));
  return { ...placedOrder, paymentId: detail!.id!, watchId: watch.id };
}

const statusOf = async (orderId: number) => (await t.db.select({ status: order.status }).from(order).where(eq(order.id, orderId)))[0]!.status;
const stockOf = async (productId: number) => (await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId)))[0]!.stock;
const sandboxStatus = async (paymentId: string) => (await t.db.select({ status: sandboxPayment.status }).from(sandboxPayment).where(eq(sandboxPayment.id, paymentId)))[0]!.status;
const setSandboxStatus = (paymentId: string, status: string) => t.db.update(sandboxPayment).set({ status }).where(eq(sandboxPayment.id, paymentId));
/** The e-mails sent to `email`, once the queued e-mail jobs have run. */
const mailsTo = async (email: string) => {
  await runWaitingJobs(t.database, [mailDeliveryJob], logger);
  return t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
};

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `expiry-job-${process.pid}`) }), { products: 0, images: 0, now });
  sandbox = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
  options = { holds: { minutes: 30, paypalMinutes: 180 }, paymentsFor: () => sandbox };
  // The shop's Mollie webhook route, as src/app/api/webhooks/mollie/route.ts runs it, for the sandbox to call.
  shop = await startProviderServer(async (request) => {
    const paymentId = new URLSearchParams(request.body).get("id") ?? "";
    await deliver(paymentId);
    return { status: 200 };
  });
});

afterAll(async () => {
  await shop?.close();
  await t?.dispose();
});

describe("the unpaid-order sweep asks the provider first (M7)", () => {
  it("cancels an unfinished card payment at the provider together with its order, so the buyer can no longer pay it", async () => {
    const card = await placed("card@example.com", "IDEAL", 2);
    const fresh = await placed("fresh@example.com", "IDEAL", 0.25);

    const result = await sweep();
    expect(result.expired).toContain(card.orderNumber);
    expect(result.expired).not.toContain(fresh.orderNumber);
    expect(await statusOf(card.orderId)).toBe("CANCELLED");
    expect(await stockOf(card.watchId)).toBe(1);
    expect(await sandboxStatus(card.paymentId!)).toBe("canceled");
    expect(await statusOf(fresh.orderId)).toBe("PENDING");

    // The buyer comes back to the payment page too late: the payment is gone, nothing is paid, no webhook.
    expect((await completeSandboxPayment(t.db, card.paymentId!, "paid")).notified).toBe(false);
    expect(await sandboxStatus(card.paymentId!)).toBe("canceled");
    expect(await statusOf(card.orderId)).toBe("CANCELLED");
  });

  it("keeps a bank transfer order while the provider keeps its payment open, and expires it only after that", async () => {
    const transfer = await placed("transfer@example.com", "BANKTRANSFER", 2);

    const early = await sweep();
    expect(early.expired).not.toContain(transfer.orderNumber);
    expect(early.waiting.map((waiting) => waiting.orderNumber)).toContain(transfer.orderNumber);
    expect(await statusOf(transfer.orderId)).toBe("PENDING");
    expect(await sandboxStatus(transfer.paymentId!)).toBe("open");
    expect((await sweep(new Date(now.getTime() + 10 * 24 * hour))).expired).not.toContain(transfer.orderNumber);

    const late = await sweep(new Date(now.getTime() + 22 * 24 * hour));
    expect(late.expired).toContain(transfer.orderNumber);
    expect(await statusOf(transfer.orderId)).toBe("CANCELLED");
    expect(await sandboxStatus(transfer.paymentId!)).toBe("canceled");
  });

  it("keeps an order whose payment the buyer is in the middle of (pending), which the provider will not cancel", async () => {
    const busy = await placed("busy@example.com", "IDEAL", 2);
    await setSandboxStatus(busy.paymentId!, "pending");
    const result = await sweep();
    expect(result.waiting.map((waiting) => waiting.orderNumber)).toContain(busy.orderNumber);
    expect(await statusOf(busy.orderId)).toBe("PENDING");
    expect(await sandboxStatus(busy.paymentId!)).toBe("pending");
  });

  it("makes an order paid whose payment the provider says is paid although the webhook never came, sends its e-mail once, and hears the late webhook as a duplicate", async () => {
    const lost = await placed("lost-webhook@example.com", "IDEAL", 2);
    await setSandboxStatus(lost.paymentId!, "paid");

    const result = await sweep();
    expect(result.paid.map((paid) => paid.orderNumber)).toEqual([lost.orderNumber]);
    expect(result.expired).not.toContain(lost.orderNumber);
    expect(await statusOf(lost.orderId)).toBe("PAID_READY_TO_SHIP");
    const mails = await mailsTo("lost-webhook@example.com");
    expect(mails.map((mail) => mail.kind)).toEqual(["order-confirmation"]);

    expect((await deliver(lost.paymentId!)).result).toBe("duplicate");
    expect(await statusOf(lost.orderId)).toBe("PAID_READY_TO_SHIP");
    expect(await mailsTo("lost-webhook@example.com")).toHaveLength(1);
  });

  it("cancels an order whose payment failed at the provider although the webhook never came", async () => {
    const failed = await placed("failed-quietly@example.com", "IDEAL", 2);
    await setSandboxStatus(failed.paymentId!, "failed");
    expect((await sweep()).expired).toContain(failed.orderNumber);
    expect(await statusOf(failed.orderId)).toBe("CANCELLED");
    expect(await stockOf(failed.watchId)).toBe(1);
  });

  it("expires an order whose payment never started", async () => {
    const unstarted = await placed("unstarted@example.com", "IDEAL", 2, false);
    expect((await sweep()).expired).toContain(unstarted.orderNumber);
    expect(await statusOf(unstarted.orderId)).toBe("CANCELLED");
  });

  it("leaves orders for the next run when their provider cannot be reached", async () => {
    const unreachable = await placed("unreachable@example.com", "IDEAL", 2);
    const closed = await startProviderServer(() => ({ status: 200 }));
    await closed.close();
    const down = createMolliePayments({ apiKey: "test_x", baseUrl: `${closed.url}/v2` });

    const result = await sweepUnpaidOrders(t.db, { ...options, paymentsFor: () => down }, logger, now);
    const failed = result.failed.find((entry) => entry.orderNumber === unreachable.orderNumber);
    expect(failed?.error).toMatch(/^Mollie could not be reached/);
    expect(result.expired).toEqual([]);
    expect(await statusOf(unreachable.orderId)).toBe("PENDING");

    // The provider answers again: the order expires as it should.
    expect((await sweep()).expired).toContain(unreachable.orderNumber);
  });
});

describe("authorized payments and flagged payments in the sweep (M9, L7)", () => {
  it("captures a Klarna payment found authorized instead of expiring its order, which is paid once the capture is", async () => {
    const klarna = await placed("klarna-sweep@example.com", "KLARNAPAYNOW", 2);
    await setSandboxStatus(klarna.paymentId!, "authorized");

    const result = await sweep();
    expect(result.expired).not.toContain(klarna.orderNumber);
    expect(await sandboxStatus(klarna.paymentId!)).toBe("paid");
    expect(await statusOf(klarna.orderId)).toBe("PAID_READY_TO_SHIP");
    expect(await mailsTo("klarna-sweep@example.com")).toHaveLength(1);
  });

  it("authorises a Klarna payment on the hosted page, captures it through the webhook, and pays the order only then", async () => {
    const klarna = await placed("klarna-page@example.com", "KLARNAPAYNOW", 0);
    await completeSandboxPayment(t.db, klarna.paymentId!, "authorized");
    expect(await sandboxStatus(klarna.paymentId!)).toBe("paid");
    expect(await statusOf(klarna.orderId)).toBe("PAID_READY_TO_SHIP");
    expect(await mailsTo("klarna-page@example.com")).toHaveLength(1);
    await expect(completeSandboxPayment(t.db, (await placed("ideal-page@example.com", "IDEAL", 0)).paymentId!, "authorized")).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("keeps an order paid for a different amount PENDING for staff: the sweep does not expire it (L7)", async () => {
    const odd = await placed("odd-amount@example.com", "IDEAL", 2);
    await t.db.update(sandboxPayment).set({ amount: sql`${sandboxPayment.amount} - 1` }).where(eq(sandboxPayment.id, odd.paymentId!));
    await completeSandboxPayment(t.db, odd.paymentId!, "paid");
    const alerts = (await t.db.select().from(adminNotification).where(eq(adminNotification.severity, "ERROR"))).filter((alert) => alert.message.includes(odd.orderNumber));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.message).toContain("does not expire");

    const result = await sweep(new Date(now.getTime() + 30 * 24 * hour));
    expect(result.expired).not.toContain(odd.orderNumber);
    expect(await statusOf(odd.orderId)).toBe("PENDING");
    expect(await stockOf(odd.watchId)).toBe(0);
  });
});

describe("how long an unpaid order holds its pieces, by its payment method (N-H2)", () => {
  it("expires a card order once its minutes are over, a PayPal order after PayPal's hours, and a bank transfer only once the provider closes it", async () => {
    const card = await placed("hold-card@example.com", "CREDITCARD", 0.75);
    const paypal = await placed("hold-paypal@example.com", "PAYPAL", 0.75);
    const transfer = await placed("hold-transfer@example.com", "BANKTRANSFER", 0.75);

    const first = await sweep();
    expect(first.expired).toContain(card.orderNumber);
    expect(await statusOf(card.orderId)).toBe("CANCELLED");
    expect(await stockOf(card.watchId)).toBe(1);
    expect(await sandboxStatus(card.paymentId!)).toBe("canceled");
    const waiting = new Map(first.waiting.map((entry) => [entry.orderNumber, entry.reason]));
    expect(waiting.get(paypal.orderNumber)).toBe(`its PAYPAL payment can be paid until ${new Date(now.getTime() + (180 - 45) * 60_000).toISOString()}`);
    expect(waiting.get(transfer.orderNumber)).toBe(`its BANKTRANSFER payment can be paid until ${new Date(now.getTime() - 45 * 60_000 + 21 * 24 * hour).toISOString()}`);

    const afterPayPal = await sweep(new Date(now.getTime() + 3 * hour));
    expect(afterPayPal.expired).toContain(paypal.orderNumber);
    expect(afterPayPal.expired).not.toContain(transfer.orderNumber);
    expect(await statusOf(paypal.orderId)).toBe("CANCELLED");
    expect(await stockOf(paypal.watchId)).toBe(1);
    expect(await statusOf(transfer.orderId)).toBe("PENDING");
    expect(await stockOf(transfer.watchId)).toBe(0);
  });
});
