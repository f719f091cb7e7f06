import { count, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { sandboxPayment, webhookEvent } from "@/server/db/schema";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { completeSandboxPayment, createSandboxPayments, getSandboxCheckout } from "@/server/integrations/payments/sandbox";
import type { PaymentUpdate } from "@/server/webhooks/schemas";
import { handleMollieWebhook, webhookSecretMatches } from "@/server/webhooks/service";
import { webhookReceiverForFile } from "../../../tests/helpers/stand-in";
import { databaseForFile } from "../../../tests/helpers/test-database";

/**
 * Acceptance 3: a replayed event, an event with a bad secret, and an event whose body lies about the status change
 * nothing. The provider is the sandbox (the embedded default), which keeps its payments in the database and calls
 * the webhook as Mollie does; the orders domain is stood in for by a callback that records what it is given.
 */

const t = databaseForFile();
let sandbox: PaymentsPort;
let updates: PaymentUpdate[];

const recordUpdate = async (_tx: Db, update: PaymentUpdate) => {
  updates.push(update);
};

const deliver = (body: string, url = webhookUrl()) => handleMollieWebhook(t.db, { url, body, payments: sandbox, onPaymentUpdate: recordUpdate });

/** The shop's webhook endpoint, as the route handler will be: it answers 200 for whatever the core decides. */
const shop = webhookReceiverForFile((url, body) => deliver(body, url));

const webhookUrl = (secret = env.WEBHOOK_SECRET) => `${shop.url}/api/webhooks/mollie?secret=${encodeURIComponent(secret)}`;

async function newPayment(orderId: number, key = `order-${orderId}-1`) {
  return sandbox.createPayment({
    orderId,
    amount: "184.40",
    description: `Order ${orderId}`,
    method: "IDEAL",
    redirectUrl: "https://shop.example/checkout/return",
    webhookUrl: webhookUrl(),
    idempotencyKey: key,
  });
}

beforeAll(() => {
  sandbox = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example/" });
});

beforeEach(() => {
  updates = [];
});

describe("sandbox payment provider", () => {
  it("creates an open payment whose checkout is our hosted page, once per idempotency key", async () => {
    const first = await newPayment(2001);
    expect(first.status).toBe("open");
    expect(first.checkoutUrl).toBe(`https://shop.example/sandbox/pay/${first.externalPaymentId}`);
    expect(await newPayment(2001)).toEqual(first);
    const [{ value }] = (await t.db.select({ value: count() }).from(sandboxPayment).where(eq(sandboxPayment.orderId, 2001))) as [{ value: number }];
    expect(value).toBe(1);

    const checkout = await getSandboxCheckout(t.db, first.externalPaymentId);
    expect(checkout).toMatchObject({ orderId: 2001, description: "Order 2001", method: "IDEAL", status: "open" });
    expect(checkout?.amount.equals("184.40")).toBe(true);
  });

  it("records the buyer's choice, calls the webhook with only the id, and lets the webhook fetch the status", async () => {
    const payment = await newPayment(2002);
    const done = await completeSandboxPayment(t.db, payment.externalPaymentId, "paid");
    expect(done).toEqual({ redirectUrl: "https://shop.example/checkout/return", notified: true });
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ provider: "sandbox", externalPaymentId: payment.externalPaymentId, status: "paid", orderId: 2002, method: "IDEAL" });
    expect(updates[0]!.amount.equals("184.40")).toBe(true);

    // A second press (another tab, the back button) neither changes the outcome nor calls the webhook again.
    expect(await completeSandboxPayment(t.db, payment.externalPaymentId, "failed")).toEqual({ redirectUrl: "https://shop.example/checkout/return", notified: false });
    expect((await sandbox.getPayment(payment.externalPaymentId)).status).toBe("paid");
    expect(updates).toHaveLength(1);
  });

  it("hands every final outcome to the orders domain", async () => {
    for (const [index, outcome] of (["failed", "canceled", "expired"] as const).entries()) {
      const payment = await newPayment(2010 + index);
      await completeSandboxPayment(t.db, payment.externalPaymentId, outcome);
    }
    expect(updates.map((u) => [u.orderId, u.status])).toEqual([
      [2010, "failed"],
      [2011, "canceled"],
      [2012, "expired"],
    ]);
  });
});

