import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSidebarInformation } from "@/server/admin/sidebar-service";
import { rawRows } from "@/server/db/raw-rows";
import { adminNotification, logbook, mailMessage, mailOutbox, order, paymentDetail, product, refund, sandboxRefund, stockRecord } from "@/server/db/schema";
import { createLabel } from "@/server/fulfilment/labels";
import type { FulfilmentPorts } from "@/server/fulfilment/ports";
import { markShipped } from "@/server/fulfilment/tracking";
import { createSandboxCarrier } from "@/server/integrations/carriers/sandbox";
import { PaymentProviderError, type PaymentsPort } from "@/server/integrations/payments/port";
import { createSandboxPrivateStorage } from "@/server/integrations/storage/sandbox";
import { logger } from "@/server/logger";
import { createManualOrderInput, updateManualOrderInput } from "@/server/orders/manual-order-schemas";
import { createManualOrder, updateManualOrder } from "@/server/orders/manual-order-service";
import { issueOrderToken } from "@/server/orders/order-token";
import { getOrderView, viewOrderConfirmation } from "@/server/orders/view";
import { createCaller } from "@/server/root";
import { reconcileStock } from "@/server/stock/reconciliation";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct, placeGuestOrder } from "../../../tests/helpers/factories";
import { startPaidOrders } from "../../../tests/helpers/paid-orders";
import { codeOf } from "../../../tests/helpers/refusals";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { runWaitingJobs } from "@/server/jobs/worker";
import { mailDeliveryJob } from "@/server/messages/jobs";
import { followUpRefund, sendRefund, type RefundPorts } from "./refund-payout";
import { createRefundInput, type CreateRefundInput } from "./schemas";
import { cancelOrder, createRefund, getRefundProposal, retryRefund } from "./service";

/**
 * Refunds on a real database, for orders placed and paid through checkout, the sandbox payment provider and its
 * webhook, and shipped through fulfilment: pieces, shipping and goodwill refunded through the sandbox provider, stock
 * booked back through the ledger, the customer's e-mail and order page, refusals, races, failures and retries.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
const storageRoot = mkdtempSync(path.join(os.tmpdir(), "refunds-test-"));
let sandbox: PaymentsPort;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
let ports: RefundPorts;
let fulfilment: FulfilmentPorts;
let staff: { id: string };
const actor = () => ({ userId: staff.id });
const tokenSecret = "a-token-secret-of-at-least-thirty-two-characters";

beforeAll(async () => {
  staff = await makeUser(t.db, "ADMIN", "Sam Staff");
  paidOrders = await startPaidOrders(t.db, now);
  sandbox = paidOrders.payments;
  ports = { paymentsFor: () => sandbox };
  fulfilment = { carrierFor: (carrier) => createSandboxCarrier(carrier, { now: () => now }), storage: createSandboxPrivateStorage({ root: storageRoot }) };
});

afterAll(async () => {
  await paidOrders?.close();
  rmSync(storageRoot, { recursive: true, force: true });
});

type Line = { name: string; price: string; quantity?: number };

/** A guest order of crowns and crystals placed through checkout and paid on the sandbox provider's page, settled by its webhook. */
const placePaidOrder = (email: string, lines: Line[], options: { couponCode?: string } = {}) =>
  paidOrders.placePaidOrder({ email, items: lines.map((line) => ({ ...line, itemType: "CROWN" })), ...options });

/** Labelled and handed to the carrier through fulfilment. */
async function ship(orderId: number) {
  await createLabel(t.db, orderId, { userId: null, now }, fulfilment);
  const { shipped } = await markShipped(t.db, [orderId], { userId: null, now });
  expect(shipped).toHaveLength(1);
}

const give = (input: CreateRefundInput, ownPorts: RefundPorts = ports) => createRefund(t.db, createRefundInput.parse(input), actor(), ownPorts);
const lineOf = async (orderNumber: string, index = 0) => (await getRefundProposal(t.db, orderNumber)).lines[index]!;
const stockOf = async (productId: number) => (await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId)))[0]!.stock;
const statusOf = async (orderId: number) => (await t.db.select({ status: order.status }).from(order).where(eq(order.id, orderId)))[0]!.status;
const paymentIdOf = async (orderId: number) => (await t.db.select({ id: paymentDetail.externalPaymentId }).from(paymentDetail).where(eq(paymentDetail.orderId, orderId)))[0]!.id!;
const sandboxRefundsOf = async (orderId: number) => t.db.select().from(sandboxRefund).where(eq(sandboxRefund.paymentId, await paymentIdOf(orderId))).orderBy(asc(sandboxRefund.createdAt));
const refundLedgerRows = (refundId: number) => t.db.select({ type: stockRecord.type, quantity: stockRecord.quantity, orderItemId: stockRecord.orderItemId }).from(stockRecord).where(eq(stockRecord.refundId, refundId));
/** The refund e-mails `email` received. */
const mailsTo = (email: string) => t.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, "refund-confirmation")));
/** Delivers the e-mails written to the outbox, as the mail-delivery job does. */
const deliverQueuedMail = () => runWaitingJobs(t.database, [mailDeliveryJob], logger);
/** The jobs of a kind waiting in the queue, with their data. */
const queued = (name: string) => rawRows<{ data: unknown; singleton_key: string | null }>(t.db, sql`select data, singleton_key from pgboss.job where name = ${name} and state < 'completed' order by created_on`);
const refundLog = (refundId: number) =>
  t.db
    .select({ level: logbook.logLevel, eventType: logbook.eventType, description: logbook.description })
    .from(logbook)
    .where(and(eq(logbook.entityType, "REFUND"), eq(logbook.entityId, String(refundId))))
    .orderBy(asc(logbook.id));

