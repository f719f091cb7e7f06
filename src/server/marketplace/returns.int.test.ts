import { Decimal } from "decimal.js";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminNotification, logbook, mailMessage, marketplaceOffer, marketplaceRequest, order, product, refund as refundTable, stockRecord } from "@/server/db/schema";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { openSandboxReturn, requestSandboxCancellation } from "@/server/integrations/marketplace/sandbox-requests";
import { buySandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { transitionOrder } from "@/server/orders/service";
import type { RefundPorts } from "@/server/refunds/refund-payout";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { importMarketplaceOrder } from "./order-import";
import { decideRequest, receiveReturn, refundReturn, type RequestPorts } from "./returns-actions";
import { pollBuyerRequests } from "./returns-import";
import { orderRequests } from "./returns-view";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";

/**
 * Buyers' returns and cancellations on eBay, played on the sandbox marketplace (which keeps them in eBay's Post-Order
 * shapes and refuses what eBay refuses): recorded once by the poll, answered on eBay from the order page, a return's
 * pieces back into the one stock once when received and its refund paid through eBay's issue_refund, and a
 * cancellation cancelling the order with everything paid back.
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
const unreachableShop = "http://127.0.0.1:9";
let port: MarketplacePort;
let ports: RequestPorts;
const staff = { userId: null, now };

beforeAll(() => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: unreachableShop });
  const refunds: RefundPorts = { paymentsFor: () => createSandboxPayments({ db: t.db, baseUrl: "http://127.0.0.1" }), marketplace: () => port };
  ports = { marketplace: port, refunds };
});

const buyer = { fullName: "Jan de Vries", addressLine1: "Keizersgracht 123-A", postalCode: "1015 CJ", city: "Amsterdam", countryCode: "NL", email: "jan@example.com" };

/** An eBay sale of `quantity` pieces at €300 each from a stock of `stock`, imported as the shop's EBAY order. */
async function importedEbaySale(name: string, options: { stock?: number; quantity?: number } = {}) {
  const stock = options.stock ?? 2;
  const made = await makeStockedProduct(t.db, { name, price: "300.00", stock });
  const sku = `BC-${made.id}`;
  await port.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: name, description: `<p>${name}</p>`, aspects: wristwatchAspects, imageUrls: [], quantity: stock }]);
  const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal("300.00"), quantity: stock, categoryId: "31387", storeCategoryNames: [], listingDescription: `<p>${name}</p>` });
  const { listingId } = await port.publishOffer(offerId);
  await t.db.insert(marketplaceOffer).values({ productId: made.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: stock, pushedPrice: new Decimal("300.00"), lastPushedAt: now });
  const { orderId } = await buySandboxListing(t.db, { listingId, quantity: options.quantity ?? 1, buyer }, { shopUrl: unreachableShop });
  const [sale] = await port.getOrders({ orderIds: [orderId] });
  const imported = await importMarketplaceOrder(t.db, sale!, now);
  if (imported.result !== "imported") throw new Error(`the sale was not imported: ${imported.result}`);
  return { productId: made.id, marketplaceOrderId: orderId, orderId: imported.orderId, orderNumber: imported.orderNumber, lineItemId: sale!.lines[0]!.lineItemId };
}

/** The sale shipped: told to eBay (so its buyer may return it) and SHIPPED in the shop. */
async function shipped(sale: Awaited<ReturnType<typeof importedEbaySale>>, quantity = 1) {
  await port.shipOrder({ orderId: sale.marketplaceOrderId, lines: [{ lineItemId: sale.lineItemId, quantity }], carrierCode: "PostNL", trackingNumber: "3SBCWA1234567", shippedAt: now });
  await t.db.transaction(async (tx) => {
    await transitionOrder(tx, sale.orderId, "PROCESSED", { userId: null, description: "Packed.", now });
    await transitionOrder(tx, sale.orderId, "SHIPPED", { userId: null, description: "Shipped.", now });
  });
}

