import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/env";
import { startPayment } from "@/server/checkout/payment";
import { adminNotification, logbook, mailOutbox, order, paymentDetail, webhookEvent } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createMolliePayments } from "@/server/integrations/payments/mollie";
import { createPayPalPayments, type PayPalPayments } from "@/server/integrations/payments/paypal";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { runWaitingJobs } from "@/server/jobs/worker";
import { logger } from "@/server/logger";
import { mailDeliveryJob } from "@/server/messages/jobs";
import { settlePaymentAndConfirm } from "@/server/orders/confirmation";
import { transitionOrder } from "@/server/orders/service";
import { handleMollieWebhook, handlePayPalWebhook } from "@/server/webhooks/service";
import { placeOneWatchOrder } from "../helpers/factories";
import {
  mollieTestKey,
  payPalCredentials,
  payPalWebhookHeaders,
  startMollieStandIn,
  startPayPalStandIn,
  type MollieStandIn,
  type PayPalStandIn,
} from "../helpers/provider-server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * Money that is only authorized is taken for an order still waiting for it, and counts as paid only once taken
 * (SECURITY-REVIEW M8, M9): the live Mollie and PayPal adapters against their stand-ins, the webhook handlers and
 * the orders domain on a real database.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
let t: TestDatabase;
let mollieServer: MollieStandIn;
let payPalServer: PayPalStandIn;
let mollie: PaymentsPort;
let paypal: PayPalPayments;

// What the webhook routes pass: the payment recorded, and a paid order's confirmation e-mail queued with it.
const onPaymentUpdate = settlePaymentAndConfirm(now);
const mollieWebhook = (paymentId: string) =>
  handleMollieWebhook(t.db, { url: `https://shop.example/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`, body: `id=${paymentId}`, payments: mollie, onPaymentUpdate });
const approvedWebhook = (payPalOrderId: string) =>
  handlePayPalWebhook(t.db, {
    headers: payPalWebhookHeaders(),
    rawBody: JSON.stringify({ id: `WH-${payPalOrderId}`, event_type: "CHECKOUT.ORDER.APPROVED", resource_type: "checkout-order", resource: { id: payPalOrderId } }),
    payments: paypal,
    onPaymentUpdate,
  });

/** Places a one-watch order paid by `method` and starts its payment with the adapter; returns its provider payment id. */
async function placed(email: string, method: "KLARNAPAYNOW" | "PAYPAL", payments: PaymentsPort) {
  const { watchId: _watchId, ...placedOrder } = await placeOneWatchOrder(t.db, { email, method, now });
  await startPayment(t.db, placedOrder, {
    payments,
    redirectUrl: `https://shop.example/checkout/confirmation/${placedOrder.orderNumber}`,
    webhookUrl: "https://shop.example/api/webhooks/mollie?secret=s",
    shopName: "Balance & Crown",
  });
  const [detail] = await t.db.select({ externalPaymentId: paymentDetail.externalPaymentId }).from(paymentDetail).where(eq(paymentDetail.orderId, placedOrder.orderId));
  return { ...placedOrder, paymentId: detail!.externalPaymentId! };
}

const statusOf = async (orderId: number) => (await t.db.select({ status: order.status }).from(order).where(eq(order.id, orderId)))[0]!.status;
const cancel = (orderId: number) => t.db.transaction((tx) => transitionOrder(tx, orderId, "CANCELLED", { userId: null, description: "Not paid in time", now }));
const alertsAbout = async (orderNumber: string) =>
  (await t.db.select().from(adminNotification).where(eq(adminNotification.severity, "ERROR"))).filter((alert) => alert.message.includes(orderNumber));

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `payments-capture-${process.pid}`) }), { products: 0, images: 0, now });
  mollieServer = await startMollieStandIn();
  payPalServer = await startPayPalStandIn();
  mollie = createMolliePayments({ apiKey: mollieTestKey, baseUrl: `${mollieServer.url}/v2` });
  const { clientId, clientSecret, webhookId } = payPalCredentials;
  paypal = createPayPalPayments({ clientId, clientSecret, webhookId, environment: "sandbox", baseUrl: payPalServer.url });
});

afterAll(async () => {
  await mollieServer?.close();
  await payPalServer?.close();
  await t?.dispose();
});

beforeEach(() => {
  mollieServer.requests.length = 0;
  payPalServer.requests.length = 0;
});