describe("refunding a shipped order", () => {
  it("refunds a damaged piece without restock and the lost shipping through the provider, e-mails the customer and shows both", async () => {
    const email = "ada-shipped@example.com";
    const paid = await placePaidOrder(email, [
      { name: "Seiko 5 crown 6309", price: "24.00" },
      { name: "Seiko 5 crystal 6309", price: "18.00" },
    ]);
    await ship(paid.orderId);
    const stockBefore = await Promise.all(paid.productIds.map(stockOf));
    const proposal = await getRefundProposal(t.db, paid.orderNumber);
    expect(proposal).toMatchObject({ orderStatus: "SHIPPED", monetary: true, refusal: null, paidTotal: proposal.paidTotal, refundedTotal: "0.00", leftToRefund: proposal.paidTotal });
    const crown = proposal.lines[0]!;
    expect(crown).toMatchObject({ quantity: 1, refundableQuantity: 1, paid: "24.00", proposedAmounts: ["24.00"] });

    const damaged = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: crown.orderItemId, quantity: 1, restock: false, amount: "24.00", reason: "DAMAGED", comment: "Crown stem bent" });
    expect(damaged).toMatchObject({ kind: "PRODUCT", status: "REFUNDED", amount: "24.00", restocked: false, monetary: true, staffName: "Sam Staff", productName: "Seiko 5 crown 6309" });
    expect(damaged.externalRefundId).toMatch(/^sbxre_/);
    const shipping = await give({ orderNumber: paid.orderNumber, kind: "SHIPPING", amount: proposal.shipping.leftToRefund, reason: "LOST_IN_TRANSIT" });
    expect(shipping).toMatchObject({ kind: "SHIPPING", status: "REFUNDED", productName: null, quantity: null });

    // The provider paid out two refunds; the stock did not move.
    const atProvider = await sandboxRefundsOf(paid.orderId);
    expect(atProvider.map((row) => [row.amount.toFixed(2), row.idempotencyKey])).toEqual([
      ["24.00", `refund-${damaged.id}-1`],
      [proposal.shipping.leftToRefund, `refund-${shipping.id}-1`],
    ]);
    expect(await Promise.all(paid.productIds.map(stockOf))).toEqual(stockBefore);
    expect(await refundLedgerRows(damaged.id)).toEqual([]);
    expect(await statusOf(paid.orderId)).toBe("SHIPPED");

    // The same piece again is refused, saying why.
    await expect(give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: crown.orderItemId, quantity: 1, amount: "1.00", reason: "DAMAGED" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "All of the 1 × Seiko 5 crown 6309 are refunded already.",
    });
    expect(await sandboxRefundsOf(paid.orderId)).toHaveLength(2);

    // One e-mail per refund, however often it is delivered.
    await deliverQueuedMail();
    await deliverQueuedMail();
    const mails = await mailsTo(email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([`A refund of €${proposal.shipping.leftToRefund} for your order ${paid.orderNumber}`, `A refund of €24.00 for your order ${paid.orderNumber}`].sort());
    const crownMail = mails.find((mail) => mail.subject.includes("€24.00"))!;
    expect(crownMail.text).toContain("1 × Seiko 5 crown 6309: €24.00");
    expect(crownMail.text).toContain("It reached you damaged");
    expect(crownMail.kind).toBe("refund-confirmation");
    expect(crownMail.links[0]).toContain(`/checkout/confirmation/${paid.orderNumber}?token=`);
    expect(mails.find((mail) => mail.subject !== crownMail.subject)!.text).toContain("Your parcel was lost on its way to you");

    // The customer's order page (the e-mail's link) lists both, and what came back in all.
    const token = await issueOrderToken(tokenSecret, paid.orderNumber);
    const page = await viewOrderConfirmation(t.db, paid.orderNumber, { userId: null, token, tokenSecret });
    expect(page.refunds.map((row) => [row.kind, row.amount, row.status])).toEqual([
      ["PRODUCT", "24.00", "REFUNDED"],
      ["SHIPPING", proposal.shipping.leftToRefund, "REFUNDED"],
    ]);
    expect(page.refundedTotal).toBe((24 + Number(proposal.shipping.leftToRefund)).toFixed(2));
    expect(page.status).toBe("SHIPPED");

    // Staff see them with the logbook's account of each.
    const after = await getRefundProposal(t.db, paid.orderNumber);
    expect(after.refunds.map((row) => row.reason)).toEqual(["DAMAGED", "LOST_IN_TRANSIT"]);
    expect(after.lines[0]).toMatchObject({ refundedQuantity: 1, refundableQuantity: 0, leftToRefund: "0.00", proposedAmounts: [] });
    expect(after.shipping.leftToRefund).toBe("0.00");
    expect((await refundLog(damaged.id)).map((entry) => [entry.eventType, entry.level])).toEqual([
      ["REFUND", "INFO"],
      ["REFUND", "INFO"],
      ["EMAIL", "INFO"],
    ]);
  });

  it("refunds a line in parts until none is left, proposing from what was paid after the coupon", async () => {
    // Three crowns at €20 with WELCOME10's 10% off: €54 paid for the line.
    const paid = await placePaidOrder("ada-parts@example.com", [{ name: "Crown 5.0 mm", price: "20.00", quantity: 3 }], { couponCode: "WELCOME10" });
    await ship(paid.orderId);
    const line = await lineOf(paid.orderNumber);
    expect(line).toMatchObject({ paid: "54.00", proposedAmounts: ["18.00", "36.00", "54.00"] });

    // Two crowns, lowered from the proposed €36; then the last one gets exactly what is left of the line.
    const first = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 2, amount: "30.00", reason: "WRONG_ITEM" });
    expect(first.status).toBe("REFUNDED");
    expect(await lineOf(paid.orderNumber)).toMatchObject({ refundedQuantity: 2, refundableQuantity: 1, leftToRefund: "24.00", proposedAmounts: ["24.00"] });
    await expect(give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, amount: "24.01", reason: "WRONG_ITEM" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "€24.01 is more than is left to refund of the 3 × Crown 5.0 mm: at most €24.00.",
    });
    const second = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, amount: "24.00", reason: "WRONG_ITEM" });
    expect(second.status).toBe("REFUNDED");
    await expect(give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, amount: "0.01", reason: "WRONG_ITEM" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect((await sandboxRefundsOf(paid.orderId)).map((row) => row.amount.toFixed(2))).toEqual(["30.00", "24.00"]);
  });

  it("gives a goodwill amount with no line, never more than is left of the order", async () => {
    const paid = await placePaidOrder("ada-goodwill@example.com", [{ name: "Omega crown", price: "40.00" }]);
    await ship(paid.orderId);
    const proposal = await getRefundProposal(t.db, paid.orderNumber);
    const goodwill = await give({ orderNumber: paid.orderNumber, kind: "GOODWILL", amount: "15.00", reason: "OTHER", comment: "Late delivery" });
    expect(goodwill).toMatchObject({ kind: "GOODWILL", type: "PRODUCT", orderItemId: null, status: "REFUNDED", comment: "Late delivery" });
    const left = (Number(proposal.paidTotal) - 15).toFixed(2);
    expect((await getRefundProposal(t.db, paid.orderNumber)).leftToRefund).toBe(left);
    await expect(give({ orderNumber: paid.orderNumber, kind: "GOODWILL", amount: (Number(left) + 0.01).toFixed(2), reason: "OTHER" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `€${(Number(left) + 0.01).toFixed(2)} is more than is left to refund of order ${paid.orderNumber}: at most €${left}.`,
    });
    // The line's €40 is now more than the order has left: the proposal says so before staff try.
    expect((await lineOf(paid.orderNumber)).proposedAmounts).toEqual([Decimal.min(40, left).toFixed(2)]);
  });

  it("puts a returned piece back in stock through the ledger, so it can be bought again", async () => {
    const paid = await placePaidOrder("ada-restock@example.com", [{ name: "Tissot crystal 30 mm", price: "16.00" }]);
    await ship(paid.orderId);
    const productId = paid.productIds[0]!;
    expect(await stockOf(productId)).toBe(0);
    const line = await lineOf(paid.orderNumber);

    const returned = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, restock: true, amount: "16.00", reason: "WRONG_ITEM" });
    expect(returned).toMatchObject({ status: "REFUNDED", restocked: true });
    expect(await refundLedgerRows(returned.id)).toEqual([{ type: "REFUND", quantity: 1, orderItemId: line.orderItemId }]);
    expect(await stockOf(productId)).toBe(1);
    expect(await reconcileStock(t.db)).toEqual([]);

    // Another customer buys it.
    const again = await placeGuestOrder(
      t.db,
      { email: "grace-buys-it@example.com", address: { firstName: "Grace", lastName: "Hopper", houseNumber: "2" }, items: [{ productId, quantity: 1 }] },
      now,
    );
    expect(again.orderNumber).toMatch(/^BC-/);
    expect(await stockOf(productId)).toBe(0);
  });

  it("lets exactly one of two refunds racing for the same last piece through", async () => {
    const paid = await placePaidOrder("ada-race@example.com", [{ name: "Longines crown", price: "30.00" }]);
    await ship(paid.orderId);
    const line = await lineOf(paid.orderNumber);
    const input: CreateRefundInput = { orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, restock: true, amount: "30.00", reason: "DAMAGED" };
    const results = await Promise.allSettled([give(input), give(input)]);

    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const [refused] = results.filter((result) => result.status === "rejected");
    expect(refused?.reason).toMatchObject({ code: "CONFLICT" });
    expect(await sandboxRefundsOf(paid.orderId)).toHaveLength(1);
    expect(await stockOf(paid.productIds[0]!)).toBe(1);
  });
});