const stockOf = async (productId: number) => (await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId)))[0]!.stock;
const returnRowsOf = (productId: number) =>
  t.db.select({ quantity: stockRecord.quantity, orderItemId: stockRecord.orderItemId }).from(stockRecord).where(and(eq(stockRecord.productId, productId), eq(stockRecord.type, "REFUND")));
const requestsOf = (orderId: number) => t.db.select().from(marketplaceRequest).where(eq(marketplaceRequest.orderId, orderId));
const statusOf = async (orderId: number) => (await t.db.select({ status: order.status }).from(order).where(eq(order.id, orderId)))[0]!.status;
const noticesAbout = (orderNumber: string) => t.db.select({ message: adminNotification.message }).from(adminNotification).where(like(adminNotification.message, `The eBay buyer of order ${orderNumber} %`));

describe("returns requested on eBay", () => {
  it("are imported once, accepted on eBay, refunded through eBay and their piece restocked once", async () => {
    const sale = await importedEbaySale("Omega Seamaster 2254.50");
    await shipped(sale);
    expect(await stockOf(sale.productId)).toBe(1);
    const { returnId } = await openSandboxReturn(t.db, { orderId: sale.marketplaceOrderId, lineItemId: sale.lineItemId, quantity: 1, reason: "NOT_AS_DESCRIBED", comment: "The bezel is scratched" }, { now });

    // Two instances polling at the same moment record it once, with one notification.
    const polls = await Promise.all([pollBuyerRequests(t.db, port, now), pollBuyerRequests(t.db, port, now)]);
    expect(polls.map((poll) => poll.recorded).sort()).toEqual([0, 1]);
    expect(await pollBuyerRequests(t.db, port, now)).toEqual({ recorded: 0, updated: 0 });
    const [stored] = await requestsOf(sale.orderId);
    expect(stored).toMatchObject({ kind: "RETURN", marketplaceRequestId: returnId, state: "REQUESTED", marketplaceState: "RETURN_REQUESTED", reason: "NOT_AS_DESCRIBED", buyerComment: "The bezel is scratched", requestedRefund: new Decimal("300.00") });
    expect(stored!.lines).toEqual([{ orderItemId: expect.any(Number), lineItemId: sale.lineItemId, quantity: 1 }]);
    expect(await noticesAbout(sale.orderNumber)).toEqual([
      { message: `The eBay buyer of order ${sale.orderNumber} wants to return 1 × Omega Seamaster 2254.50 (not as described) for €300.00: accept or decline it on the order's page before 2026-03-07.` },
    ]);
    const entries = await t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(sale.orderId)), like(logbook.description, "eBay return%")));
    expect(entries.map((entry) => entry.description)).toEqual([`eBay return ${returnId} on order ${sale.orderNumber} recorded: 1 × Omega Seamaster 2254.50 (not as described) for €300.00`]);

    // Not received before it is accepted; accepted, eBay has it approved.
    await expect(receiveReturn(t.db, { requestId: stored!.id }, staff)).rejects.toThrow("accept it before its pieces come back");
    const accepted = await decideRequest(t.db, { requestId: stored!.id, accept: true }, staff, ports);
    expect(accepted).toMatchObject({ state: "ACCEPTED", can: { decide: false, receive: true, refund: true } });
    expect(await pollBuyerRequests(t.db, port, now)).toEqual({ recorded: 0, updated: 1 });
    expect((await requestsOf(sale.orderId))[0]).toMatchObject({ state: "ACCEPTED", marketplaceState: "ITEM_READY_TO_SHIP" });
    await expect(decideRequest(t.db, { requestId: stored!.id, accept: false }, staff, ports)).rejects.toThrow("no longer waits for an answer");

    // Refunded through eBay's issue_refund, for the line, without restocking: the piece is still on its way back.
    const refunded = await refundReturn(t.db, { requestId: stored!.id }, staff, ports);
    expect(refunded.refundIds).toHaveLength(1);
    const [given] = await t.db.select().from(refundTable).where(eq(refundTable.id, refunded.refundIds[0]!));
    expect(given).toMatchObject({ status: "REFUNDED", amount: new Decimal("300.00"), reason: "DAMAGED", restockedProduct: false, monetaryRefund: true });
    expect(await port.getRefunds(sale.marketplaceOrderId)).toEqual([{ refundId: given!.externalRefundId, status: "REFUNDED", amount: new Decimal("300.00"), lineItemId: sale.lineItemId }]);
    expect(await stockOf(sale.productId)).toBe(1);
    // eBay tells its buyer of the refund; the shop writes them no e-mail.
    expect(await t.db.select({ id: mailMessage.id }).from(mailMessage).where(eq(mailMessage.refundId, given!.id))).toEqual([]);
    await expect(refundReturn(t.db, { requestId: stored!.id }, staff, ports)).rejects.toThrow("was refunded already");
    // eBay closes a return once it is refunded; the next poll records it.
    await pollBuyerRequests(t.db, port, now);
    expect((await requestsOf(sale.orderId))[0]).toMatchObject({ state: "CLOSED", marketplaceState: "CLOSED" });

    // Received: the piece is back in the one stock, once.
    const received = await receiveReturn(t.db, { requestId: stored!.id }, staff);
    expect(received).toMatchObject({ receivedAt: now, can: { receive: false, refund: false } });
    expect(await stockOf(sale.productId)).toBe(2);
    expect(await returnRowsOf(sale.productId)).toEqual([{ quantity: 1, orderItemId: stored!.lines[0]!.orderItemId }]);
    await receiveReturn(t.db, { requestId: stored!.id }, staff);
    expect(await stockOf(sale.productId)).toBe(2);
    expect(await orderRequests(t.db, sale.orderNumber)).toEqual([expect.objectContaining({ kind: "RETURN", state: "CLOSED", refundIds: refunded.refundIds, lines: [{ orderItemId: stored!.lines[0]!.orderItemId, productName: "Omega Seamaster 2254.50", quantity: 1 }] })]);
  });

  it("book the piece once when two staff click received at the same moment", async () => {
    const sale = await importedEbaySale("Seiko 6139-6002", { stock: 3, quantity: 2 });
    await shipped(sale, 2);
    await openSandboxReturn(t.db, { orderId: sale.marketplaceOrderId, lineItemId: sale.lineItemId, quantity: 2, reason: "NO_LONGER_NEED_ITEM" }, { now });
    await pollBuyerRequests(t.db, port, now);
    const [stored] = await requestsOf(sale.orderId);
    await decideRequest(t.db, { requestId: stored!.id, accept: true }, staff, ports);
    expect(await stockOf(sale.productId)).toBe(1);

    const clicks = await Promise.all([receiveReturn(t.db, { requestId: stored!.id }, staff), receiveReturn(t.db, { requestId: stored!.id }, staff)]);
    expect(clicks.map((view) => view.receivedAt)).toEqual([now, now]);
    expect(await stockOf(sale.productId)).toBe(3);
    expect(await returnRowsOf(sale.productId)).toEqual([{ quantity: 2, orderItemId: stored!.lines[0]!.orderItemId }]);
  });

  it("are refused by the stand-in before the piece shipped, and a declined one is told to eBay", async () => {
    const sale = await importedEbaySale("Tissot Visodate");
    await expect(openSandboxReturn(t.db, { orderId: sale.marketplaceOrderId, lineItemId: sale.lineItemId, quantity: 1, reason: "NO_LONGER_NEED_ITEM" }, { now })).rejects.toThrow("has not been shipped yet");
    await shipped(sale);
    await expect(openSandboxReturn(t.db, { orderId: sale.marketplaceOrderId, lineItemId: sale.lineItemId, quantity: 2, reason: "NO_LONGER_NEED_ITEM" }, { now })).rejects.toThrow("at most 1");
    const { returnId } = await openSandboxReturn(t.db, { orderId: sale.marketplaceOrderId, lineItemId: sale.lineItemId, quantity: 1, reason: "NO_LONGER_NEED_ITEM" }, { now });
    await pollBuyerRequests(t.db, port, now);
    const [stored] = await requestsOf(sale.orderId);
    expect(await decideRequest(t.db, { requestId: stored!.id, accept: false, comment: "Returns are not accepted for change of mind" }, staff, ports)).toMatchObject({ state: "DECLINED", can: { decide: false, receive: false, refund: false } });
    // eBay refuses a second answer, as the stand-in does.
    await expect(port.decideBuyerRequest({ kind: "RETURN", requestId: returnId, accept: true, comment: null })).rejects.toBeInstanceOf(MarketplaceError);
    await expect(refundReturn(t.db, { requestId: stored!.id }, staff, ports)).rejects.toThrow("only an accepted return is refunded here");
  });
});

