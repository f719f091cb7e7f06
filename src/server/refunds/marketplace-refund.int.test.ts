import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { marketplaceOffer, refund as refundTable } from "@/server/db/schema";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { buySandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { importMarketplaceOrder } from "@/server/marketplace/order-import";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";
import { sendRefund, UNLISTED_REFUND_FAILS_AFTER_MS, type RefundPorts } from "./refund-payout";
import { createRefundInput } from "./schemas";
import { createRefund, getRefundProposal, retryRefund } from "./service";

/**
 * Refunds of eBay orders when eBay's answer is lost (SECURITY-REVIEW N-M4). eBay takes no idempotency key, so the
 * `refund-send` safety net, which calls `sendRefund` a minute later, must never send an attempt again: it asks eBay
 * for the refund the request made. Played on the sandbox marketplace, which lists refunds on the order as eBay does.
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
const unreachableShop = "http://127.0.0.1:9";
let port: MarketplacePort;

beforeAll(() => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: unreachableShop });
});

const buyer = { fullName: "Jan de Vries", addressLine1: "Keizersgracht 123-A", postalCode: "1015 CJ", city: "Amsterdam", countryCode: "NL", email: "jan@example.com" };

/** An eBay sale of one piece at €300, imported as the shop's EBAY order. */
async function importedEbaySale(name: string) {
  const made = await makeStockedProduct(t.db, { name, price: "300.00", stock: 1 });
  const sku = `BC-${made.id}`;
  await port.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: name, description: `<p>${name}</p>`, aspects: wristwatchAspects, imageUrls: [], quantity: 1 }]);
  const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal("300.00"), quantity: 1, categoryId: "31387", storeCategoryNames: [], listingDescription: `<p>${name}</p>` });
  const { listingId } = await port.publishOffer(offerId);
  await t.db.insert(marketplaceOffer).values({ productId: made.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: 1, pushedPrice: new Decimal("300.00"), lastPushedAt: now });
  const { orderId } = await buySandboxListing(t.db, { listingId, quantity: 1, buyer }, { shopUrl: unreachableShop });
  const [sale] = await port.getOrders({ orderIds: [orderId] });
  const imported = await importMarketplaceOrder(t.db, sale!, now);
  if (imported.result !== "imported") throw new Error(`the sale was not imported: ${imported.result}`);
  return { marketplaceOrderId: orderId, orderNumber: imported.orderNumber };
}

/** The refund ports with the sandbox marketplace, or with one whose refundOrder goes wrong as `refundOrder` says. */
const portsWith = (refundOrder: MarketplacePort["refundOrder"] = (request) => port.refundOrder(request)): RefundPorts => ({
  paymentsFor: () => createSandboxPayments({ db: t.db, baseUrl: "http://127.0.0.1" }),
  marketplace: () => ({ ...port, refundOrder }),
});

/** A goodwill refund of €40 (part of the order, so that a second payout would be accepted by eBay too). */
const goodwill = (orderNumber: string) => createRefundInput.parse({ orderNumber, kind: "GOODWILL", amount: "40.00", reason: "OTHER", comment: "Scratch on the case" });

const refundsOf = async (orderNumber: string) => (await getRefundProposal(t.db, orderNumber)).refunds;
const storedRefund = async (refundId: number) => (await t.db.select().from(refundTable).where(eq(refundTable.id, refundId)))[0]!;
const minutesLater = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

