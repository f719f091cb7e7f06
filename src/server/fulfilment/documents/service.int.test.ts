import { PDFDocument } from "@cantoo/pdf-lib";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Carrier } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import { orderAddress, orderDetail } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { getCarrier } from "@/server/integrations/carriers/carriers";
import type { CarrierPort, LabelRequest } from "@/server/integrations/carriers/port";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { getOrderView } from "@/server/orders/view";
import { makeSession, makeUser, temporaryPrivateStorage, temporaryStorage } from "../../../../tests/helpers/admin-fixtures";
import { placeOneWatchOrder } from "../../../../tests/helpers/factories";
import { startPaidOrders } from "../../../../tests/helpers/paid-orders";
import { pdfText as textOf } from "../../../../tests/helpers/pdf-pages";
import { createTestDatabase, type TestDatabase } from "../../../../tests/helpers/test-database";
import { createLabel } from "../labels";
import { markShipped } from "../tracking";
import { respondToPrintRequest } from "./print-request";
import { makeInvoices, MAX_ORDERS_PER_DOCUMENT, printDocument, type OrderSelection, type PrintDocument } from "./service";

/**
 * The printed documents on a real database, for orders placed and paid through checkout and the payment webhook and
 * labelled by the sandbox carrier, read back from the PDFs as staff would read them (their text through PDF.js).
 */

const now = new Date("2026-03-04T09:00:00Z"); // Wednesday 10:00 in Amsterdam
const staff = { userId: null, now };
let t: TestDatabase;
let storage: PrivateStoragePort;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
/** Three paid orders: a watch to Amsterdam, two parts and a strap to Kraków, a crystal to Brussels. */
let orders: { orderId: number; orderNumber: string }[];

const invoiceNumberOf = async (orderId: number) => (await t.db.select({ number: orderDetail.invoiceNumber }).from(orderDetail).where(eq(orderDetail.orderId, orderId)))[0]!.number;
const pageCount = async (pdf: Buffer) => (await PDFDocument.load(pdf)).getPageCount();
const print = (document: PrintDocument, selection: OrderSelection) => printDocument(t.db, storage, document, selection, staff);
/** What staff do: make the invoices, then print them. */
const printInvoices = async (selection: OrderSelection) => {
  await makeInvoices(t.db, selection, staff);
  return print("invoices", selection);
};
const chosen = (...picked: { orderId: number }[]): OrderSelection => ({ orderIds: picked.map((one) => one.orderId) });

beforeAll(async () => {
  t = await createTestDatabase();
  storage = temporaryPrivateStorage();
  await seedDatabase(t.db, temporaryStorage(), { products: 0, images: 0, now });
  paidOrders = await startPaidOrders(t.db, now);
  orders = [
    await paidOrders.placePaidOrder({ email: "ada@example.com", items: [{ name: "Omega Seamaster De Ville cal. 620", price: "1450.00", itemType: "WRISTWATCH" }] }),
    await paidOrders.placePaidOrder({
      email: "zofia@example.com",
      items: [
        { name: "Crown for ETA 2824-2, NOS", price: "18.50", itemType: "CROWN" },
        { name: "Bracelet Jubilee 20 mm", price: "64.00", itemType: "BRACELET" },
      ],
      address: { firstName: "Zofia", lastName: "Łukasiewicz", street: "Łąkowa", houseNumber: "12", postCode: "31-000", city: "Kraków", countryCode: "PL" },
    }),
    await paidOrders.placePaidOrder({
      email: "jean@example.com",
      items: [{ name: "Crystal 30.0 mm domed acrylic", price: "9.95", itemType: "CRYSTAL" }],
      address: { firstName: "Jean", lastName: "Brël", street: "Rue Neuve", houseNumber: "3", postCode: "1000", city: "Bruxelles", countryCode: "BE" },
    }),
  ];
});

afterAll(async () => {
  await paidOrders?.close();
  await t?.dispose();
});

