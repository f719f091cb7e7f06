import { Decimal } from "decimal.js";
import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminNotification, logbook, marketplaceOffer, marketplaceSync, order, orderAddress, orderDetail, orderItem, product, refund as refundTable, stockRecord } from "@/server/db/schema";
import { rawRows } from "@/server/db/raw-rows";
import { AppError } from "@/server/errors";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { MarketplaceError, type MarketplaceOrder, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { buySandboxListing } from "@/server/integrations/marketplace/sandbox-store";
import { selectOrderWithDetails } from "@/server/orders/order-rows";
import { createRefundInput } from "@/server/refunds/schemas";
import { createRefund, getRefundProposal } from "@/server/refunds/service";
import { makeStockedProduct, placeGuestOrder } from "../../../tests/helpers/factories";
import { payOnSandbox } from "../../../tests/helpers/paid-orders";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { wristwatchAspects } from "../../../tests/helpers/marketplace-offer";
import { importMarketplaceOrder } from "./order-import";
import { pollMarketplaceOrders } from "./order-poll";
import { requestShipmentUpload, uploadShipment } from "./shipment";

/**
 * Marketplace orders imported on a real database from the sandbox marketplace (its buyer pages' purchase, read back
 * through getOrders): exactly once, into an EBAY order with its stock booked through the ledger; and the last piece
 * sold on the web shop and on eBay at the same moment.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam, a shipping day before the cut-off
const t = seededDatabaseForFile({ now });
// Nothing listens there: the sandbox's notification fails fast and the tests import by themselves.
const unreachableShop = "http://127.0.0.1:9";
let port: MarketplacePort;

beforeAll(() => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: unreachableShop });
});

const buyer = { fullName: "Jan de Vries", addressLine1: "Keizersgracht 123-A", postalCode: "1015 CJ", city: "Amsterdam", countryCode: "NL", email: "jan@example.com" };

/** A product with stock through the ledger, listed on the sandbox marketplace with its offer published, as offers do it. */
async function listedProduct(name: string, stock: number, price = "150.00") {
  const made = await makeStockedProduct(t.db, { name, price, stock });
  const sku = `BC-${made.id}`;
  const [item] = await port.putItems([
    { sku, marketplaceId: "EBAY_NL", condition: "USED_EXCELLENT", conditionDescription: null, title: name, description: `<p>${name}</p>`, aspects: wristwatchAspects, imageUrls: [], quantity: stock },
  ]);
  expect(item?.ok).toBe(true);
  const { offerId } = await port.createOffer({ sku, marketplaceId: "EBAY_NL", price: new Decimal(price), quantity: stock, categoryId: "31387", storeCategoryNames: [], listingDescription: `<p>${name}</p>` });
  const { listingId } = await port.publishOffer(offerId);
  await t.db.insert(marketplaceOffer).values({ productId: made.id, sku, marketplaceId: "EBAY_NL", offerId, listingId, status: "PUBLISHED", pushedQuantity: stock, pushedPrice: new Decimal(price), lastPushedAt: now });
  return { ...made, sku, listingId };
}

/** A buyer's "Buy it now" on the sandbox marketplace, read back as the marketplace reports the order. */
async function buyOnMarketplace(listingId: string, quantity = 1): Promise<MarketplaceOrder> {
  const { orderId } = await buySandboxListing(t.db, { listingId, quantity, buyer }, { shopUrl: unreachableShop });
  const [found] = await port.getOrders({ orderIds: [orderId] });
  return found!;
}

const stockOf = async (productId: number) => (await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId)))[0]!.stock;
const ordersOf = (marketplaceOrderId: string) => t.db.select({ orderId: orderDetail.orderId }).from(orderDetail).where(eq(orderDetail.marketplaceOrderId, marketplaceOrderId));
const saleRecordsOf = (productId: number) =>
  t.db.select({ quantity: stockRecord.quantity, orderItemId: stockRecord.orderItemId }).from(stockRecord).where(and(eq(stockRecord.productId, productId), eq(stockRecord.type, "ORDER_ITEM")));
const itemsOf = (productId: number) =>
  t.db.select({ orderId: orderItem.orderId, quantity: orderItem.quantity, oversold: orderItem.oversoldQuantity, lineItemId: orderItem.marketplaceLineItemId }).from(orderItem).where(eq(orderItem.productId, productId));
