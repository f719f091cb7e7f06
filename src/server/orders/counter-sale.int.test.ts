import { and, asc, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { logbook, mailMessage, orderAddress, orderDetail, orderItem, paymentDetail, product, stockRecord } from "@/server/db/schema";
import { checkLabelRequests, createLabel } from "@/server/fulfilment/labels";
import type { FulfilmentPorts } from "@/server/fulfilment/ports";
import { makeInvoices, printDocument } from "@/server/fulfilment/documents/service";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { createCaller } from "@/server/root";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { keepPdfPicture, pdfPagePng, pdfText } from "../../../tests/helpers/pdf-pages";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { createManualOrderInput, manualOrderQuoteInput, updateManualOrderInput } from "./manual-order-schemas";
import { quoteManualOrder } from "./manual-order-pricing";
import { createManualOrder, updateManualOrder } from "./manual-order-service";

/**
 * A counter sale collected in the shop (issue 28): no address, no shipping, straight to shipped-and-collected, its
 * stock through the ledger and no label ever offered; and prices above the list price, with their reason.
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam
const t = seededDatabaseForFile({ now });
let staff: { id: string };
const admin = () => createCaller(contextFor(t.db, { ...staff, name: "Staff member", email: "staff@example.com", role: "ADMIN" }));

/** Fulfilment's outside services: a counter sale must be refused before either is asked. */
const untouchedPorts = {
  carrierFor: () => {
    throw new Error("the carrier was asked");
  },
  storage: {} as PrivateStoragePort,
} as unknown as FulfilmentPorts;

beforeAll(async () => {
  staff = await makeUser(t.db, "ADMIN", "Staff member");
});

describe("a counter sale collected in the shop", () => {
  it("is priced without an address or shipping (at af654a7 the preview asked for a country)", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Seiko 6139 chronograph", price: "240.00", stock: 2 });
    const quote = await quoteManualOrder(t.db, { lines: [{ productId: watch.id, quantity: 1 }], shippingMethod: "COLLECTED", waiveShipping: false, paid: true }, now);
    expect(quote.problems).toEqual([]);
    expect(quote.status).toBe("SHIPPED");
    expect(quote.shipping).toBeNull();
    expect(quote.totals.total.toFixed(2)).toBe("240.00");
  });

  it("is saved shipped-and-collected, paid, with its stock booked, logged, and its confirmation e-mail queued", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Omega Geneve 1972", price: "320.00", stock: 3 });
    const saved = await admin().admin.manualOrder.createCounterSale({
      buyer: { firstName: "Anna", lastName: "de Vries" },
      email: "anna@example.com",
      lines: [{ productId: watch.id, quantity: 2 }],
      paymentMethod: "ACCOUNT",
    });
    expect(saved).toMatchObject({ status: "SHIPPED" });
    expect(saved.total.toFixed(2)).toBe("640.00");

    const [stored] = await t.db.select().from(orderDetail).where(eq(orderDetail.orderId, saved.orderId));
    expect(stored).toMatchObject({ shippingMethod: "COLLECTED", estimatedShippingDate: null, trackingNumber: null });
    // Shipped and collected in one moment, the moment it was saved.
    expect(stored!.shippedAt).toBeInstanceOf(Date);
    expect(stored!.deliveredAt).toEqual(stored!.shippedAt);
    const [address] = await t.db.select().from(orderAddress).where(eq(orderAddress.orderId, saved.orderId));
    expect(address).toMatchObject({ firstName: "Anna", lastName: "de Vries", street: "", postCode: "", city: "", countryCode: "NL", email: "anna@example.com" });
    const [payment] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, saved.orderId));
    expect([payment!.provider, payment!.shippingTotal.toFixed(2), payment!.total.toFixed(2)]).toEqual(["ACCOUNT", "0.00", "640.00"]);

    const [left] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, watch.id));
    expect(left!.stock).toBe(1);
    const items = t.db.select({ id: orderItem.id }).from(orderItem).where(eq(orderItem.orderId, saved.orderId));
    expect(await t.db.select({ quantity: stockRecord.quantity, type: stockRecord.type }).from(stockRecord).where(inArray(stockRecord.orderItemId, items))).toEqual([{ quantity: -2, type: "ORDER_ITEM" }]);

    const log = await t.db.select({ description: logbook.description }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(saved.orderId)))).orderBy(asc(logbook.id));
    expect(log.map((entry) => entry.description)).toEqual([
      expect.stringContaining(`Counter sale ${saved.orderNumber} to Anna de Vries, collected in the shop: €640.00 paid by ACCOUNT`),
      expect.stringContaining("PENDING → PAID_READY_TO_SHIP"),
      expect.stringContaining("PAID_READY_TO_SHIP → PROCESSED"),
      expect.stringContaining("PROCESSED → SHIPPED. Collected in the shop"),
    ]);
    const mails = await t.db.select({ kind: mailMessage.kind }).from(mailMessage).where(eq(mailMessage.orderId, saved.orderId));
    expect(mails.map((mail) => mail.kind)).toEqual(["order-confirmation"]);

    const page = await admin().admin.orders.get({ orderNumber: saved.orderNumber });
    expect(page.standing).toEqual({ payment: "PAID", fulfilment: "COLLECTED" });
    expect(page.address.lines).toEqual([]);
  });

  it("needs no e-mail address, and then sends none", async () => {
    const strap = await makeStockedProduct(t.db, { name: "Leather strap 18 mm", price: "25.00", stock: 4 });
    const saved = await admin().admin.manualOrder.createCounterSale({ buyer: { firstName: "Jan", lastName: "Bakker", companyName: "Bakker Horloges" }, lines: [{ productId: strap.id, quantity: 1 }], paymentMethod: "BANKTRANSFER" });
    expect(saved.status).toBe("SHIPPED");
    expect(await t.db.select().from(mailMessage).where(eq(mailMessage.orderId, saved.orderId))).toEqual([]);
  });

  it("refuses a buyer without a name: the invoice is made out to someone", async () => {
    const strap = await makeStockedProduct(t.db, { name: "Leather strap 20 mm", price: "25.00", stock: 4 });
    await expect(admin().admin.manualOrder.createCounterSale({ buyer: { firstName: "", lastName: "" }, lines: [{ productId: strap.id, quantity: 1 }], paymentMethod: "ACCOUNT" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("gets no label, packing slip or pick list, and its invoice prints without an address", async () => {
    const crystal = await makeStockedProduct(t.db, { name: "Sapphire crystal 31.5 mm", price: "45.00", stock: 5 });
    const saved = await admin().admin.manualOrder.createCounterSale({ buyer: { firstName: "Sophie", lastName: "Jansen" }, email: "sophie@example.com", lines: [{ productId: crystal.id, quantity: 1 }], paymentMethod: "ACCOUNT" });
    const collected = `Order ${saved.orderNumber} was collected in the shop`;

    await expect(createLabel(t.db, saved.orderId, { userId: null, now }, untouchedPorts)).rejects.toThrow(`${collected}: it needs no label.`);
    expect((await checkLabelRequests(t.db, [saved.orderId], now)).refused).toEqual([{ orderId: saved.orderId, orderNumber: saved.orderNumber, reason: `${collected}: it needs no label.` }]);
    for (const [document, name] of [["packing-slips", "packing slip"], ["pick-list", "pick list"], ["labels", "label"]] as const) {
      await expect(printDocument(t.db, {} as PrivateStoragePort, document, { orderIds: [saved.orderId] }, { now })).rejects.toMatchObject({ code: "CONFLICT", message: `${collected}: it needs no ${name}.` });
    }

    await makeInvoices(t.db, { orderIds: [saved.orderId] }, { userId: null, now });
    const invoice = await printDocument(t.db, {} as PrivateStoragePort, "invoices", { orderIds: [saved.orderId] }, { now });
    const text = await pdfText(invoice.pdf);
    expect(text).toContain("Sophie Jansen");
    expect(text).toContain("Collected in the shop");
    expect(text).toContain("Paid in full at the counter.");
    expect(text).not.toContain("Shipping:");
    keepPdfPicture("counter-sale-invoice", await pdfPagePng(invoice.pdf, { dpi: 100 }));
  });
});

describe("a price above the list price", () => {
  it("is accepted with its reason and stored at that price, with no negative discount (refused at af654a7)", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Heuer Carrera 1966", price: "100.00", stock: 2 });
    const line = { productId: watch.id, quantity: 1, priceOverride: "184.05", priceOverrideReason: "Reserved piece with its box and papers" };
    const quote = await quoteManualOrder(t.db, manualOrderQuoteInput.parse({ lines: [line], shippingMethod: "COLLECTED", paid: true }), now);
    expect(quote.problems).toEqual([]);
    expect(quote.lines[0]).toMatchObject({ pricing: "OVERRIDE" });
    expect([quote.lines[0]!.totalPrice, quote.lines[0]!.totalDiscountAmount, quote.lines[0]!.aboveList].map((amount) => amount.toFixed(2))).toEqual(["184.05", "0.00", "84.05"]);
    expect([quote.totals.items, quote.totals.discount, quote.totals.total, quote.aboveList].map((amount) => amount.toFixed(2))).toEqual(["184.05", "0.00", "184.05", "84.05"]);

    const saved = await createManualOrder(
      t.db,
      createManualOrderInput.parse({
        userId: null,
        address: { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" },
        email: "grace@example.com",
        lines: [line],
        shippingMethod: "TNT",
        waiveShipping: true,
        paymentMethod: "ACCOUNT",
        paid: false,
      }),
      { userId: staff.id, now },
    );
    const [stored] = await t.db.select().from(orderItem).where(eq(orderItem.orderId, saved.orderId));
    expect([stored!.totalPrice.toFixed(2), stored!.totalDiscountAmount.toFixed(2), stored!.priceOverrideReason]).toEqual(["184.05", "0.00", "Reserved piece with its box and papers"]);
    const [payment] = await t.db.select().from(paymentDetail).where(eq(paymentDetail.orderId, saved.orderId));
    expect([payment!.itemTotal.toFixed(2), payment!.itemTotalDiscountAmount.toFixed(2), payment!.total.toFixed(2)]).toEqual(["184.05", "0.00", "184.05"]);

    // Lowered again before it is paid: the customer pays less, nothing to refund.
    const edited = await updateManualOrder(
      t.db,
      updateManualOrderInput.parse({
        orderNumber: saved.orderNumber,
        address: { firstName: "Grace", lastName: "Hopper", street: "Keizersgracht", houseNumber: "12", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" },
        email: "grace@example.com",
        lines: [{ ...line, priceOverride: "174.05" }],
        shippingMethod: "TNT",
        waiveShipping: true,
      }),
      { userId: staff.id, now },
    );
    expect([edited.status, edited.wasPaid, edited.total.toFixed(2), edited.previousTotal!.toFixed(2)]).toEqual(["PENDING", false, "174.05", "184.05"]);
  });
});