describe("packing slips", () => {
  it("show each order's number, date, address and items with quantities, one order per page set, and no prices", async () => {
    const printed = await print("packing-slips", chosen(orders[1]!, orders[0]!));
    const text = await textOf(printed.pdf);

    expect(printed.filename).toBe("packing-slips-2026-03-04-2-orders.pdf");
    expect(await pageCount(printed.pdf)).toBe(2);
    const [kraków, amsterdam] = text.split("\f");
    expect(kraków).toContain(orders[1]!.orderNumber);
    expect(kraków).toContain("4 March 2026");
    expect(kraków).toMatch(/Zofia Łukasiewicz/);
    expect(kraków).toMatch(/31-000 Kraków/);
    expect(kraków).toMatch(/1\s+Crown for ETA 2824-2, NOS/);
    expect(kraków).toMatch(/1\s+Bracelet Jubilee 20 mm/);
    expect(kraków).toContain("2 pieces in all");
    expect(amsterdam).toContain(orders[0]!.orderNumber);
    expect(amsterdam).toContain("Omega Seamaster De Ville cal. 620");
    expect(text).not.toContain("€");
  });

  it("for one order are named after it", async () => {
    expect((await print("packing-slips", chosen(orders[2]!))).filename).toBe(`packing-slip-${orders[2]!.orderNumber}.pdf`);
  });
});