describe("when the provider refuses or does not answer", () => {
  it("leaves a refused refund FAILED with no stock booked and staff told, and a retry pays it under a new key", async () => {
    const paid = await placePaidOrder("ada-refused@example.com", [{ name: "Zenith crown", price: "50.00" }]);
    await ship(paid.orderId);
    const productId = paid.productIds[0]!;
    const line = await lineOf(paid.orderNumber);
    // Someone refunded €45 in the provider's dashboard, outside the shop: the provider has €5 + shipping left.
    const outside = await sandbox.refundPayment({ externalPaymentId: await paymentIdOf(paid.orderId), amount: "45.00", idempotencyKey: `dashboard-${paid.orderId}` });
    const beforeNotes = (await t.db.select().from(adminNotification).where(eq(adminNotification.type, "REFUND"))).length;

    const failed = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, restock: true, amount: "50.00", reason: "WRONG_ITEM" });
    expect(failed).toMatchObject({ status: "FAILED", externalRefundId: null });
    expect(failed.failureMessage).toContain("higher than the amount remaining");
    expect(await stockOf(productId)).toBe(0);
    expect(await refundLedgerRows(failed.id)).toEqual([]);
    const notes = await t.db.select().from(adminNotification).where(eq(adminNotification.type, "REFUND"));
    expect(notes).toHaveLength(beforeNotes + 1);
    expect(notes.at(-1)).toMatchObject({ severity: "ERROR" });
    expect((await refundLog(failed.id)).at(-1)).toMatchObject({ level: "ERROR" });
    // A FAILED refund gave nothing back: the customer sees none and the piece is still refundable.
    expect((await getOrderView(t.db, paid.orderNumber)).refunds).toEqual([]);
    expect(await lineOf(paid.orderNumber)).toMatchObject({ refundableQuantity: 1, leftToRefund: "50.00" });
    await deliverQueuedMail();
    expect(await mailsTo("ada-refused@example.com")).toHaveLength(0);

    // Retried while the provider still has too little: FAILED again, under the second attempt's key.
    expect(await retryRefund(t.db, { refundId: failed.id }, actor(), ports)).toMatchObject({ status: "FAILED" });
    // The dashboard refund is reversed at the provider; the third attempt goes through.
    await t.db.delete(sandboxRefund).where(eq(sandboxRefund.id, outside.externalRefundId));
    const retried = await retryRefund(t.db, { refundId: failed.id }, actor(), ports);
    expect(retried).toMatchObject({ status: "REFUNDED", failureMessage: null });
    expect((await sandboxRefundsOf(paid.orderId)).map((row) => row.idempotencyKey)).toEqual([`refund-${failed.id}-3`]);
    expect(await stockOf(productId)).toBe(1);
    expect(await refundLedgerRows(failed.id)).toHaveLength(1);
    await expect(retryRefund(t.db, { refundId: failed.id }, actor(), ports)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses to retry a failed refund that no longer fits what is left", async () => {
    const paid = await placePaidOrder("ada-refit@example.com", [{ name: "Rolex crown", price: "90.00" }]);
    await ship(paid.orderId);
    const line = await lineOf(paid.orderNumber);
    const outside = await sandbox.refundPayment({ externalPaymentId: await paymentIdOf(paid.orderId), amount: "80.00", idempotencyKey: `dashboard-${paid.orderId}` });
    const failed = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, amount: "90.00", reason: "DAMAGED" });
    expect(failed.status).toBe("FAILED");
    await t.db.delete(sandboxRefund).where(eq(sandboxRefund.id, outside.externalRefundId));
    // Staff gave the piece back another way meanwhile.
    expect((await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, amount: "90.00", reason: "DAMAGED" })).status).toBe("REFUNDED");
    await expect(retryRefund(t.db, { refundId: failed.id }, actor(), ports)).rejects.toMatchObject({ code: "CONFLICT", message: "All of the 1 × Rolex crown are refunded already." });
    expect(await sandboxRefundsOf(paid.orderId)).toHaveLength(1);
  });

  it("keeps a refund without a clear answer PENDING, and its job completes it with the same key exactly once", async () => {
    const paid = await placePaidOrder("ada-timeout@example.com", [{ name: "Heuer crown", price: "35.00" }]);
    await ship(paid.orderId);
    const line = await lineOf(paid.orderNumber);
    // The provider makes the refund, but its answer is lost on the way back.
    let calls = 0;
    const lostAnswer: PaymentsPort = {
      ...sandbox,
      refundPayment: async (input) => {
        calls += 1;
        await sandbox.refundPayment(input);
        throw new PaymentProviderError("Sandbox", null, "Sandbox did not answer in time");
      },
    };

    const pending = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, restock: true, amount: "35.00", reason: "WRONG_ADDRESS" }, { paymentsFor: () => lostAnswer });
    expect(pending).toMatchObject({ status: "PENDING", externalRefundId: null });
    expect(await stockOf(paid.productIds[0]!)).toBe(0);
    expect((await refundLog(pending.id)).at(-1)).toMatchObject({ level: "WARNING" });
    // It still counts: the piece cannot be refunded twice meanwhile.
    expect(await lineOf(paid.orderNumber)).toMatchObject({ refundableQuantity: 0 });
    // The safety-net job waits in the queue for this attempt.
    expect((await queued("refund-send")).filter((job) => job.singleton_key === `refund-${pending.id}-1`)).toEqual([{ data: { refundId: pending.id }, singleton_key: `refund-${pending.id}-1` }]);

    // The job's work, twice (the queue may run a job again after a crash): the provider answers the same key with
    // the refund it made, and the second run finds it done.
    expect(await sendRefund(t.db, pending.id, ports)).toBe("accepted");
    expect(await sendRefund(t.db, pending.id, ports)).toBe("nothing to do");
    expect(calls).toBe(1);
    const atProvider = await sandboxRefundsOf(paid.orderId);
    expect(atProvider.map((row) => row.idempotencyKey)).toEqual([`refund-${pending.id}-1`]);
    const [done] = (await getRefundProposal(t.db, paid.orderNumber)).refunds;
    expect(done).toMatchObject({ status: "REFUNDED", externalRefundId: atProvider[0]!.id });
    expect(await stockOf(paid.productIds[0]!)).toBe(1);
    expect(await refundLedgerRows(pending.id)).toHaveLength(1);
    expect(await followUpRefund(t.db, pending.id, ports)).toBe("nothing to do");
  });

  it("follows a refund the provider accepted but has not paid out, until it is paid", async () => {
    const paid = await placePaidOrder("ada-later@example.com", [{ name: "Certina crown", price: "22.00" }]);
    await ship(paid.orderId);
    const line = await lineOf(paid.orderNumber);
    // A provider that pays refunds out later, as Mollie does: pending at first, refunded when asked later on.
    let paidOut = false;
    const later: PaymentsPort = {
      ...sandbox,
      refundPayment: async (input) => ({ ...(await sandbox.refundPayment(input)), status: "pending" }),
      getRefund: async (paymentId, refundId) => ({ ...(await sandbox.getRefund(paymentId, refundId)), status: paidOut ? "refunded" : "pending", providerFees: paidOut ? new Decimal("0.25") : null }),
    };
    const laterPorts = { paymentsFor: () => later };
    const given = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, restock: true, amount: "22.00", reason: "WRONG_ITEM" }, laterPorts);
    expect(given).toMatchObject({ status: "PENDING" });
    expect(given.externalRefundId).toMatch(/^sbxre_/);
    // Accepted: the pieces are back and the customer is told; the follow-up is queued.
    expect(await stockOf(paid.productIds[0]!)).toBe(1);
    expect(await t.db.select({ status: mailMessage.status }).from(mailMessage).where(eq(mailMessage.refundId, given.id))).toEqual([{ status: "QUEUED" }]);
    expect((await queued("refund-follow-up")).map((job) => job.data)).toContainEqual({ refundId: given.id, check: 1 });

    expect(await followUpRefund(t.db, given.id, laterPorts)).toBe("unknown");
    paidOut = true;
    expect(await followUpRefund(t.db, given.id, laterPorts)).toBe("accepted");
    const [row] = await t.db.select().from(refund).where(eq(refund.id, given.id));
    expect(row).toMatchObject({ status: "REFUNDED" });
    expect(row!.providerFees?.toFixed(2)).toBe("0.25");
    expect(row!.settledAt).not.toBeNull();
    expect(await refundLedgerRows(given.id)).toHaveLength(1);
  });

  it("takes the pieces back out of stock when the provider later reports an accepted refund failed", async () => {
    const paid = await placePaidOrder("ada-bounced@example.com", [{ name: "Eterna crown", price: "21.00" }]);
    await ship(paid.orderId);
    const line = await lineOf(paid.orderNumber);
    // Accepted at first; the customer's bank account turns out to be closed.
    const bounced: PaymentsPort = {
      ...sandbox,
      refundPayment: async (input) => ({ ...(await sandbox.refundPayment(input)), status: "pending" }),
      getRefund: async (paymentId, refundId) => ({ ...(await sandbox.getRefund(paymentId, refundId)), status: "failed", failureReason: "The bank account is closed" }),
    };
    const bouncedPorts = { paymentsFor: () => bounced };
    const given = await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: line.orderItemId, quantity: 1, restock: true, amount: "21.00", reason: "WRONG_ITEM" }, bouncedPorts);
    expect(await stockOf(paid.productIds[0]!)).toBe(1);

    expect(await followUpRefund(t.db, given.id, bouncedPorts)).toBe("refused");
    const [after] = (await getRefundProposal(t.db, paid.orderNumber)).refunds;
    expect(after).toMatchObject({ status: "FAILED" });
    expect(after!.failureMessage).toContain("The bank account is closed");
    // Booked back, then out again: the ledger shows both, and the stock is as before the refund.
    expect((await refundLedgerRows(given.id)).map((row) => row.quantity)).toEqual([1, -1]);
    expect(await stockOf(paid.productIds[0]!)).toBe(0);
    expect(await lineOf(paid.orderNumber)).toMatchObject({ refundableQuantity: 1 });
  });
});