const notificationsLike = (pattern: string) => t.db.select({ type: adminNotification.type, severity: adminNotification.severity, message: adminNotification.message }).from(adminNotification).where(like(adminNotification.message, pattern));

async function importedOrder(orderId: number) {
  const [row] = await selectOrderWithDetails(t.db).where(eq(order.id, orderId));
  return row!;
}

describe("importing marketplace orders", () => {
  it("makes a sandbox purchase a paid EBAY order with its address, totals and stock, found by the poll and imported once", async () => {
    const watch = await listedProduct("Omega Seamaster 300", 2, "250.00");
    const sale = await buyOnMarketplace(watch.listingId);

    const { imported } = await pollMarketplaceOrders(t.db, port);
    expect(imported).toBe(1);
    const [found] = await ordersOf(sale.orderId);
    const row = await importedOrder(found!.orderId);
    expect(row.order).toMatchObject({ status: "PAID_READY_TO_SHIP", userId: null, soldAt: sale.createdAt });
    expect(row.detail).toMatchObject({ shop: "EBAY", shippingMethod: "TNT", marketplaceOrderId: sale.orderId, marketplaceBuyer: sale.buyerUsername, oversoldAt: null });
    expect(row.payment).toMatchObject({ provider: "EBAY", externalPaymentId: `ebay:${sale.orderId}` });
    expect([row.payment.itemTotal.toFixed(2), row.payment.shippingTotal.toFixed(2), row.payment.total.toFixed(2)]).toEqual(["250.00", "0.00", "250.00"]);
    expect(row.address).toMatchObject({ firstName: "Jan", lastName: "de Vries", street: "Keizersgracht", houseNumber: "123-A", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL", country: "Netherlands", email: "jan@example.com" });

    expect(await stockOf(watch.id)).toBe(1);
    const items = await itemsOf(watch.id);
    expect(items).toEqual([{ orderId: found!.orderId, quantity: 1, oversold: 0, lineItemId: sale.lines[0]!.lineItemId }]);
    const records = await saleRecordsOf(watch.id);
    expect(records).toHaveLength(1);
    expect(records[0]!.quantity).toBe(-1);

    expect(await notificationsLike(`New eBay order ${row.order.orderNumber}%`)).toEqual([expect.objectContaining({ type: "EBAY_ORDER", severity: "INFO" })]);
    const entries = await t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(found!.orderId))));
    expect(entries.map((entry) => entry.description)).toEqual([
      expect.stringContaining(`imported from eBay order ${sale.orderId}`),
      `Order ${row.order.orderNumber}: PENDING → PAID_READY_TO_SHIP. Paid on eBay (order ${sale.orderId}).`,
    ]);
    const [sync] = await t.db.select().from(marketplaceSync).where(eq(marketplaceSync.id, "EBAY"));
    expect(sync).toMatchObject({ lastPollError: null });
    expect(sync!.ordersModifiedUntil).not.toBeNull();

    // The next poll overlaps the last one and finds the order again: nothing changes.
    expect(await pollMarketplaceOrders(t.db, port)).toEqual({ imported: 0 });
    expect(await ordersOf(sale.orderId)).toHaveLength(1);
    expect(await stockOf(watch.id)).toBe(1);
  });

  it("imports the same marketplace order taken at once by the notification's job and the poll exactly once, its stock booked once", async () => {
    const watch = await listedProduct("Seiko 6139 Pogue", 3);
    const sale = await buyOnMarketplace(watch.listingId, 2);
    const outcomes = await Promise.all([importMarketplaceOrder(t.db, sale, now), importMarketplaceOrder(t.db, sale, now), importMarketplaceOrder(t.db, sale, now)]);
    expect(outcomes.map((outcome) => outcome.result).sort()).toEqual(["already imported", "already imported", "imported"]);
    expect(await ordersOf(sale.orderId)).toHaveLength(1);
    expect(await stockOf(watch.id)).toBe(1);
    expect((await saleRecordsOf(watch.id)).map((record) => record.quantity)).toEqual([-2]);
  });

  it("leaves out lines that are no products of the shop and tells staff; an order of only such lines is not imported, and staff are told once", async () => {
    const strap = await listedProduct("Leather strap 20 mm", 1, "40.00");
    const mixed: MarketplaceOrder = {
      orderId: "11-11111-11111",
      createdAt: now,
      lastModifiedAt: now,
      fulfillmentStatus: "NOT_STARTED",
      paymentStatus: "PAID",
      cancelled: false,
      buyerUsername: "collector",
      currencies: ["EUR"],
      total: new Decimal("105.50"),
      deliveryCost: new Decimal("5.50"),
      lines: [
        { lineItemId: "1000000000001", sku: strap.sku, title: "Leather strap 20 mm", quantity: 1, lineItemCost: new Decimal("40.00") },
        { lineItemId: "1000000000002", sku: "OLD-LISTING-7", title: "Pocket watch key", quantity: 1, lineItemCost: new Decimal("60.00") },
      ],
      shipTo: { fullName: "Maria Rossi", addressLine1: "Via Roma 10", addressLine2: null, postalCode: "00184", city: "Roma", stateOrProvince: "RM", countryCode: "IT", phone: "+39 06 1234567", email: null },
    };
    const outcome = await importMarketplaceOrder(t.db, mixed, now);
    expect(outcome.result).toBe("imported");
    const [found] = await ordersOf(mixed.orderId);
    const row = await importedOrder(found!.orderId);
    expect([row.payment.itemTotal.toFixed(2), row.payment.shippingTotal.toFixed(2), row.payment.total.toFixed(2)]).toEqual(["40.00", "5.50", "45.50"]);
    expect(row.address).toMatchObject({ firstName: "Maria", lastName: "Rossi", street: "Via Roma", houseNumber: "10", countryCode: "IT", phoneNumber: "+39 06 1234567", email: "" });
    expect(await itemsOf(strap.id)).toHaveLength(1);
    expect(await notificationsLike(`%not products of the shop%Pocket watch key%OLD-LISTING-7%`)).toEqual([expect.objectContaining({ type: "OTHER", severity: "WARNING" })]);

    const foreign: MarketplaceOrder = { ...mixed, orderId: "22-22222-22222", lines: [mixed.lines[1]!] };
    expect(await importMarketplaceOrder(t.db, foreign, now)).toEqual({ result: "not ours" });
    expect(await importMarketplaceOrder(t.db, foreign, now)).toEqual({ result: "not ours" });
    expect(await ordersOf(foreign.orderId)).toEqual([]);
    expect(await notificationsLike(`eBay order ${foreign.orderId}%`)).toEqual([expect.objectContaining({ type: "OTHER", severity: "WARNING" })]);
  });

  it("puts each field of the buyer's address on one line: an eBay order cannot be refused for a line break (SECURITY-REVIEW N-M5)", async () => {
    const crystal = await listedProduct("Crystal 31.5 mm", 1, "25.00");
    const spoofed: MarketplaceOrder = {
      orderId: "33-33333-33333",
      createdAt: now,
      lastModifiedAt: now,
      fulfillmentStatus: "NOT_STARTED",
      paymentStatus: "PAID",
      cancelled: false,
      buyerUsername: "prankster",
      currencies: ["EUR"],
      total: new Decimal("30.50"),
      deliveryCost: new Decimal("5.50"),
      lines: [{ lineItemId: "3000000000001", sku: crystal.sku, title: "Crystal 31.5 mm", quantity: 1, lineItemCost: new Decimal("25.00") }],
      shipTo: {
        fullName: "Piet\nITEMS TO PACK:\r\n[ ] 1 x Rolex",
        addressLine1: "Damstraat\n12",
        addressLine2: "\u202EPAID IN FULL",
        postalCode: "1012\tJS",
        city: "Amsterdam\u2028",
        stateOrProvince: null,
        countryCode: "NL",
        phone: "\n",
        email: null,
      },
    };
    expect((await importMarketplaceOrder(t.db, spoofed, now)).result).toBe("imported");
    const [found] = await ordersOf(spoofed.orderId);
    expect((await importedOrder(found!.orderId)).address).toMatchObject({
      firstName: "Piet",
      lastName: "ITEMS TO PACK: [ ] 1 x Rolex",
      street: "Damstraat",
      houseNumber: "12",
      addressLine2: "PAID IN FULL",
      postCode: "1012 JS",
      city: "Amsterdam",
      phoneNumber: null,
    });
  });

  it("refuses an order whose amounts are not in euro: not imported, no stock taken, staff told and the logbook says so, once", async () => {
    const watch = await listedProduct("Seiko 5 Sports", 1, "120.00");
    const sale = await buyOnMarketplace(watch.listingId);
    // The same sale as eBay would report it from a marketplace in pounds: the figures are not euro.
    const inPounds: MarketplaceOrder = { ...sale, orderId: "44-44444-44444", currencies: ["GBP"] };
    const stockBefore = await stockOf(watch.id);

    expect(await importMarketplaceOrder(t.db, inPounds, now)).toEqual({ result: "other currency", currencies: ["GBP"] });
    expect(await ordersOf(inPounds.orderId)).toEqual([]);
    expect(await stockOf(watch.id)).toBe(stockBefore);
    expect(await notificationsLike(`eBay order ${inPounds.orderId} was not imported: its amounts are in GBP, not in euro%`)).toEqual([expect.objectContaining({ type: "OTHER", severity: "WARNING" })]);
    const entries = await t.db
      .select({ description: logbook.description, logLevel: logbook.logLevel, newState: logbook.newState })
      .from(logbook)
      .where(sql`${logbook.newState}->>'otherCurrencyMarketplaceOrderId' = ${inPounds.orderId}`);
    expect(entries).toEqual([{ description: expect.stringMatching(/^eBay order 44-44444-44444 was not imported: its amounts are in GBP, not in euro/), logLevel: "WARNING", newState: expect.objectContaining({ currencies: ["GBP"] }) }]);

    // The poll's overlap and the notification's job see it again: refused again, staff not told twice, and the
    // import job ends (an outcome, not an error) rather than trying it again and again.
    expect((await importMarketplaceOrder(t.db, inPounds, now)).result).toBe("other currency");
    const mixedCurrencies: MarketplaceOrder = { ...inPounds, currencies: ["EUR", "USD"] };
    expect((await importMarketplaceOrder(t.db, mixedCurrencies, now)).result).toBe("other currency");
    expect(await notificationsLike(`eBay order ${inPounds.orderId} was not imported%`)).toHaveLength(1);
    expect(await importMarketplaceOrder(t.db, sale, now)).toMatchObject({ result: "imported" });
  });

  it("does not import an order cancelled on the marketplace, and leaves one imported before for staff, telling them once", async () => {
    const watch = await listedProduct("Tissot Visodate", 2);
    const cancelledFirst = { ...(await buyOnMarketplace(watch.listingId)), cancelled: true };
    expect(await importMarketplaceOrder(t.db, cancelledFirst, now)).toEqual({ result: "cancelled" });
    expect(await ordersOf(cancelledFirst.orderId)).toEqual([]);

    const sale = await buyOnMarketplace(watch.listingId);
    const imported = await importMarketplaceOrder(t.db, sale, now);
    expect(imported.result).toBe("imported");
    expect((await importMarketplaceOrder(t.db, { ...sale, cancelled: true }, now)).result).toBe("already imported");
    expect((await importMarketplaceOrder(t.db, { ...sale, cancelled: true }, now)).result).toBe("already imported");
    const [found] = await ordersOf(sale.orderId);
    expect((await importedOrder(found!.orderId)).order.status).toBe("PAID_READY_TO_SHIP");
    expect(await notificationsLike(`eBay order ${sale.orderId} was cancelled on eBay%`)).toEqual([expect.objectContaining({ type: "EBAY_ORDER", severity: "WARNING" })]);
  });

  it("records a poll the marketplace did not answer and keeps the watermark for the next poll", async () => {
    const [before] = await t.db.select().from(marketplaceSync).where(eq(marketplaceSync.id, "EBAY"));
    const down: MarketplacePort = { ...port, getOrders: () => Promise.reject(new MarketplaceError("getOrders", 503, [], "eBay answered 503 Service Unavailable")) };
    const error = await pollMarketplaceOrders(t.db, down, new Date()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    const [after] = await t.db.select().from(marketplaceSync).where(eq(marketplaceSync.id, "EBAY"));
    expect(after!.lastPollError).toContain("503 Service Unavailable");
    expect(after!.lastPollErrorAt).not.toBeNull();
    expect(after!.ordersModifiedUntil).toEqual(before!.ordersModifiedUntil);

    await pollMarketplaceOrders(t.db, port);
    const [recovered] = await t.db.select().from(marketplaceSync).where(eq(marketplaceSync.id, "EBAY"));
    expect(recovered).toMatchObject({ lastPollError: null, lastPollErrorAt: null });
  });
});