describe("invoices", () => {
  it("carry the invoice number and date, the order, every line, the totals of the order and the VAT they include", async () => {
    const printed = await printInvoices(chosen(orders[1]!));
    const view = await getOrderView(t.db, orders[1]!.orderNumber);
    const text = await textOf(printed.pdf);

    expect(printed.filename).toMatch(/^invoice-2026-\d{6}\.pdf$/);
    const invoiceNumber = printed.filename.slice("invoice-".length, -".pdf".length);
    expect(text).toMatch(new RegExp(`Invoice no\\.\\s+${invoiceNumber}`));
    expect(text).toMatch(/Invoice date\s+4 March 2026/);
    expect(text).toContain(orders[1]!.orderNumber);
    expect(text).toContain("Zofia Łukasiewicz");
    expect(text).toContain("zofia@example.com");
    expect(text).toMatch(/Crown for ETA 2824-2, NOS\s+1\s+€18\.50\s+—\s+€18\.50/);
    expect(text).toMatch(new RegExp(`Items at list price\\s+${formatEuro(view.totals.items).replace(/[.$]/g, "\\$&")}`));
    expect(text).toMatch(new RegExp(`Total paid\\s+${formatEuro(view.totals.total).replace(/[.$]/g, "\\$&")}`));
    const vat = formatEuro(view.totals.total.times(0.21).dividedBy(1.21).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
    expect(text).toContain(`incl. 21% VAT ${vat}`);
    expect(text).toContain("Paid in full with iDEAL");
  });

  it("keep their numbers when made and printed again, and number new ones after them in print order", async () => {
    const first = await printInvoices(chosen(orders[1]!));
    const both = await printInvoices(chosen(orders[2]!, orders[1]!));
    const [numberOf2, numberOf1] = (await textOf(both.pdf))
      .split("\f")
      .slice(0, 2)
      .map((page) => /Invoice no\.\s+(\d{4}-\d{6})/.exec(page)?.[1]);

    expect(numberOf1).toBe(first.filename.slice("invoice-".length, -".pdf".length));
    expect(Number(numberOf2!.slice(5))).toBe(Number(numberOf1!.slice(5)) + 1);
  });

  it("are refused for an order that is not paid, naming it, and none of the selection is numbered", async () => {
    const unpaid = await placeOneWatchOrder(t.db, { email: "unpaid@example.com", method: "IDEAL", now });
    const refusal = { code: "PRECONDITION_FAILED", message: `Invoices are only for paid orders; not paid: ${unpaid.orderNumber} (PENDING).` };
    await expect(makeInvoices(t.db, chosen(orders[0]!, unpaid), staff)).rejects.toMatchObject(refusal);
    await expect(print("invoices", chosen(orders[0]!, unpaid))).rejects.toMatchObject(refusal);
    expect(await invoiceNumberOf(orders[0]!.orderId)).toBeNull();
  });

  it("are printed only once made: printing an order without an invoice refuses it by number and gives it none (SECURITY-REVIEW N-L1)", async () => {
    await expect(print("invoices", chosen(orders[1]!, orders[0]!))).rejects.toMatchObject({
      code: "CONFLICT",
      message: `No invoice has been made yet for ${orders[0]!.orderNumber}: make the invoices first ("Invoice" on the order's page, or "Print invoices" for orders chosen in the list).`,
    });
    expect(await invoiceNumberOf(orders[0]!.orderId)).toBeNull();
  });

  it("are made once: making them again reports the numbers they have and makes none", async () => {
    const [first] = (await makeInvoices(t.db, chosen(orders[0]!), staff)).invoices;
    expect(first).toEqual({ orderId: orders[0]!.orderId, orderNumber: orders[0]!.orderNumber, invoiceNumber: expect.stringMatching(/^2026-\d{6}$/), made: true });
    const again = await makeInvoices(t.db, chosen(orders[1]!, orders[0]!), { userId: null, now: new Date("2026-03-05T09:00:00Z") });
    expect(again.invoices.map((invoice) => [invoice.orderNumber, invoice.made])).toEqual([[orders[1]!.orderNumber, false], [orders[0]!.orderNumber, false]]);
    expect(again.invoices[1]!.invoiceNumber).toBe(first!.invoiceNumber);
    expect(await textOf((await print("invoices", chosen(orders[0]!))).pdf)).toMatch(new RegExp(`Invoice no\\.\\s+${first!.invoiceNumber}`));
  });
});

describe("the pick list", () => {
  it("lists every product of the batch by name, with its quantity and the orders it goes into", async () => {
    const printed = await print("pick-list", chosen(...orders));
    const text = await textOf(printed.pdf);

    const names = ["Bracelet Jubilee", "Crown for ETA", "Crystal 30.0 mm", "Omega Seamaster"];
    expect(names.map((name) => text.indexOf(name))).toEqual(names.map((name) => text.indexOf(name)).sort((a, b) => a - b));
    expect(text).toMatch(new RegExp(`1\\s+Crystal 30\\.0 mm domed acrylic\\s+${orders[2]!.orderNumber}`));
    expect(text).toMatch(/Orders\s+3/);
    expect(text).toMatch(/Pieces\s+4/);
  });
});

describe("labels", () => {
  it("put the labels made today into one PDF, one page each, with their tracking numbers", async () => {
    const amsterdam = await createLabel(t.db, orders[0]!.orderId, staff, { carrierFor: getCarrier, storage });
    const kraków = await createLabel(t.db, orders[1]!.orderId, staff, { carrierFor: getCarrier, storage });

    const printed = await print("labels", { day: "today" });
    expect(printed.filename).toBe("labels-2026-03-04.pdf");
    expect(printed.orderNumbers).toEqual([orders[0]!.orderNumber, orders[1]!.orderNumber]);
    expect(await pageCount(printed.pdf)).toBe(2);
    const text = await textOf(printed.pdf);
    expect(text).toContain(amsterdam.trackingNumber);
    expect(text).toContain(kraków.trackingNumber);
  });

  it("are refused for a chosen order without a label", async () => {
    await expect(print("labels", chosen(orders[0]!, orders[2]!))).rejects.toMatchObject({
      code: "CONFLICT",
      message: `No label has been made yet for ${orders[2]!.orderNumber}: create the labels first.`,
    });
  });
});

describe("today's batch", () => {
  it("of packing slips holds the paid orders not yet shipped, and no longer one that has shipped", async () => {
    const before = await print("packing-slips", { day: "today" });
    expect(before.orderNumbers).toEqual(expect.arrayContaining(orders.map((one) => one.orderNumber)));

    await markShipped(t.db, [orders[0]!.orderId], staff);
    const after = await print("pick-list", { day: "today" });
    expect(after.orderNumbers).not.toContain(orders[0]!.orderNumber);
    expect(after.orderNumbers).toEqual(expect.arrayContaining([orders[1]!.orderNumber, orders[2]!.orderNumber]));
  });

  it("holds at most one document's worth of orders", async () => {
    const ids = Array.from({ length: MAX_ORDERS_PER_DOCUMENT + 1 }, (_, index) => index + 1);
    await expect(print("packing-slips", { orderIds: ids })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("at most 500 orders") });
  });
});