describe("PayPal: an approved order is captured only for an order still waiting for it (M8)", () => {
  it("leaves the PayPal order uncaptured when our order was cancelled, and tells staff once", async () => {
    const { orderId, orderNumber, paymentId } = await placed("late-paypal@example.com", "PAYPAL", paypal);
    await cancel(orderId);
    payPalServer.orders.get(paymentId)!.status = "APPROVED";

    expect(await approvedWebhook(paymentId)).toEqual({ result: "processed", externalPaymentId: paymentId, status: "authorized" });
    expect(payPalServer.requests.some((request) => request.path.endsWith("/capture"))).toBe(false);
    expect(payPalServer.orders.get(paymentId)!.status).toBe("APPROVED");
    expect(await statusOf(orderId)).toBe("CANCELLED");
    const alerts = await alertsAbout(orderNumber);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.message).toContain("left uncaptured");
    const [logged] = await t.db.select().from(logbook).where(and(eq(logbook.entityId, String(orderId)), eq(logbook.logLevel, "ERROR")));
    expect(logged?.description).toContain(orderNumber);

    // PayPal sends the event again: still no capture, no second alert.
    expect((await approvedWebhook(paymentId)).result).toBe("duplicate");
    expect(payPalServer.requests.some((request) => request.path.endsWith("/capture"))).toBe(false);
    expect(await alertsAbout(orderNumber)).toHaveLength(1);
  });

  it("captures an approved order for a PENDING order and makes that order paid", async () => {
    const { orderId, paymentId } = await placed("paypal@example.com", "PAYPAL", paypal);
    payPalServer.orders.get(paymentId)!.status = "APPROVED";

    expect(await approvedWebhook(paymentId)).toEqual({ result: "processed", externalPaymentId: paymentId, status: "paid" });
    expect(payPalServer.requests.filter((request) => request.path === `/v2/checkout/orders/${paymentId}/capture`)).toHaveLength(1);
    expect(await statusOf(orderId)).toBe("PAID_READY_TO_SHIP");
    const events = await t.db.select({ status: webhookEvent.status }).from(webhookEvent).where(eq(webhookEvent.externalPaymentId, paymentId));
    expect(events).toEqual([{ status: "paid" }]);
    expect((await approvedWebhook(paymentId)).result).toBe("duplicate");
  });
});

describe("Mollie: an authorized (Klarna) payment is captured and paid only when Mollie says so (M9)", () => {
  it("asks Mollie for the capture, keeps the order PENDING and sends no e-mail until Mollie reports the payment paid", async () => {
    const { orderId, paymentId } = await placed("klarna@example.com", "KLARNAPAYNOW", mollie);
    Object.assign(mollieServer.payments.get(paymentId)!, { status: "authorized", captureLater: true });
    const sentTo = async (email: string) => {
      await runWaitingJobs(t.database, [mailDeliveryJob], logger);
      return t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    };

    const authorized = await mollieWebhook(paymentId);
    expect(authorized).toEqual({ result: "capturing", externalPaymentId: paymentId, status: "authorized" });
    expect(mollieServer.requests.filter((request) => request.method === "POST" && request.path === `/v2/payments/${paymentId}/captures`)).toHaveLength(1);
    expect(await statusOf(orderId)).toBe("PENDING");
    expect(await sentTo("klarna@example.com")).toHaveLength(0);

    mollieServer.payments.get(paymentId)!.status = "paid";
    const paid = await mollieWebhook(paymentId);
    expect(paid).toEqual({ result: "processed", externalPaymentId: paymentId, status: "paid" });
    expect(await statusOf(orderId)).toBe("PAID_READY_TO_SHIP");
    expect(await sentTo("klarna@example.com")).toHaveLength(1);
  });

  it("does not capture an authorized payment whose order was cancelled, and tells staff", async () => {
    const { orderId, orderNumber, paymentId } = await placed("klarna-late@example.com", "KLARNAPAYNOW", mollie);
    await cancel(orderId);
    mollieServer.payments.get(paymentId)!.status = "authorized";

    expect(await mollieWebhook(paymentId)).toMatchObject({ result: "processed", status: "authorized" });
    expect(mollieServer.requests.some((request) => request.path.endsWith("/captures"))).toBe(false);
    expect(await statusOf(orderId)).toBe("CANCELLED");
    expect(await alertsAbout(orderNumber)).toHaveLength(1);
  });
});