describe("refunds and the order's status", () => {
  it("cancels an order not shipped yet once its refunds give back all it cost, and the sidebar counts follow", async () => {
    const paid = await placePaidOrder("ada-cancel@example.com", [{ name: "Doxa crown", price: "28.00" }]);
    expect(await statusOf(paid.orderId)).toBe("PAID_READY_TO_SHIP");
    const sidebarBefore = await getSidebarInformation(t.db, staff.id);

    await give({ orderNumber: paid.orderNumber, kind: "GOODWILL", amount: "10.00", reason: "OTHER" });
    expect(await statusOf(paid.orderId)).toBe("PAID_READY_TO_SHIP");
    await give({ orderNumber: paid.orderNumber, kind: "GOODWILL", amount: (await getRefundProposal(t.db, paid.orderNumber)).leftToRefund, reason: "OTHER" });

    expect(await statusOf(paid.orderId)).toBe("CANCELLED");
    const sidebarAfter = await getSidebarInformation(t.db, staff.id);
    expect(sidebarAfter.orders.paidReady).toBe(sidebarBefore.orders.paidReady - 1);
    // Nothing went out of the workshop: the cancellation returned the piece, once.
    expect(await stockOf(paid.productIds[0]!)).toBe(1);
    expect(await getRefundProposal(t.db, paid.orderNumber)).toMatchObject({ orderStatus: "CANCELLED", leftToRefund: "0.00", refusal: null });
  });

  it("does not return a refunded line's pieces a second time when the refunds cancel the order", async () => {
    const paid = await placePaidOrder("ada-cancel-lines@example.com", [
      { name: "Oris crown", price: "26.00" },
      { name: "Oris crystal", price: "19.00" },
    ]);
    const proposal = await getRefundProposal(t.db, paid.orderNumber);
    const [crown, crystal] = proposal.lines;
    // The crown goes back on the shelf with its refund; the crystal broke in the workshop and is not sold again.
    await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: crown!.orderItemId, quantity: 1, restock: true, amount: crown!.paid, reason: "OTHER" });
    await give({ orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: crystal!.orderItemId, quantity: 1, restock: false, amount: crystal!.paid, reason: "DAMAGED" });
    await give({ orderNumber: paid.orderNumber, kind: "SHIPPING", amount: proposal.shipping.leftToRefund, reason: "OTHER" });

    expect(await statusOf(paid.orderId)).toBe("CANCELLED");
    expect(await Promise.all(paid.productIds.map(stockOf))).toEqual([1, 0]);
  });

  it("records a refund of a manual order paid by bank transfer as paid back by hand", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Omega Seamaster 1962", price: "300.00", stock: 1 });
    const saved = await createManualOrder(
      t.db,
      createManualOrderInput.parse({
        userId: null,
        address: { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" },
        email: "grace-manual@example.com",
        lines: [{ productId: watch.id, quantity: 1 }],
        shippingMethod: "TNT",
        paymentMethod: "BANKTRANSFER",
        paid: true,
      }),
      { userId: staff.id, now },
    );
    const proposal = await getRefundProposal(t.db, saved.orderNumber);
    expect(proposal).toMatchObject({ monetary: false, paymentProvider: "BANKTRANSFER", refusal: null });

    const given = await give({ orderNumber: saved.orderNumber, kind: "GOODWILL", amount: "20.00", reason: "OTHER" });
    expect(given).toMatchObject({ status: "REFUNDED", monetary: false, externalRefundId: null });
    await deliverQueuedMail();
    const [mail] = await mailsTo("grace-manual@example.com").then((rows) => rows.filter((row) => row.kind === "refund-confirmation"));
    expect(mail?.text).toContain("we settle the refund with you directly");
  });

  it("refuses unpaid orders, and says so in the proposal", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Unpaid crown", price: "12.00", stock: 1 });
    const placed = await placeGuestOrder(t.db, { email: "ada-unpaid@example.com", items: [{ productId: watch.id, quantity: 1 }] }, now);
    expect((await getRefundProposal(t.db, placed.orderNumber)).refusal).toContain("not paid yet");
    await expect(give({ orderNumber: placed.orderNumber, kind: "GOODWILL", amount: "1.00", reason: "OTHER" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(getRefundProposal(t.db, "BC-2026-999999")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("cancelling a paid order (RELIABILITY-REVIEW, observations)", () => {
  const cancel = (orderNumber: string, ownPorts: RefundPorts = ports) => cancelOrder(t.db, { orderNumber }, actor(), ownPorts);
  /** The stock ledger's rows of a product after it was stocked, as [type, quantity], oldest first. */
  const stockRows = async (productId: number) =>
    (await t.db.select({ type: stockRecord.type, quantity: stockRecord.quantity }).from(stockRecord).where(eq(stockRecord.productId, productId)).orderBy(asc(stockRecord.id)))
      .slice(1)
      .map((row) => [row.type, row.quantity]);
  const orderLog = (orderId: number) =>
    t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(orderId)))).orderBy(asc(logbook.id));
  const sum = (amounts: string[]) => amounts.reduce((total, amount) => total.plus(amount), new Decimal(0)).toFixed(2);

  it("pays back all that was paid through the provider, line by line and the shipping, and books the stock once", async () => {
    const email = "ada-cancel-paid@example.com";
    const paid = await placePaidOrder(email, [
      { name: "Hamilton crown", price: "30.00" },
      { name: "Hamilton crystal", price: "20.00", quantity: 2 },
    ]);
    const proposal = await getRefundProposal(t.db, paid.orderNumber);
    // What the confirm dialog names: every refund the cancel gives, and their sum, which is all that was paid.
    expect(proposal.cancellation).toEqual({
      amount: proposal.paidTotal,
      refunds: [
        { kind: "PRODUCT", productName: "Hamilton crown", quantity: 1, amount: "30.00" },
        { kind: "PRODUCT", productName: "Hamilton crystal", quantity: 2, amount: "40.00" },
        { kind: "SHIPPING", productName: null, quantity: null, amount: proposal.shipping.paid },
      ],
    });

    const cancelled = await cancel(paid.orderNumber);

    expect(await statusOf(paid.orderId)).toBe("CANCELLED");
    expect(cancelled.refusal).toBeNull();
    expect(cancelled.refunds.map((row) => [row.kind, row.amount, row.status, row.restocked, row.monetary])).toEqual([
      ["PRODUCT", "30.00", "REFUNDED", false, true],
      ["PRODUCT", "40.00", "REFUNDED", false, true],
      ["SHIPPING", proposal.shipping.paid, "REFUNDED", false, true],
    ]);
    // The provider paid back exactly what it took, each refund once under its key.
    const atProvider = await sandboxRefundsOf(paid.orderId);
    expect(atProvider.map((row) => row.idempotencyKey)).toEqual(cancelled.refunds.map((row) => `refund-${row.id}-1`));
    expect(sum(atProvider.map((row) => row.amount.toFixed(2)))).toBe(proposal.paidTotal);
    expect(await getRefundProposal(t.db, paid.orderNumber)).toMatchObject({ leftToRefund: "0.00", cancellation: { amount: "0.00", refunds: [] } });
    // The stock came back once, with the cancellation; the refunds put none back a second time.
    expect(await Promise.all(paid.productIds.map(stockOf))).toEqual([1, 2]);
    expect(await stockRows(paid.productIds[0]!)).toEqual([["ORDER_ITEM", -1], ["ORDER_ITEM", 1]]);
    expect(await stockRows(paid.productIds[1]!)).toEqual([["ORDER_ITEM", -2], ["ORDER_ITEM", 2]]);
    expect(await reconcileStock(t.db)).toEqual([]);
    // Logged: the cancellation with what goes back, and each refund; the customer hears of each refund.
    expect((await orderLog(paid.orderId)).map((entry) => entry.description)).toContain(
      `Order ${paid.orderNumber}: PAID_READY_TO_SHIP → CANCELLED. Cancelled by staff: €${proposal.paidTotal} left to refund is going back through IDEAL (3 refunds).`,
    );
    for (const row of cancelled.refunds) expect((await refundLog(row.id))[0]!.description).toMatch(new RegExp(`^Refund ${row.id} of order ${paid.orderNumber}: .*going back through IDEAL$`));
    await deliverQueuedMail();
    expect(await mailsTo(email)).toHaveLength(3);
  });

  it("is not done by a status change alone, which would keep the money", async () => {
    const paid = await placePaidOrder("ada-cancel-status@example.com", [{ name: "Longines crown", price: "33.00" }]);
    const asStaff = createCaller(contextFor(t.db, { id: staff.id, name: "Sam Staff", email: "sam@example.com", role: "ADMIN" }));
    const outcome = await asStaff.admin.orders.transition({ orderIds: [paid.orderId], to: "CANCELLED" });
    expect(outcome.refused.map((refusal) => refusal.reason)).toEqual([`Order ${paid.orderNumber} is paid: cancel it with "Cancel order" on its page, which refunds what was paid.`]);
    expect(await statusOf(paid.orderId)).toBe("PAID_READY_TO_SHIP");

    const cancelled = await asStaff.admin.refunds.cancelOrder({ orderNumber: paid.orderNumber });
    expect(sum(cancelled.refunds.map((row) => row.amount))).toBe((await getRefundProposal(t.db, paid.orderNumber)).paidTotal);
    expect(await statusOf(paid.orderId)).toBe("CANCELLED");
  });

  it("lets one of two cancels racing for the same order through, so the money goes back once", async () => {
    const paid = await placePaidOrder("ada-cancel-race@example.com", [{ name: "Tudor crown", price: "40.00" }]);
    const { paidTotal } = await getRefundProposal(t.db, paid.orderNumber);
    const results = await Promise.allSettled([cancel(paid.orderNumber), cancel(paid.orderNumber)]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((result) => result.status === "rejected")!;
    expect(refused.reason).toMatchObject({ code: "CONFLICT", message: `Order ${paid.orderNumber} is already CANCELLED.` });

    const refunds = await t.db.select({ amount: refund.amount }).from(refund).where(eq(refund.orderId, paid.orderId));
    expect(refunds).toHaveLength(2);
    expect(sum((await sandboxRefundsOf(paid.orderId)).map((row) => row.amount.toFixed(2)))).toBe(paidTotal);
    expect(await stockOf(paid.productIds[0]!)).toBe(1);
    expect(await stockRows(paid.productIds[0]!)).toEqual([["ORDER_ITEM", -1], ["ORDER_ITEM", 1]]);
  });

  it("records the money of an order paid by bank transfer as paid back by hand, what an edit took off included", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Jaeger Memovox", price: "100.00", stock: 1 });
    const strap = await makeStockedProduct(t.db, { name: "Memovox strap", price: "50.00", stock: 1 });
    const address = { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };
    const order = { userId: null, address, email: "grace-cancel@example.com", shippingMethod: "TNT", waiveShipping: true } as const;
    const saved = await createManualOrder(
      t.db,
      createManualOrderInput.parse({ ...order, lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }], paymentMethod: "BANKTRANSFER", paid: true }),
      { userId: staff.id, now },
    );
    // The strap is taken off after the customer paid €150: the €50 is left to refund.
    await updateManualOrder(t.db, updateManualOrderInput.parse({ ...order, orderNumber: saved.orderNumber, lines: [{ productId: watch.id, quantity: 1 }] }), { userId: staff.id, now });

    const cancelled = await cancel(saved.orderNumber);
    expect(cancelled.refunds.map((row) => [row.kind, row.amount, row.status, row.monetary])).toEqual([
      ["PRODUCT", "100.00", "REFUNDED", false],
      ["GOODWILL", "50.00", "REFUNDED", false],
    ]);
    expect(await statusOf(saved.orderId)).toBe("CANCELLED");
    expect([await stockOf(watch.id), await stockOf(strap.id)]).toEqual([1, 1]);
    expect((await orderLog(saved.orderId)).at(-1)!.description).toBe(
      `Order ${saved.orderNumber}: PAID_READY_TO_SHIP → CANCELLED. Cancelled by staff: €150.00 left to refund is recorded as paid back by hand (paid BANKTRANSFER) (2 refunds).`,
    );
  });

  it("changes nothing when a step fails mid-way: no cancellation, no stock back, no refund", async () => {
    const paid = await placePaidOrder("ada-cancel-fails@example.com", [{ name: "Breitling crown", price: "45.00" }]);
    // The refunds are stored after the cancellation has returned the stock: make storing them fail.
    await rawRows(t.db, sql`create function refund_store_fails() returns trigger language plpgsql as $$ begin raise exception 'the refund could not be stored'; end $$`);
    await rawRows(t.db, sql`create trigger refund_store_fails before insert on refund for each row execute function refund_store_fails()`);
    try {
      const failed: unknown = await cancel(paid.orderNumber).then(
        () => null,
        (error: unknown) => error,
      );
      // The database's refusal, as the driver wraps it.
      const { message, cause } = failed as Error & { cause?: Error };
      expect(cause?.message ?? message).toContain("the refund could not be stored");
    } finally {
      await rawRows(t.db, sql`drop trigger refund_store_fails on refund`);
      await rawRows(t.db, sql`drop function refund_store_fails()`);
    }
    expect(await statusOf(paid.orderId)).toBe("PAID_READY_TO_SHIP");
    expect(await stockOf(paid.productIds[0]!)).toBe(0);
    expect(await stockRows(paid.productIds[0]!)).toEqual([["ORDER_ITEM", -1]]);
    expect(await t.db.select().from(refund).where(eq(refund.orderId, paid.orderId))).toEqual([]);
    expect((await orderLog(paid.orderId)).some((entry) => entry.description.includes("Cancelled by staff"))).toBe(false);
    expect(await sandboxRefundsOf(paid.orderId)).toEqual([]);
  });
});