describe("GET /admin/orders/print/...", () => {
  const get = (path: string, token?: string) =>
    respondToPrintRequest(new Request(`http://127.0.0.1:3000/admin/orders/print/${path}`, { headers: token ? { cookie: `authjs.session-token=${token}` } : {} }), path.split("?")[0]!, {
      db: t.db,
      storage,
      now,
    });

  it("answers staff with the PDF, inline, under a good name", async () => {
    const admin = await makeUser(t.db, "ADMIN");
    const response = await get(`packing-slips?orders=${orders[2]!.orderId}`, await makeSession(t.db, admin.id));

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="packing-slip-${orders[2]!.orderNumber}.pdf"`);
    expect(await textOf(Buffer.from(await response.arrayBuffer()))).toContain(orders[2]!.orderNumber);
  });

  it("is not found for anyone but staff, and for a document that does not exist", async () => {
    const customer = await makeUser(t.db, "USER");
    const admin = await makeUser(t.db, "ADMIN");
    for (const [path, token] of [
      [`invoices?orders=${orders[1]!.orderId}`, undefined],
      [`invoices?orders=${orders[1]!.orderId}`, await makeSession(t.db, customer.id)],
      // Staff signed in by e-mail link whose second factor is not confirmed.
      [`packing-slips?orders=${orders[1]!.orderId}`, await makeSession(t.db, admin.id, { secondFactor: false })],
      [`receipts?orders=${orders[1]!.orderId}`, await makeSession(t.db, admin.id)],
    ] as const) {
      const response = await get(path, token);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toBe("Not found");
    }
  });

  it("refuses a link on another site, and printing an invoice gives no order a number (SECURITY-REVIEW N-L1)", async () => {
    const token = await makeSession(t.db, (await makeUser(t.db, "ADMIN")).id);
    const fresh = await paidOrders.placePaidOrder({ email: "cross-site@example.com", items: [{ name: "Strap buckle 18 mm", price: "12.00", itemType: "CRYSTAL" }] });
    const open = (headers: Record<string, string>) =>
      respondToPrintRequest(
        new Request(`http://127.0.0.1:3000/admin/orders/print/invoices?orders=${fresh.orderId}`, { headers: { cookie: `authjs.session-token=${token}`, ...headers } }),
        "invoices",
        { db: t.db, storage, now },
      );

    const crossSite = await open({ "sec-fetch-site": "cross-site", referer: "https://evil.example/" });
    expect(await invoiceNumberOf(fresh.orderId)).toBeNull();
    expect([crossSite.status, await crossSite.text()]).toEqual([403, "Documents open from the shop's own admin pages only: open this one from there."]);

    const ownPage = await open({ "sec-fetch-site": "same-origin" });
    expect(ownPage.status).toBe(409);
    expect(await ownPage.text()).toMatch(new RegExp(`^No invoice has been made yet for ${fresh.orderNumber}: make the invoices first`));
    expect(await invoiceNumberOf(fresh.orderId)).toBeNull();
  });

  it("says what is wrong with a bad request", async () => {
    const token = await makeSession(t.db, (await makeUser(t.db, "ADMIN")).id);
    const cases: [string, number, string][] = [
      ["pick-list", 400, "Say what to print: ?orders=12,13 for chosen orders, or ?day=today for today's batch (not both)."],
      ["pick-list?orders=12,abc", 400, "Order ids are whole numbers, separated by commas, such as ?orders=12,13."],
      ["pick-list?day=yesterday", 400, "The day's batch is ?day=today; for other orders, choose them with ?orders=12,13."],
      ["pick-list?orders=999999", 404, "This order does not exist: 999999."],
    ];
    for (const [path, status, message] of cases) {
      const response = await get(path, token);
      expect([response.status, await response.text()], path).toEqual([status, message]);
    }
  });
});