describe("cancellations requested on eBay", () => {
  it("approved before shipping cancel the order, refund it in full through eBay and put the pieces back at once", async () => {
    const sale = await importedEbaySale("Zenith El Primero", { stock: 2 });
    expect(await stockOf(sale.productId)).toBe(1);
    const { cancelId } = await requestSandboxCancellation(t.db, { orderId: sale.marketplaceOrderId, reason: "BUYER_CANCEL_ORDER" }, { now });
    await expect(requestSandboxCancellation(t.db, { orderId: sale.marketplaceOrderId, reason: "ORDER_MISTAKE" }, { now })).rejects.toThrow("already asked to cancel");

    // (The earlier tests' returns accepted since are updated with eBay's state by the same poll.)
    expect(await pollBuyerRequests(t.db, port, now)).toMatchObject({ recorded: 1 });
    const [stored] = await requestsOf(sale.orderId);
    expect(stored).toMatchObject({ kind: "CANCELLATION", marketplaceRequestId: cancelId, state: "REQUESTED", marketplaceState: "CANCEL_REQUESTED", requestedRefund: new Decimal("300.00") });
    expect(await noticesAbout(sale.orderNumber)).toEqual([{
      message: `The eBay buyer of order ${sale.orderNumber} asks to cancel it (the buyer changed their mind): do not ship it: accept or decline it on the order's page before 2026-03-07.`,
    }]);

    const approved = await decideRequest(t.db, { requestId: stored!.id, accept: true }, staff, ports);
    expect(approved).toMatchObject({ state: "ACCEPTED", refundIds: [expect.any(Number)] });
    expect(await statusOf(sale.orderId)).toBe("CANCELLED");
    expect(await stockOf(sale.productId)).toBe(2);
    const [given] = await t.db.select().from(refundTable).where(eq(refundTable.id, approved.refundIds[0]!));
    expect(given).toMatchObject({ status: "REFUNDED", amount: new Decimal("300.00") });
    expect(await port.getRefunds(sale.marketplaceOrderId)).toEqual([expect.objectContaining({ status: "REFUNDED", amount: new Decimal("300.00") })]);
    expect((await port.getOrders({ orderIds: [sale.marketplaceOrderId] }))[0]!.cancelled).toBe(true);
    await pollBuyerRequests(t.db, port, now);
    expect((await requestsOf(sale.orderId))[0]).toMatchObject({ state: "CLOSED", marketplaceState: "CANCEL_CLOSED_WITH_REFUND" });
  });

  it("cannot be approved once the order shipped: refused before eBay is asked", async () => {
    const sale = await importedEbaySale("Longines Conquest");
    await requestSandboxCancellation(t.db, { orderId: sale.marketplaceOrderId, reason: "BUYER_CANCEL_ORDER" }, { now });
    await pollBuyerRequests(t.db, port, now);
    const [stored] = await requestsOf(sale.orderId);
    await shipped(sale);
    await expect(decideRequest(t.db, { requestId: stored!.id, accept: true }, staff, ports)).rejects.toThrow();
    expect((await requestsOf(sale.orderId))[0]).toMatchObject({ state: "REQUESTED" });
    expect(await statusOf(sale.orderId)).toBe("SHIPPED");
  });
});