describe("payment webhooks", () => {
  it("a replayed event changes nothing", async () => {
    const payment = await newPayment(3001);
    await completeSandboxPayment(t.db, payment.externalPaymentId, "paid");
    expect(updates).toHaveLength(1);

    const replay = await deliver(`id=${payment.externalPaymentId}`);
    expect(replay).toEqual({ result: "duplicate", externalPaymentId: payment.externalPaymentId, status: "paid" });
    // Replays at once, as a provider retrying a timed-out call might.
    const burst = await Promise.all([1, 2, 3].map(() => deliver(`id=${payment.externalPaymentId}`)));
    expect(burst.map((outcome) => outcome.result)).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect(updates).toHaveLength(1);
    const rows = await t.db.select().from(webhookEvent).where(eq(webhookEvent.externalPaymentId, payment.externalPaymentId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: "sandbox", status: "paid" });
  });

  it("an event with a bad or missing secret changes nothing", async () => {
    const payment = await newPayment(3002);
    await t.db.update(sandboxPayment).set({ status: "paid" }).where(eq(sandboxPayment.id, payment.externalPaymentId));

    await expect(deliver(`id=${payment.externalPaymentId}`, webhookUrl("not-the-secret-but-just-as-long-as-it-0000"))).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(deliver(`id=${payment.externalPaymentId}`, `${shop.url}/api/webhooks/mollie`)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(updates).toHaveLength(0);
    expect(await t.db.select().from(webhookEvent).where(eq(webhookEvent.externalPaymentId, payment.externalPaymentId))).toHaveLength(0);

    // The real secret, then, is heard.
    expect((await deliver(`id=${payment.externalPaymentId}`)).result).toBe("processed");
    expect(updates).toHaveLength(1);
  });

  it("an event whose body lies about the status changes nothing: the status is fetched from the provider", async () => {
    const payment = await newPayment(3003);
    const outcome = await deliver(`id=${payment.externalPaymentId}&status=paid&amount=0.01`);
    expect(outcome).toEqual({ result: "not-settled", externalPaymentId: payment.externalPaymentId, status: "open" });
    expect(updates).toHaveLength(0);
    expect(await t.db.select().from(webhookEvent).where(eq(webhookEvent.externalPaymentId, payment.externalPaymentId))).toHaveLength(0);

    // When the buyer really fails, the failure is what the callback hears, whatever a forged body said before.
    await completeSandboxPayment(t.db, payment.externalPaymentId, "failed");
    expect(updates.map((u) => u.status)).toEqual(["failed"]);
  });

  it("ignores ids the provider does not know and refuses bodies without an id", async () => {
    expect(await deliver("id=sbx_unknown")).toEqual({ result: "ignored", externalPaymentId: "sbx_unknown" });
    await expect(deliver("status=paid")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(updates).toHaveLength(0);
  });

  it("rolls the record back when the orders domain fails, so the provider's retry is heard", async () => {
    const payment = await newPayment(3004);
    await t.db.update(sandboxPayment).set({ status: "paid" }).where(eq(sandboxPayment.id, payment.externalPaymentId));
    const failing = () => Promise.reject(new Error("database hiccup"));
    await expect(handleMollieWebhook(t.db, { url: webhookUrl(), body: `id=${payment.externalPaymentId}`, payments: sandbox, onPaymentUpdate: failing })).rejects.toThrow("database hiccup");
    expect((await deliver(`id=${payment.externalPaymentId}`)).result).toBe("processed");
    expect(updates).toHaveLength(1);
  });

  it("compares the secret in constant time and only accepts the exact secret", () => {
    expect(webhookSecretMatches(env.WEBHOOK_SECRET)).toBe(true);
    expect(webhookSecretMatches(`${env.WEBHOOK_SECRET}x`)).toBe(false);
    expect(webhookSecretMatches(env.WEBHOOK_SECRET.slice(0, -1))).toBe(false);
    expect(webhookSecretMatches("")).toBe(false);
    expect(webhookSecretMatches(null)).toBe(false);
  });
});