describe("refunds of eBay orders whose answer was lost", () => {
  it("are never paid twice: the safety net finds the refund eBay made and records it", async () => {
    const sale = await importedEbaySale("Omega Constellation 168.005");
    // eBay makes the refund, and its answer never reaches the shop.
    const answerLost = portsWith(async (request) => {
      await port.refundOrder(request);
      throw new MarketplaceError("issueRefund", null, [], "eBay could not be reached for issueRefund (socket hang up)");
    });
    const given = await createRefund(t.db, goodwill(sale.orderNumber), { userId: null, now }, answerLost);
    expect(given).toMatchObject({ status: "PENDING", amount: "40.00" });
    expect(await port.getRefunds(sale.marketplaceOrderId)).toHaveLength(1);

    // The refund-send job a minute later, and again after it: eBay still shows the one refund.
    expect(await sendRefund(t.db, given.id, portsWith(), { userId: null, now: minutesLater(1) })).toBe("accepted");
    expect(await sendRefund(t.db, given.id, portsWith(), { userId: null, now: minutesLater(3) })).toBe("nothing to do");

    const atEbay = await port.getRefunds(sale.marketplaceOrderId);
    expect(atEbay).toEqual([{ refundId: expect.any(String), status: "REFUNDED", amount: new Decimal("40.00"), lineItemId: null }]);
    expect(await storedRefund(given.id)).toMatchObject({ status: "REFUNDED", externalRefundId: atEbay[0]!.refundId });
    expect(await refundsOf(sale.orderNumber)).toEqual([expect.objectContaining({ status: "REFUNDED", amount: "40.00" })]);
  });

  it("are not paid twice when the process ended after eBay answered, before the answer was written", async () => {
    const sale = await importedEbaySale("Seiko 6139-6002");
    const processEnded = portsWith(async (request) => {
      await port.refundOrder(request);
      throw new Error("the process ended");
    });
    const given = await createRefund(t.db, goodwill(sale.orderNumber), { userId: null, now }, processEnded);
    expect(given.status).toBe("PENDING");

    expect(await sendRefund(t.db, given.id, portsWith(), { userId: null, now: minutesLater(1) })).toBe("accepted");
    expect(await port.getRefunds(sale.marketplaceOrderId)).toHaveLength(1);
  });

  it("fail for staff to retry when eBay never received the request, and the retry pays once", async () => {
    const sale = await importedEbaySale("Tissot Visodate");
    const unreachable = portsWith(async () => {
      throw new MarketplaceError("issueRefund", null, [], "eBay could not be reached for issueRefund (connect ECONNREFUSED)");
    });
    const given = await createRefund(t.db, goodwill(sale.orderNumber), { userId: null, now }, unreachable);
    expect(given.status).toBe("PENDING");

    // eBay lists nothing; the safety net waits while the request might still show, and never sends it again.
    expect(await sendRefund(t.db, given.id, portsWith(), { userId: null, now: minutesLater(1) })).toBe("unknown");
    expect(await port.getRefunds(sale.marketplaceOrderId)).toEqual([]);
    const late = new Date(now.getTime() + UNLISTED_REFUND_FAILS_AFTER_MS + 60_000);
    expect(await sendRefund(t.db, given.id, portsWith(), { userId: null, now: late })).toBe("refused");
    expect(await storedRefund(given.id)).toMatchObject({
      status: "FAILED",
      failureMessage: "ebay lists no refund for the request sent 16 minutes ago, so it never arrived",
    });
    expect(await port.getRefunds(sale.marketplaceOrderId)).toEqual([]);

    const retried = await retryRefund(t.db, { refundId: given.id }, { userId: null, now: late }, portsWith());
    expect(retried.status).toBe("REFUNDED");
    expect(await port.getRefunds(sale.marketplaceOrderId)).toEqual([expect.objectContaining({ status: "REFUNDED", amount: new Decimal("40.00") })]);
  });

  it("tell two refunds of the same amount apart by what the order's other refunds are known by", async () => {
    const sale = await importedEbaySale("Zenith El Primero");
    const first = await createRefund(t.db, goodwill(sale.orderNumber), { userId: null, now }, portsWith());
    expect(first.status).toBe("REFUNDED");
    const answerLost = portsWith(async (request) => {
      await port.refundOrder(request);
      throw new MarketplaceError("issueRefund", 503, [], "eBay refused issueRefund: HTTP 503");
    });
    const second = await createRefund(t.db, goodwill(sale.orderNumber), { userId: null, now: minutesLater(5) }, answerLost);
    expect(second.status).toBe("PENDING");

    expect(await sendRefund(t.db, second.id, portsWith(), { userId: null, now: minutesLater(6) })).toBe("accepted");
    const atEbay = await port.getRefunds(sale.marketplaceOrderId);
    expect(atEbay).toHaveLength(2);
    const [one, two] = [await storedRefund(first.id), await storedRefund(second.id)];
    expect(new Set([one.externalRefundId, two.externalRefundId])).toEqual(new Set(atEbay.map((entry) => entry.refundId)));
  });
});