describe("shipping an imported order", () => {
  it("queues the tracking number's upload when the order ships and reports it to the marketplace once", async () => {
    const watch = await listedProduct("Universal Polerouter", 1);
    const sale = await buyOnMarketplace(watch.listingId);
    const imported = await importMarketplaceOrder(t.db, sale, now);
    if (imported.result !== "imported") throw new Error(`not imported: ${imported.result}`);
    // What fulfilment records when the parcel leaves; its shipping transaction then asks for the upload.
    await t.db.transaction(async (tx) => {
      await tx.update(orderDetail).set({ carrier: "POSTNL", trackingNumber: "3S ABCD 1234567", shippedAt: now }).where(eq(orderDetail.orderId, imported.orderId));
      await requestShipmentUpload(tx, imported.orderId);
    });
    const queued = await rawRows<{ data: unknown }>(t.db, sql`select data from pgboss.job where name = 'marketplace-shipment-upload' and state < 'completed'`);
    expect(queued.map((row) => row.data)).toEqual([{ orderId: imported.orderId }]);

    expect(await uploadShipment(t.db, port, imported.orderId)).toEqual({ result: "uploaded" });
    expect(await uploadShipment(t.db, port, imported.orderId)).toEqual({ result: "already uploaded" });
    const [shipped] = await port.getOrders({ orderIds: [sale.orderId] });
    expect(shipped!.fulfillmentStatus).toBe("FULFILLED");
  });
});

