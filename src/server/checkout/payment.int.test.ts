import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { startPayment } from "@/server/checkout/payment";
import { placeOrder } from "@/server/checkout/service";
import { adminNotification, mailOutbox, order, orderDetail, product, stockRecord } from "@/server/db/schema";
import { completeSandboxPayment, createSandboxPayments } from "@/server/integrations/payments/sandbox";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { runWaitingJobs } from "@/server/jobs/worker";
import { logger } from "@/server/logger";
import { mailDeliveryJob } from "@/server/messages/jobs";
import { queueOrderConfirmation, settlePaymentAndConfirm } from "@/server/orders/confirmation";
import { orderTokenMatches } from "@/server/orders/order-token";
import { expireUnpaidOrders, transitionOrder } from "@/server/orders/service";
import { handleMollieWebhook } from "@/server/webhooks/service";
import type { WebhookOutcome } from "@/server/webhooks/schemas";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { webhookReceiverForFile } from "../../../tests/helpers/stand-in";
import { queryRows } from "../../../tests/helpers/test-database";

/**
 * Paying for orders (issue 5, acceptance 3 at the order level): the sandbox provider calls our webhook, which moves
 * the order; replays, a bad secret and a lying body change nothing; unpaid orders expire and give their stock back.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
let payments: PaymentsPort;
const outcomes: WebhookOutcome[] = [];

const deliver = (body: string, url = webhookUrl()) =>
  handleMollieWebhook(t.db, { url, body, payments, onPaymentUpdate: settlePaymentAndConfirm(now) });

// The shop's webhook route, as src/app/api/webhooks/mollie/route.ts runs it, on a real port for the sandbox to call.
const shop = webhookReceiverForFile(async (url, body) => {
  outcomes.push(await deliver(body, url));
});

const webhookUrl = (secret = env.WEBHOOK_SECRET) => `${shop.url}/api/webhooks/mollie?secret=${encodeURIComponent(secret)}`;

async function stockOf(productId: number) {
  const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId));
  const [ledger] = await queryRows<{ total: string | number }>(t.db, sql`select coalesce(sum(${stockRecord.quantity}), 0) as total from ${stockRecord} where ${stockRecord.productId} = ${productId}`);
  return { stock: row!.stock, ledger: Number(ledger!.total) };
}

async function orderStatus(orderId: number) {
  const [row] = await t.db.select({ status: order.status, soldAt: order.soldAt }).from(order).where(eq(order.id, orderId));
  return row!;
}

/** Places an order for two products and starts its sandbox payment. */
async function paidFor(email: string, quantities: [number, number] = [1, 2]) {
  const watch = await makeStockedProduct(t.db, { name: `Watch for ${email}`, price: "60.00", stock: 3 });
  const strap = await makeStockedProduct(t.db, { name: `Strap for ${email}`, price: "10.00", stock: 5 });
  const placed = await placeOrder(
    t.db,
    {
      email,
      address: { firstName: "Ada", lastName: "Lovelace", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "NL" },
      shippingMethod: "TNT",
      paymentMethod: "IDEAL",
      items: [
        { productId: watch.id, quantity: quantities[0] },
        { productId: strap.id, quantity: quantities[1] },
      ],
    },
    { userId: null },
    now,
  );
  const { checkoutUrl } = await startPayment(t.db, placed, {
    payments,
    redirectUrl: `https://shop.example/checkout/confirmation/${placed.orderNumber}`,
    webhookUrl: webhookUrl(),
    shopName: "Balance & Crown",
  });
  const paymentId = checkoutUrl.split("/").pop()!;
  return { placed, paymentId, watch, strap };
}

beforeAll(async () => {
  payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
});

