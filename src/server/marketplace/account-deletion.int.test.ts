import { Decimal } from "decimal.js";
import { and, desc, eq, inArray, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { adminNotification, logbook, orderAddress, orderDetail } from "@/server/db/schema";
import type { MarketplaceOrder, MarketplacePort } from "@/server/integrations/marketplace/port";
import { createSandboxMarketplace } from "@/server/integrations/marketplace/sandbox";
import { signatureHeader } from "@/server/integrations/marketplace/sandbox-records";
import { transitionOrder } from "@/server/orders/service";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { ERASED_EBAY_BUYER, ERASED_EBAY_EMAIL } from "./account-deletion";
import { receiveMarketplaceNotification } from "./notifications";
import { importMarketplaceOrder } from "./order-import";

/**
 * Issue 30, acceptance 1: eBay's MARKETPLACE_ACCOUNT_DELETION notification anonymising the buyer on the shop's eBay
 * orders, as a web customer's erasure does: the books keep the orders, an invoiced one its invoice address, the
 * others only their country; e-mail, phone and user name go, from the logbook and staff notifications too; an order
 * still to be shipped keeps what delivery needs, and staff are told. Another buyer's orders are left alone.
 */

const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
let port: MarketplacePort;
let nextOrder = 1;

beforeAll(() => {
  port = createSandboxMarketplace({ db: t.db, shopUrl: "http://127.0.0.1:9" });
});

const username = "horloge_liefhebber";
const email = "4f1c2e0a9b@members.ebay.com";

async function imported(buyer: string, buyerEmail: string) {
  const watch = await makeStockedProduct(t.db, { name: `Zenith El Primero ${nextOrder}`, price: "900.00", stock: 1 });
  const sale: MarketplaceOrder = {
    orderId: `55-${String(nextOrder++).padStart(5, "0")}-55555`,
    createdAt: now,
    lastModifiedAt: now,
    fulfillmentStatus: "NOT_STARTED",
    paymentStatus: "PAID",
    cancelled: false,
    buyerUsername: buyer,
    currencies: ["EUR"],
    total: new Decimal("900.00"),
    deliveryCost: new Decimal("0"),
    lines: [{ lineItemId: `55${nextOrder}0001`, sku: `BC-${watch.id}`, title: "Zenith El Primero", quantity: 1, lineItemCost: new Decimal("900.00") }],
    shipTo: { fullName: "Joost de Vries", addressLine1: "Oudegracht 112", addressLine2: "bis", postalCode: "3511 AX", city: "Utrecht", stateOrProvince: null, countryCode: "NL", phone: "0612345678", email: buyerEmail },
  };
  const outcome = await importMarketplaceOrder(t.db, sale, now);
  if (outcome.result !== "imported") throw new Error(outcome.result);
  return outcome;
}

async function shipped(orderId: number) {
  await t.db.transaction(async (tx) => {
    await transitionOrder(tx, orderId, "PROCESSED", { userId: null, description: "Packed." });
    await transitionOrder(tx, orderId, "SHIPPED", { userId: null, description: "Shipped." });
  });
}

const addressOf = async (orderId: number) => {
  const [row] = await t.db
    .select({ address: orderAddress, buyer: orderDetail.marketplaceBuyer })
    .from(orderAddress)
    .innerJoin(orderDetail, eq(orderDetail.orderId, orderAddress.orderId))
    .where(eq(orderAddress.orderId, orderId));
  return { ...row!.address, buyer: row!.buyer };
};

function deletionNotice(deleted: string): { headers: Headers; body: string } {
  const body = JSON.stringify({
    metadata: { topic: "MARKETPLACE_ACCOUNT_DELETION", schemaVersion: "1.0", deprecated: false },
    notification: { notificationId: crypto.randomUUID(), eventDate: now.toISOString(), publishDate: now.toISOString(), publishAttemptCount: 1, data: { username: deleted, userId: "ma8vp1jySJC", eiasToken: "nY+sHZ2PrBmdj6wVnY+sEZ2PrA2dj6wFk4GlDpaDpAidj6x9nY+seQ==" } },
  });
  return { headers: new Headers({ "x-ebay-signature": signatureHeader(body, env.WEBHOOK_SECRET) }), body };
}

describe("eBay's account deletion notification", () => {
  it("anonymises the deleted buyer on the shop's eBay orders as the books allow, and logs it without their data", async () => {
    const invoiced = await imported(username, email);
    const shippedOnly = await imported(username, email);
    const open = await imported(username, email);
    const someoneElse = await imported("another_collector", "b71d@members.ebay.com");
    await shipped(invoiced.orderId);
    await shipped(shippedOnly.orderId);
    await t.db.update(orderDetail).set({ invoiceNumber: "2026-000901" }).where(eq(orderDetail.orderId, invoiced.orderId));
    const theirOrders = [invoiced, shippedOnly, open].map((one) => String(one.orderId));
    expect(await t.db.select({ id: logbook.id }).from(logbook).where(and(eq(logbook.entityType, "ORDER"), inArray(logbook.entityId, theirOrders), sql`${logbook.newState}::text like ${`%${username}%`}`))).not.toEqual([]);

    const { headers, body } = deletionNotice(username);
    expect(await receiveMarketplaceNotification(t.db, port, headers, body, now)).toEqual({ kind: "accountDeletion", username, userId: "ma8vp1jySJC" });

    // Invoiced: the invoice's name and address stay; e-mail, phone and user name go.
    expect(await addressOf(invoiced.orderId)).toMatchObject({ firstName: "Joost", lastName: "de Vries", street: "Oudegracht", city: "Utrecht", countryCode: "NL", email: ERASED_EBAY_EMAIL, phoneNumber: null, buyer: null });
    // Shipped without an invoice: only the country stays.
    expect(await addressOf(shippedOnly.orderId)).toMatchObject({ firstName: ERASED_EBAY_BUYER, lastName: "", street: "", houseNumber: "", addressLine2: null, postCode: "", city: "", countryCode: "NL", email: ERASED_EBAY_EMAIL, phoneNumber: null, buyer: null });
    // Not shipped yet: what delivery needs stays until it is sent; staff are told.
    expect(await addressOf(open.orderId)).toMatchObject({ firstName: "Joost", street: "Oudegracht", phoneNumber: "0612345678", email: ERASED_EBAY_EMAIL, buyer: null });
    const told = await t.db.select({ message: adminNotification.message, severity: adminNotification.severity }).from(adminNotification).where(like(adminNotification.message, `The eBay buyer of order ${open.orderNumber}%`));
    expect(told).toEqual([{ message: expect.stringContaining("deleted their eBay account"), severity: "WARNING" }]);
    // Another buyer's order is as it was.
    expect(await addressOf(someoneElse.orderId)).toMatchObject({ firstName: "Joost", email: "b71d@members.ebay.com", phoneNumber: "0612345678", buyer: "another_collector" });

    // The logbook and staff notifications no longer name them, and the entry of the deletion names the orders only.
    const naming = await t.db
      .select({ id: logbook.id })
      .from(logbook)
      .where(sql`(${logbook.description} || coalesce(${logbook.newState}::text, '') || coalesce(${logbook.previousState}::text, '')) ~* ${`${username}|${email.replace(/\./g, "\\.")}`}`);
    expect(naming).toEqual([]);
    expect(await t.db.select({ id: adminNotification.id }).from(adminNotification).where(like(adminNotification.message, `%${username}%`))).toEqual([]);
    expect(await t.db.select({ id: adminNotification.id }).from(adminNotification).where(like(adminNotification.message, `%another_collector%`))).toHaveLength(1);
    const [entry] = await t.db.select({ description: logbook.description, newState: logbook.newState }).from(logbook).where(sql`${logbook.newState}->>'accountDeletion' = 'true'`).orderBy(desc(logbook.id));
    expect(entry!.description).toContain(`${invoiced.orderNumber}, ${shippedOnly.orderNumber}, ${open.orderNumber}`);
    expect(entry!.newState).toEqual({ accountDeletion: true, orders: [invoiced.orderNumber, shippedOnly.orderNumber, open.orderNumber], keptForDelivery: [open.orderNumber] });

    // eBay may deliver it again: nothing left to erase, and nothing breaks.
    await receiveMarketplaceNotification(t.db, port, headers, body, now);
    expect(await addressOf(someoneElse.orderId)).toMatchObject({ buyer: "another_collector" });
  });
});