describe("the last piece sold on both channels at once", () => {
  /** The checkout's refusal of a piece that sold out under it, or null when the web order was placed. */
  const soldOut = (error: unknown) => error instanceof AppError && error.code === "CONFLICT" && /has just sold out/.test(error.message);

  it("ends every round with stock 0 and one order holding the piece; the other is refused at checkout or flagged with its refund proposed", async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const watch = await listedProduct(`Last piece ${round}`, 1, "300.00");
      // Sold on eBay a moment ago: the marketplace took it off the listing; the shop has not heard yet.
      const sale = await buyOnMarketplace(watch.listingId);

      const [web, ebay] = await Promise.all([
        placeGuestOrder(t.db, { email: `race-${round}@example.com`, items: [{ productId: watch.id, quantity: 1 }] }, now).then(
          (placed) => ({ placed, error: null }),
          (error: unknown) => ({ placed: null, error }),
        ),
        importMarketplaceOrder(t.db, sale, now),
      ]);

      expect(await stockOf(watch.id)).toBe(0);
      const records = await saleRecordsOf(watch.id);
      expect(records).toHaveLength(1);
      expect(records[0]!.quantity).toBe(-1);
      expect(ebay.result).toBe("imported");
      if (ebay.result !== "imported") continue;
      const ebayItems = (await itemsOf(watch.id)).filter((item) => item.orderId === ebay.orderId);
      const ebayOrder = await importedOrder(ebay.orderId);

      if (web.placed) {
        seen.add("web first");
        // The web order holds the piece; the eBay order came in for a piece no longer there.
        const [holder] = await t.db.select({ orderId: orderItem.orderId }).from(orderItem).where(eq(orderItem.id, records[0]!.orderItemId!));
        expect(holder!.orderId).toBe(web.placed.orderId);
        expect(ebay.oversold).toBe(true);
        expect(ebayItems).toEqual([expect.objectContaining({ quantity: 1, oversold: 1 })]);
        expect(ebayOrder.detail.oversoldAt).not.toBeNull();
        const proposal = await getRefundProposal(t.db, ebay.orderNumber);
        expect(proposal.lines).toEqual([expect.objectContaining({ productId: watch.id, quantity: 1, refundableQuantity: 1, leftToRefund: "300.00" })]);
        expect(await notificationsLike(`Order ${ebay.orderNumber} from eBay came in for pieces already sold on the web shop: refund 1 × Last piece ${round} (€%`)).toHaveLength(1);
      } else {
        seen.add("eBay first");
        // The eBay sale holds the piece; the web buyer was refused before any order or payment was made.
        expect(soldOut(web.error)).toBe(true);
        expect(ebay.oversold).toBe(false);
        expect(ebayItems).toEqual([expect.objectContaining({ quantity: 1, oversold: 0 })]);
        expect(ebayOrder.detail.oversoldAt).toBeNull();
        expect((await itemsOf(watch.id)).map((item) => item.orderId)).toEqual([ebay.orderId]);
        expect(await t.db.select({ id: orderAddress.id }).from(orderAddress).where(eq(orderAddress.email, `race-${round}@example.com`))).toEqual([]);
      }
    }
    // Which channel wins is up to the database; each round is one of the two outcomes above.
    expect(seen.size).toBeGreaterThan(0);
  });

  it("flags an eBay sale imported after the web order took and paid for the last piece, with its refund proposed", async () => {
    const watch = await listedProduct("Heuer Carrera 2447", 1, "4200.00");
    const sale = await buyOnMarketplace(watch.listingId);
    const payments = createSandboxPayments({ db: t.db, baseUrl: "http://127.0.0.1" });
    const placed = await placeGuestOrder(t.db, { email: "first@example.com", items: [{ productId: watch.id, quantity: 1 }] }, now);
    await payOnSandbox(t.db, placed, payments, "paid", now);
    const [web] = await t.db.select({ status: order.status }).from(order).where(eq(order.id, placed.orderId));
    expect(web!.status).toBe("PAID_READY_TO_SHIP");

    const imported = await importMarketplaceOrder(t.db, sale, now);
    expect(imported).toMatchObject({ result: "imported", oversold: true });
    if (imported.result !== "imported") return;
    expect(await stockOf(watch.id)).toBe(0);
    expect((await saleRecordsOf(watch.id)).map((record) => record.quantity)).toEqual([-1]);
    const row = await importedOrder(imported.orderId);
    expect(row.order.status).toBe("PAID_READY_TO_SHIP");
    expect(row.detail.oversoldAt).toEqual(now);
    expect((await itemsOf(watch.id)).find((item) => item.orderId === imported.orderId)).toMatchObject({ quantity: 1, oversold: 1 });
    const proposal = await getRefundProposal(t.db, imported.orderNumber);
    expect(proposal).toMatchObject({ shop: "EBAY", paymentProvider: "EBAY", paidTotal: "4200.00" });
    expect(proposal.lines).toEqual([expect.objectContaining({ refundableQuantity: 1, leftToRefund: "4200.00" })]);
    expect(await notificationsLike(`Order ${imported.orderNumber} from eBay came in for pieces already sold on the web shop: refund 1 × Heuer Carrera 2447 (€4,200.00)%`)).toEqual([
      expect.objectContaining({ type: "EBAY_ORDER", severity: "WARNING" }),
    ]);

    // Staff give the proposed refund; it goes back through eBay, and the piece sold twice cannot go back in stock.
    const line = proposal.lines[0]!;
    const ports = { paymentsFor: () => payments, marketplace: () => port };
    const refund = { orderNumber: imported.orderNumber, kind: "PRODUCT" as const, orderItemId: line.orderItemId, quantity: 1, amount: line.leftToRefund, reason: "OTHER" as const, comment: "Sold on the web shop first" };
    await expect(createRefund(t.db, createRefundInput.parse({ ...refund, restock: true }), { userId: null, now }, ports)).rejects.toThrow(/never left the stock/);
    const given = await createRefund(t.db, createRefundInput.parse(refund), { userId: null, now }, ports);
    expect(given).toMatchObject({ status: "REFUNDED", amount: "4200.00" });
    const [stored] = await t.db.select({ externalRefundId: refundTable.externalRefundId }).from(refundTable).where(eq(refundTable.orderId, imported.orderId));
    expect(await port.getRefunds(sale.orderId)).toEqual([{ refundId: stored!.externalRefundId, status: "REFUNDED", amount: new Decimal("4200.00"), lineItemId: expect.any(String) }]);
    expect(await stockOf(watch.id)).toBe(0);
  });
});