describe("paying for an order", () => {
  it("makes a paid order PAID_READY_TO_SHIP, sets soldAt and sends one confirmation e-mail, also when replayed", async () => {
    const { placed, paymentId } = await paidFor("paid@example.com");
    expect((await orderStatus(placed.orderId)).status).toBe("PENDING");
    await completeSandboxPayment(t.db, paymentId, "paid");
    const paid = await orderStatus(placed.orderId);
    expect(paid.status).toBe("PAID_READY_TO_SHIP");
    expect(paid.soldAt).toEqual(now);

    // The e-mail was queued with the payment; the worker sends it.
    await runWaitingJobs(t.database, [mailDeliveryJob], logger);
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "paid@example.com"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.kind).toBe("order-confirmation");
    expect(mails[0]!.subject).toContain(placed.orderNumber);
    expect(mails[0]!.html).toContain("Tracked parcel");
    expect(mails[0]!.html).not.toContain("TNT");
    expect(mails[0]!.html).toContain("€80.00");
    const link = new URL(mails[0]!.links[0]!);
    expect(await orderTokenMatches(env.TOKEN_SECRET, link.searchParams.get("token"), placed.orderNumber)).toBe(true);
    const [detail] = await t.db.select({ orderEmailSent: orderDetail.orderEmailSent }).from(orderDetail).where(eq(orderDetail.orderId, placed.orderId));
    expect(detail!.orderEmailSent).toBe(true);

    // The provider calls again (a retry, or someone replaying the request): nothing changes, no second e-mail.
    expect(await deliver(`id=${paymentId}`)).toMatchObject({ result: "duplicate" });
    await queueOrderConfirmation(t.db, placed.orderNumber);
    await runWaitingJobs(t.database, [mailDeliveryJob], logger);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "paid@example.com"))).toHaveLength(1);
    expect(await orderStatus(placed.orderId)).toEqual(paid);
  });

  it("makes a paid order PAID_FUTURE_SHIPMENT when it is to ship after the next shipping day", async () => {
    const { placed, paymentId } = await paidFor("later@example.com");
    await t.db.update(orderDetail).set({ estimatedShippingDate: "2026-03-13" }).where(eq(orderDetail.orderId, placed.orderId));
    await completeSandboxPayment(t.db, paymentId, "paid");
    expect((await orderStatus(placed.orderId)).status).toBe("PAID_FUTURE_SHIPMENT");
  });

  it.each(["failed", "canceled", "expired"] as const)("cancels the order and returns its stock when the payment is %s", async (outcome) => {
    const { placed, paymentId, watch, strap } = await paidFor(`${outcome}@example.com`);
    expect(await stockOf(watch.id)).toEqual({ stock: 2, ledger: 2 });
    await completeSandboxPayment(t.db, paymentId, outcome);
    expect((await orderStatus(placed.orderId)).status).toBe("CANCELLED");
    expect(await stockOf(watch.id)).toEqual({ stock: 3, ledger: 3 });
    expect(await stockOf(strap.id)).toEqual({ stock: 5, ledger: 5 });
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, `${outcome}@example.com`))).toHaveLength(0);
  });

  it("changes nothing for a webhook with a bad secret", async () => {
    const { placed, paymentId } = await paidFor("badsecret@example.com");
    await t.db.execute(sql`update sandbox_payment set status = 'paid' where id = ${paymentId}`);
    await expect(deliver(`id=${paymentId}`, webhookUrl("not-the-webhook-secret-but-long-enough-000"))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(deliver(`id=${paymentId}`, `${shop.url}/api/webhooks/mollie`)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await orderStatus(placed.orderId)).status).toBe("PENDING");
  });

  it("changes nothing for a body that lies about the status", async () => {
    const { placed, paymentId, watch } = await paidFor("liar@example.com");
    expect(await deliver(`id=${paymentId}&status=paid`)).toMatchObject({ result: "not-settled", status: "open" });
    expect(await deliver(`id=${paymentId}&status=failed`)).toMatchObject({ result: "not-settled" });
    expect((await orderStatus(placed.orderId)).status).toBe("PENDING");
    expect(await stockOf(watch.id)).toEqual({ stock: 2, ledger: 2 });
  });

  it("refuses to move an order the state machine does not allow", async () => {
    const { placed } = await paidFor("machine@example.com");
    await expect(t.db.transaction((tx) => transitionOrder(tx, placed.orderId, "SHIPPED", { userId: null, description: "test" }))).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("unpaid orders", () => {
  it("expire after the timeout, their payment cancelled at the provider, and give their stock back; money that still arrives only alerts staff", async () => {
    const { placed: old, paymentId, watch } = await paidFor("slow@example.com");
    const { placed: fresh } = await paidFor("fresh@example.com");
    await t.db.update(order).set({ createdAt: new Date(now.getTime() - 2 * 60 * 60_000) }).where(eq(order.id, old.orderId));
    const sweep = () => expireUnpaidOrders(t.db, { holds: { minutes: 60, paypalMinutes: 60 }, paymentsFor: () => payments, now });

    const { expired } = await sweep();
    expect(expired).toContain(old.orderNumber);
    expect(expired).not.toContain(fresh.orderNumber);
    expect((await orderStatus(old.orderId)).status).toBe("CANCELLED");
    expect((await orderStatus(fresh.orderId)).status).toBe("PENDING");
    expect((await payments.getPayment(paymentId)).status).toBe("canceled");
    expect(await stockOf(watch.id)).toEqual({ stock: 3, ledger: 3 });
    expect((await sweep()).expired).toEqual([]);

    // A provider that took the money anyway: the order stays cancelled and staff are told to refund it.
    await t.db.execute(sql`update sandbox_payment set status = 'paid' where id = ${paymentId}`);
    expect(await deliver(`id=${paymentId}`)).toMatchObject({ result: "processed", status: "paid" });
    expect((await orderStatus(old.orderId)).status).toBe("CANCELLED");
    const alerts = await t.db.select().from(adminNotification).where(eq(adminNotification.severity, "ERROR"));
    expect(alerts.some((alert) => alert.message.includes(old.orderNumber))).toBe(true);
  });
});