describe("an address stored with line breaks before they were refused (SECURITY-REVIEW N-M5)", () => {
  const spoofedName = "X\nITEMS TO PACK:\n[ ] 1 x Rolex";
  const spoofedLine2 = "\u202EPAID IN FULL\u2028NO VAT";
  let spoofed: { orderId: number; orderNumber: string };

  beforeAll(async () => {
    spoofed = await paidOrders.placePaidOrder({ email: "spoof@example.com", items: [{ name: "Box of screws", price: "4.00", itemType: "CRYSTAL" }] });
    await t.db.update(orderAddress).set({ lastName: spoofedName, addressLine2: spoofedLine2 }).where(eq(orderAddress.orderId, spoofed.orderId));
  });

  /** The printed lines of a PDF's text, trimmed. */
  const linesOf = async (pdf: Buffer) => (await textOf(pdf)).split("\n").map((line) => line.trim());

  it("prints it on the packing slip one line per field", async () => {
    const lines = await linesOf((await print("packing-slips", chosen(spoofed))).pdf);
    // The ship-to block's lines, beside the shipping block's.
    expect(lines.find((line) => line.includes("ITEMS TO PACK"))).toMatch(/^Ada X ITEMS TO PACK: \[ \] 1 x Rolex\s+Tracked parcel$/);
    expect(lines).toContain("PAID IN FULL NO VAT");
    expect(lines.filter((line) => line.startsWith("ITEMS TO PACK") || line.startsWith("[ ]") || line === "NO VAT")).toEqual([]);
  });

  it("prints it on the invoice one line per field", async () => {
    const lines = await linesOf((await printInvoices(chosen(spoofed))).pdf);
    expect(lines.find((line) => line.includes("ITEMS TO PACK"))).toMatch(/^Ada X ITEMS TO PACK: \[ \] 1 x Rolex\s+Balance & Crown$/);
    expect(lines.find((line) => line.includes("PAID IN FULL"))).toMatch(/^PAID IN FULL NO VAT\s+/);
    expect(lines.filter((line) => line.startsWith("ITEMS TO PACK") || line.startsWith("[ ]") || line.startsWith("NO VAT"))).toEqual([]);
  });

  it("gives it to the carrier one line per field, and the label prints it so", async () => {
    const sent: LabelRequest[] = [];
    const recording = (carrier: Carrier): CarrierPort => {
      const port = getCarrier(carrier);
      return {
        carrier: port.carrier,
        kind: port.kind,
        probe: port.probe,
        createLabel: (request) => (sent.push(request), port.createLabel(request)),
        voidLabel: (id) => port.voidLabel(id),
        track: (id) => port.track(id),
        trackingUrl: (trackingNumber, receiver) => port.trackingUrl(trackingNumber, receiver),
      };
    };
    const label = await createLabel(t.db, spoofed.orderId, staff, { carrierFor: recording, storage });

    expect(sent.map((request) => [request.receiver.name, request.receiver.addressLine2])).toEqual([["Ada X ITEMS TO PACK: [ ] 1 x Rolex", "PAID IN FULL NO VAT"]]);
    expect(JSON.stringify(sent[0]!.receiver)).not.toMatch(/\\n|\\u2028|\u202E/);
    const printed = await storage.get(label.labelKey);
    expect((await textOf(Buffer.from(printed!.body))).split("\n").filter((line) => line.trim().startsWith("ITEMS TO PACK"))).toEqual([]);
  });
});
