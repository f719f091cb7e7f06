import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { logbook, marketplaceOffer, paymentDetail } from "@/server/db/schema";
import { rawRows } from "@/server/db/raw-rows";
import type { MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { buySandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import { orderMargin } from "@/server/margins/order-margin";
import { makeStockedProduct, placeOneWatchOrder } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { orderFeesJob, recordMarketplaceFees } from "./fees";
import { importMarketplaceOrder } from "./order-import";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";

/**
 * Issue 30, acceptance 1: an imported eBay order's fees on its margin card. The sandbox marketplace's Finances API
 * (signed) gives the sale's fees; the import queues the job that records them as the order's provider fees, the margin
 * and the owner's daily figures move with them, and a sale eBay has not booked yet is asked for again.
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
const shopUrl = "http://127.0.0.1:9";
let port: MarketplacePort;

beforeAll(() => {
  port = createSandboxMarketplace({ db: t.db, shopUrl });
});

async function importedSale(name: string, price: string) {
  const made = await makeStockedProduct(t.db, { name, price, stock: 1 });
  const sku = `BC-${made.id}`;
  await port.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: name, description: `<p>${name}</p>`, aspects: wristwatchAspects, imageUrls: [], quantity: 1 }]);
  const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal(price), quantity: 1, categoryId: "31387", storeCategoryNames: [], listingDescription: `<p>${name}</p>` });
  const { listingId } = await port.publishOffer(offerId);
  await t.db.insert(marketplaceOffer).values({ productId: made.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: 1, pushedPrice: new Decimal(price), lastPushedAt: now });
  const buyer = { fullName: "Piet Bakker", addressLine1: "Damrak 1", postalCode: "1012 LG", city: "Amsterdam", countryCode: "NL", email: "piet@example.com" };
  const { orderId: marketplaceOrderId } = await buySandboxListing(t.db, { listingId, quantity: 1, buyer }, { shopUrl });
  const [sale] = await port.getOrders({ orderIds: [marketplaceOrderId] });
  const outcome = await importMarketplaceOrder(t.db, sale!, now);
  if (outcome.result !== "imported") throw new Error(`not imported: ${outcome.result}`);
  return { ...outcome, marketplaceOrderId };
}

const providerFeesOfDay = async () => {
  const [row] = await rawRows<{ fees: string | null }>(t.db, sql`select sum(provider_fees)::text as fees from sales_day where channel = 'EBAY'`);
  return new Decimal(row?.fees ?? 0);
};

describe("eBay's fees on imported orders", () => {
  it("records the sale's fees as the order's provider fees: the margin card and the owner's figures show them", async () => {
    const { orderId, marketplaceOrderId } = await importedSale("Longines Conquest 1958", "400.00");
    // The import queued the fees' job for this order, to run a little later.
    const queued = await rawRows<{ data: { orderId: number } }>(t.db, sql`select data from pgboss.job where name = ${orderFeesJob.name} and state < 'completed'`);
    expect(queued.map((job) => job.data.orderId)).toContain(orderId);

    const before = await orderMargin(t.db, orderId);
    expect(before.providerFees.toFixed(2)).toBe("0.00");
    const dayBefore = await providerFeesOfDay();

    expect(await recordMarketplaceFees(t.db, port, orderId)).toEqual({ result: "recorded", fees: new Decimal("44.35") });
    const after = await orderMargin(t.db, orderId);
    // 11 % of 400.00 and 0.35 for the order: what eBay kept, out of the margin.
    expect(after.providerFees.toFixed(2)).toBe("44.35");
    expect(after.margin!.toFixed(2)).toBe(before.margin!.minus("44.35").toFixed(2));
    expect((await providerFeesOfDay()).minus(dayBefore).toFixed(2)).toBe("44.35");
    const [payment] = await t.db.select({ providerFees: paymentDetail.providerFees }).from(paymentDetail).where(eq(paymentDetail.orderId, orderId));
    expect(payment!.providerFees!.toFixed(2)).toBe("44.35");
    const [entry] = await t.db
      .select({ description: logbook.description, newState: logbook.newState })
      .from(logbook)
      .where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(orderId)), sql`${logbook.newState}->>'providerFees' is not null`));
    expect(entry!.description).toContain(`eBay ${marketplaceOrderId}`);
    expect(entry!.newState).toMatchObject({ providerFees: "44.35", marketplaceFees: { FINAL_VALUE_FEE: "44.00", FINAL_VALUE_FEE_FIXED_PER_ORDER: "0.35" } });

    // Read again, nothing changes: the figures are not counted twice.
    expect(await recordMarketplaceFees(t.db, port, orderId)).toEqual({ result: "unchanged", fees: new Decimal("44.35") });
    expect((await providerFeesOfDay()).minus(dayBefore).toFixed(2)).toBe("44.35");
  });

  it("asks again while eBay lists no sale transaction for the order, and leaves a web order alone", async () => {
    const { orderId } = await importedSale("Tissot Visodate", "250.00");
    const notYet: MarketplacePort = { ...port, getOrderFees: async () => null };
    expect(await recordMarketplaceFees(t.db, notYet, orderId)).toEqual({ result: "not yet" });
    expect((await orderMargin(t.db, orderId)).providerFees.toFixed(2)).toBe("0.00");
    expect(orderFeesJob.retry).toMatchObject({ limit: 8, backoff: true });

    const web = await placeOneWatchOrder(t.db, { email: "web@example.com", method: "IDEAL", now });
    expect(await recordMarketplaceFees(t.db, port, web.orderId)).toEqual({ result: "not a marketplace order" });
  });
});
