import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { marketplaceOffer, orderItem, paymentDetail, sandboxRefund, stockLot, stockRecord, stockRecordCost } from "@/server/db/schema";
import { createLabel, voidLabel } from "@/server/fulfilment/labels";
import { getCarrier } from "@/server/integrations/carriers/carriers";
import type { MarketplaceOrder, MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { buySandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { createSandboxPrivateStorage } from "@/server/integrations/storage/sandbox";
import { importMarketplaceOrder } from "@/server/marketplace/order-import";
import { cancelOrder, createRefund, retryRefund } from "@/server/refunds/service";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeCategory, makeStockedProduct, placeGuestOrder } from "../../../tests/helpers/factories";
import { payOnSandbox } from "../../../tests/helpers/paid-orders";
import { rollupsAsStored, salesFromScratch } from "../../../tests/helpers/sales-from-scratch";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";
import { createCounterSale } from "./counter-sale";
import { createManualOrder, updateManualOrder } from "./manual-order-service";
import { createCounterSaleInput, createManualOrderInput, updateManualOrderInput } from "./manual-order-schemas";
import { backfillSalesRollups, recordSalesShare } from "./sales-rollup";

/**
 * The sales rollups against the order tables (issue 29, acceptance 2, the rollups' half): after every change the shop
 * makes to an order, the three rollups equal an aggregation from scratch of the order rows as they stand
 * (tests/helpers/sales-from-scratch.ts, which shares no code with the rollups), to the cent; and the backfill of the
 * same orders gives the same rollups as the live path.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now, products: 30 });
let admin: { id: string };
let payments: PaymentsPort;
let marketplace: MarketplacePort;
const actor = () => ({ userId: admin.id, now });
const refundPorts = () => ({ paymentsFor: () => payments });
const labelPorts = () => ({ carrierFor: getCarrier, storage: createSandboxPrivateStorage({ root: path.join(os.tmpdir(), `sales-rollup-labels-${process.pid}`) }) });

async function expectRollupsAgree() {
  const [stored, scratch] = await Promise.all([rollupsAsStored(t.db), salesFromScratch(t.db)]);
  expect(stored).toEqual(scratch);
  return stored;
}

/**
 * What `bookStock` records for an order's lines on the cost branch (wp-cost), written by hand here: the pieces of each
 * line taken from a lot at `unitCost` (null: a lot of unknown cost).
 */
async function recordLineCosts(orderId: number, unitCost: { euro: string; php: string } | null) {
  const rows = await t.db
    .select({ stockRecordId: stockRecord.id, productId: stockRecord.productId, orderItemId: stockRecord.orderItemId, quantity: stockRecord.quantity })
    .from(stockRecord)
    .innerJoin(orderItem, eq(orderItem.id, stockRecord.orderItemId))
    .where(and(eq(orderItem.orderId, orderId), eq(stockRecord.type, "ORDER_ITEM")));
  for (const row of rows) {
    const pieces = -row.quantity;
    const [lot] = await t.db
      .insert(stockLot)
      .values({ productId: row.productId, bookedAt: now, pieces, piecesLeft: 0, unitCostEuro: unitCost ? new Decimal(unitCost.euro) : null, unitCostPhp: unitCost ? new Decimal(unitCost.php) : null })
      .returning({ id: stockLot.id });
    await t.db.insert(stockRecordCost).values({
      stockRecordId: row.stockRecordId,
      lotId: lot!.id,
      orderItemId: row.orderItemId,
      pieces: row.quantity,
      costEuro: unitCost ? new Decimal(unitCost.euro).times(row.quantity) : null,
      costPhp: unitCost ? new Decimal(unitCost.php).times(row.quantity) : null,
    });
  }
}

/** A web order placed and paid through the sandbox provider and its webhook, its pieces costed as `bookStock` would. */
async function paidWebOrder(lines: { productId: number; quantity: number }[], unitCost: { euro: string; php: string } | null, countryCode = "NL") {
  const placed = await placeGuestOrder(t.db, { email: "buyer@example.com", items: lines, address: countryCode === "NL" ? {} : { countryCode, postCode: "10115", city: "Berlin" } }, now);
  await recordLineCosts(placed.orderId, unitCost);
  await payOnSandbox(t.db, placed, payments, "paid", now);
  return placed;
}

const lineOf = async (orderId: number) => (await t.db.select({ id: orderItem.id }).from(orderItem).where(eq(orderItem.orderId, orderId)))[0]!.id;

beforeAll(async () => {
  admin = await makeUser(t.db, "ADMIN", "Ada");
  payments = createSandboxPayments({ db: t.db, baseUrl: "https://shop.example" });
  marketplace = createSandboxMarketplace({ db: t.db, shopUrl: "http://127.0.0.1:9" });
});

describe("the sales rollups", () => {
  it("hold the seed's orders as the backfill added them up", async () => {
    const { days, products } = await expectRollupsAgree();
    expect(days.length).toBeGreaterThan(0);
    expect(products.length).toBeGreaterThan(0);
  });

  it("follow every change of an order, each step equal to the order tables added up from scratch", async () => {
    const crowns = await makeCategory(t.db, "Crowns for rollups");
    const crown = await makeStockedProduct(t.db, { name: "Rollup crown", price: "40.00", stock: 20, category: crowns });
    const strap = await makeStockedProduct(t.db, { name: "Rollup strap", price: "25.00", stock: 20 });

    // Placed, not paid: no sale yet.
    const unpaid = await placeGuestOrder(t.db, { email: "later@example.com", items: [{ productId: crown.id, quantity: 1 }] }, now);
    await expectRollupsAgree();

    // Paid: a web-shop sale to the Netherlands, its pieces at a known cost, and one to Germany of unknown cost.
    const paid = await paidWebOrder([{ productId: crown.id, quantity: 2 }, { productId: strap.id, quantity: 1 }], { euro: "12.50", php: "800.00" });
    const german = await paidWebOrder([{ productId: strap.id, quantity: 1 }], null, "DE");
    await expectRollupsAgree();

    // A refund of one crown put back in stock, paid out by the provider; a goodwill refund of the German order.
    await createRefund(t.db, { orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: await lineOf(paid.orderId), quantity: 1, restock: true, amount: new Decimal("36.00"), reason: "WRONG_ITEM" }, actor(), refundPorts());
    await createRefund(t.db, { orderNumber: german.orderNumber, kind: "SHIPPING", restock: false, amount: new Decimal("5.00"), reason: "OTHER" }, actor(), refundPorts());
    await expectRollupsAgree();

    // A refund the provider refuses gives nothing back; tried again once the provider has the money, it does.
    // Someone refunded most of the payment in the provider's dashboard, outside the shop.
    const [payment] = await t.db.select({ id: paymentDetail.externalPaymentId }).from(paymentDetail).where(eq(paymentDetail.orderId, paid.orderId));
    const outside = await payments.refundPayment({ externalPaymentId: payment!.id!, amount: new Decimal("60.00"), idempotencyKey: `outside-${paid.orderId}` });
    const refused = await createRefund(t.db, { orderNumber: paid.orderNumber, kind: "PRODUCT", orderItemId: await lineOf(paid.orderId), quantity: 1, restock: false, amount: new Decimal("30.00"), reason: "OTHER" }, actor(), refundPorts());
    expect(refused.status).toBe("FAILED");
    await expectRollupsAgree();
    await t.db.delete(sandboxRefund).where(eq(sandboxRefund.id, outside.externalRefundId));
    expect((await retryRefund(t.db, { refundId: refused.id }, actor(), refundPorts())).status).toBe("REFUNDED");
    await expectRollupsAgree();

    // A label bought and voided: its cost counts while it stands.
    const labelled = await paidWebOrder([{ productId: strap.id, quantity: 2 }], { euro: "9.00", php: "560.00" });
    await createLabel(t.db, labelled.orderId, actor(), labelPorts());
    const withLabel = await expectRollupsAgree();
    expect(withLabel.days.find((line) => line.startsWith("2026-03-04 WEBSHOP NL:"))).not.toContain("labelCost=0.00");
    await voidLabel(t.db, labelled.orderId, actor(), labelPorts());
    await expectRollupsAgree();

    // Cancelled with what is left refunded: the order counts nowhere; the unpaid one cancelled counted nowhere before.
    await cancelOrder(t.db, { orderNumber: labelled.orderNumber }, actor(), refundPorts());
    await cancelOrder(t.db, { orderNumber: unpaid.orderNumber }, actor(), refundPorts());
    await expectRollupsAgree();

    // A manual order paid at once (channel MANUAL), then edited: a line removed, the other's quantity lowered.
    const address = { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };
    const manual = await createManualOrder(
      t.db,
      createManualOrderInput.parse({ userId: null, address, email: "grace@example.com", lines: [{ productId: crown.id, quantity: 2 }, { productId: strap.id, quantity: 1 }], shippingMethod: "TNT", paymentMethod: "BANKTRANSFER", paid: true }),
      actor(),
    );
    await expectRollupsAgree();
    await updateManualOrder(
      t.db,
      updateManualOrderInput.parse({ orderNumber: manual.orderNumber, address, email: "grace@example.com", lines: [{ productId: crown.id, quantity: 1 }], shippingMethod: "TNT" }),
      actor(),
    );
    const afterEdit = await expectRollupsAgree();
    expect(afterEdit.days.some((line) => line.includes(" MANUAL NL: orders=1 pieces=1 revenue=40.00"))).toBe(true);

    // A counter sale: MANUAL, no address.
    await createCounterSale(t.db, createCounterSaleInput.parse({ buyer: { firstName: "Jan", lastName: "Bakker" }, lines: [{ productId: strap.id, quantity: 1 }], paymentMethod: "BANKTRANSFER" }), actor());
    await expectRollupsAgree();

    // An eBay order imported from the marketplace.
    const listed = await makeStockedProduct(t.db, { name: "Rollup eBay watch", price: "150.00", stock: 2 });
    const sku = `BC-${listed.id}`;
    await marketplace.putItems([{ sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: listed.name, description: "<p>watch</p>", aspects: wristwatchAspects, imageUrls: [], quantity: 2 }]);
    const { offerId } = await marketplace.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal("150.00"), quantity: 2, categoryId: "31387", storeCategoryNames: [], listingDescription: "<p>watch</p>" });
    const { listingId } = await marketplace.publishOffer(offerId);
    await t.db.insert(marketplaceOffer).values({ productId: listed.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: 2, pushedPrice: new Decimal("150.00"), lastPushedAt: now });
    const buyer = { fullName: "Jan de Vries", addressLine1: "Keizersgracht 123-A", postalCode: "1015 CJ", city: "Amsterdam", countryCode: "NL", email: "jan@example.com" };
    const { orderId: ebayOrderId } = await buySandboxListing(t.db, { listingId, quantity: 1, buyer }, { shopUrl: "http://127.0.0.1:9" });
    const [ebayOrder] = await marketplace.getOrders({ orderIds: [ebayOrderId] });
    expect((await importMarketplaceOrder(t.db, ebayOrder as MarketplaceOrder, now)).result).toBe("imported");
    const withEbay = await expectRollupsAgree();
    expect(withEbay.days.some((line) => line.includes(" EBAY NL: orders=1"))).toBe(true);
  });

  it("gives the same rollups from the backfill as from the live path", async () => {
    const live = await expectRollupsAgree();
    await t.db.execute(sql`delete from order_sales_share`);
    await t.db.execute(sql`delete from sales_day`);
    await t.db.execute(sql`delete from sales_day_category`);
    await t.db.execute(sql`delete from sales_month_product`);
    await t.db.execute(sql`delete from sales_period_product`);
    expect(await backfillSalesRollups(t.db)).toMatchObject({ orders: expect.any(Number) });
    expect(await rollupsAsStored(t.db)).toEqual(live);
    // Once: with shares stored, a second run (another instance starting) adds nothing.
    expect(await backfillSalesRollups(t.db)).toBeNull();
    expect(await rollupsAsStored(t.db)).toEqual(live);
  });

  it("moves the figures once when changes of one order race, and loses none when orders of one day race", async () => {
    const racer = await makeStockedProduct(t.db, { name: "Racing crown", price: "30.00", stock: 20 });
    const orders: Awaited<ReturnType<typeof placeGuestOrder>>[] = [];
    for (let index = 0; index < 6; index++) {
      orders.push(await placeGuestOrder(t.db, { email: `racer${index}@example.com`, items: [{ productId: racer.id, quantity: 1 }] }, now));
    }
    // Six orders of the same day and channel paid at the same moment, each in its own transaction.
    await Promise.all(orders.map((placed) => payOnSandbox(t.db, placed, payments, "paid", now)));
    await expectRollupsAgree();

    // One order's label cost changed behind the rollups' back, then its share recorded by five transactions at once:
    // the share row's lock lets the first move the figures and the others find nothing left to move.
    await t.db.execute(sql`update order_detail set label_cost = 7.45 where order_id = ${orders[0]!.orderId}`);
    await Promise.all(Array.from({ length: 5 }, () => t.db.transaction((tx) => recordSalesShare(tx, orders[0]!.orderId))));
    await expectRollupsAgree();
  });
});