describe("admin.refunds", () => {
  it("is for staff only", async () => {
    const paid = await placePaidOrder("ada-router@example.com", [{ name: "Router crown", price: "11.00" }]);
    const customer = await makeUser(t.db, "USER", "Customer");
    const asCustomer = createCaller(contextFor(t.db, { id: customer.id, name: customer.name, email: customer.email, role: "USER" }));
    const asNobody = createCaller(contextFor(t.db, null));
    expect(await codeOf(asCustomer.admin.refunds.proposal({ orderNumber: paid.orderNumber }))).toBe("FORBIDDEN");
    expect(await codeOf(asNobody.admin.refunds.create({ orderNumber: paid.orderNumber, kind: "GOODWILL", amount: "1.00", reason: "OTHER" }))).toBe("UNAUTHORIZED");

    const asStaff = createCaller(contextFor(t.db, { id: staff.id, name: "Sam Staff", email: "sam@example.com", role: "ADMIN" }));
    expect((await asStaff.admin.refunds.proposal({ orderNumber: paid.orderNumber })).orderNumber).toBe(paid.orderNumber);
    expect(await codeOf(asStaff.admin.refunds.create({ orderNumber: paid.orderNumber, kind: "PRODUCT", amount: "1.00", reason: "OTHER" }))).toBe("BAD_REQUEST");
    expect(await codeOf(asStaff.admin.refunds.retry({ refundId: 2_147_483_647 }))).toBe("NOT_FOUND");
  });
});
