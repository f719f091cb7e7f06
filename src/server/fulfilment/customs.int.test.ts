import os from "node:os";
import path from "node:path";
import { PDFDocument } from "@cantoo/pdf-lib";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageSizes } from "@/server/documents/pdf";
import { country, order, orderDetail, product, productDescription, productManufacturer } from "@/server/db/schema";
import type { CarrierPort } from "@/server/integrations/carriers/port";
import { createSandboxCarrier } from "@/server/integrations/carriers/sandbox";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { createSandboxPrivateStorage, createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { seedDatabase } from "@/server/setup/seed/seed";
import { keepPdfPicture, pdfPagePng, pdfText } from "../../../tests/helpers/pdf-pages";
import { startPaidOrders, type PaidOrderSpec } from "../../../tests/helpers/paid-orders";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { printDocument } from "./documents/service";
import { createLabel, readLabelPdf } from "./labels";
import type { FulfilmentPorts } from "./ports";

/**
 * Issue 30, parcels leaving the EU: an order to the United States gets its label with the customs declaration after
 * it (CN22 up to €1,000, CN23 above), the carrier is sent each line's HS code, origin, value and weight, and a piece
 * customs cannot be told about stops the label before any carrier is asked.
 */

const now = new Date("2026-03-04T09:00:00Z");
const staff = { userId: null, now };
let t: TestDatabase;
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;
let storage: PrivateStoragePort;
let ports: FulfilmentPorts;
const requests: Parameters<CarrierPort["createLabel"]>[0][] = [];

const newYork = { firstName: "Ada", lastName: "Byron", street: "Fifth Avenue", houseNumber: "1", postCode: "10001", city: "New York", countryCode: "US", stateCode: "NY" };

/** A paid order whose products were made in the countries given (ISO codes), one per item; null leaves it unknown. */
async function paidOrderFrom(spec: PaidOrderSpec, origins: (string | null)[]) {
  const paid = await paidOrders.placePaidOrder(spec);
  const countries = await t.db.select({ id: country.id, code: country.code }).from(country);
  for (const [index, productId] of paid.productIds.entries()) {
    const origin = origins[index] ?? null;
    await t.db.update(product).set({ countryId: origin ? countries.find((row) => row.code === origin)!.id : null }).where(eq(product.id, productId));
  }
  return paid;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const root = path.join(os.tmpdir(), `customs-${process.pid}`);
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(root, "seed") }), { products: 0, images: 0, now });
  paidOrders = await startPaidOrders(t.db, now);
  storage = createSandboxPrivateStorage({ root: path.join(root, "storage") });
  ports = {
    storage,
    carrierFor: (carrier) => {
      const port = createSandboxCarrier(carrier, { now: () => now });
      return { ...port, createLabel: (request) => (requests.push(request), port.createLabel(request)) };
    },
  };
});

afterAll(async () => {
  await paidOrders?.close();
  await t?.dispose();
});

describe("a parcel leaving the EU", () => {
  it("gets its label with a CN22 after it, and the carrier the HS code, origin, value and weight of each line", async () => {
    const paid = await paidOrderFrom(
      {
        email: "cn22@example.com",
        address: newYork,
        items: [
          { name: "Seiko 5 SNK809", price: "149.00", itemType: "AUTOMATIC" },
          { name: "Hirsch Duke leather strap 20 mm", price: "24.95", itemType: "LEATHER_STRAP", quantity: 2 },
        ],
      },
      ["JP", "AT"],
    );
    const label = await createLabel(t.db, paid.orderId, staff, ports);
    expect(`${label.carrier} ${label.product}`).toBe("UPS 65");

    expect(requests.at(-1)!.customs).toEqual({
      category: "SALE_OF_GOODS",
      currency: "EUR",
      invoiceNumber: paid.orderNumber,
      invoiceDate: expect.any(Date),
      lines: [
        { description: "Wrist-watch, automatic: Seiko 5 SNK809", quantity: 1, netWeightGrams: 100, value: expect.objectContaining({}), hsCode: "910221", originCountryCode: "JP" },
        { description: "Watch strap: Hirsch Duke leather strap 20 mm", quantity: 2, netWeightGrams: 40, value: expect.objectContaining({}), hsCode: "911390", originCountryCode: "AT" },
      ],
    });
    expect(requests.at(-1)!.customs!.lines.map((line) => line.value.toFixed(2))).toEqual(["149.00", "49.90"]);

    const stored = (await readLabelPdf(t.db, storage, paid.orderNumber))!.body;
    const pdf = await PDFDocument.load(stored);
    expect(pdf.getPages().map((page) => [Math.round(page.getWidth()), Math.round(page.getHeight())])).toEqual([
      [pageSizes.label4x6[0], pageSizes.label4x6[1]],
      [Math.round(pageSizes.a6[0]), Math.round(pageSizes.a6[1])],
    ]);
    const text = await pdfText(stored);
    const declaration = text.split("\f")[1]!;
    for (const expected of ["CUSTOMS DECLARATION CN22", "Sale of goods", "910221", "911390", "JP", "AT", "€149.00", "€49.90", "€198.90", label.trackingNumber, paid.orderNumber, "Ada Byron", "New York", "Prinsengracht"]) {
      expect(declaration).toContain(expected);
    }
    keepPdfPicture("customs-cn22", await pdfPagePng(stored, { dpi: 150, page: 2 }));
  });

  it("goes with a CN23 on A4 above €1,000, naming the countries of origin", async () => {
    const paid = await paidOrderFrom({ email: "cn23@example.com", address: newYork, items: [{ name: "Longines hunter pocket watch, 18k solid gold", price: "1850.00", itemType: "POCKET_WATCH" }] }, ["CH"]);
    await createLabel(t.db, paid.orderId, staff, ports);
    const stored = (await readLabelPdf(t.db, storage, paid.orderNumber))!.body;
    const pages = (await PDFDocument.load(stored)).getPages();
    expect(pages).toHaveLength(2);
    expect([Math.round(pages[1]!.getWidth()), Math.round(pages[1]!.getHeight())]).toEqual([Math.round(pageSizes.a4[0]), Math.round(pageSizes.a4[1])]);
    const declaration = (await pdfText(stored)).split("\f")[1]!;
    for (const expected of ["CUSTOMS DECLARATION CN23", "910199", "Switzerland", "€1,850.00", "Pocket watch, precious-metal case"]) expect(declaration).toContain(expected);
    keepPdfPicture("customs-cn23", await pdfPagePng(stored, { dpi: 100, page: 2 }));

    // The day's label batch carries each parcel's declaration behind its label.
    const batch = await printDocument(t.db, storage, "labels", { orderIds: [paid.orderId] });
    expect(await pdfText(batch.pdf)).toContain("CUSTOMS DECLARATION CN23");
  });

  it("sends an untracked parcel with PostNL's GlobalPack product and the same declaration", async () => {
    const paid = await paidOrderFrom({ email: "globalpack@example.com", address: newYork, shippingMethod: "UNTRACKED", items: [{ name: "Crown for Seiko 7S26", price: "12.50", itemType: "CROWN" }] }, ["JP"]);
    const label = await createLabel(t.db, paid.orderId, staff, ports);
    expect(`${label.carrier} ${label.product}`).toBe("POSTNL 4945");
    expect(requests.at(-1)!.customs!.lines).toMatchObject([{ hsCode: "911490", originCountryCode: "JP", netWeightGrams: 3 }]);
  });

  it("refuses the label before asking any carrier while a piece has no country of origin or no item type, naming it", async () => {
    const paid = await paidOrderFrom(
      { email: "unknown-origin@example.com", address: newYork, items: [{ name: "Omega Seamaster 300", price: "900.00", itemType: "AUTOMATIC" }, { name: "Mystery lot", price: "10.00" }] },
      [null, "NL"],
    );
    const asked = requests.length;
    await expect(createLabel(t.db, paid.orderId, staff, ports)).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringMatching(/“Omega Seamaster 300” has no country of origin; “Mystery lot” has no item type\. Fill it in the product's form/),
    });
    expect(requests.length).toBe(asked);
    const [row] = await t.db.select({ status: order.status, claimed: orderDetail.labelCreatedAt }).from(order).innerJoin(orderDetail, eq(orderDetail.orderId, order.id)).where(eq(order.id, paid.orderId));
    expect(row).toEqual({ status: "PAID_READY_TO_SHIP", claimed: null });

    // Once staff fill in the fields, the label is made.
    await t.db.update(productDescription).set({ itemType: "VARIOUS_PARTS" }).where(inArray(productDescription.productId, paid.productIds));
    const [switzerland] = await t.db.select({ id: country.id }).from(country).where(eq(country.code, "CH"));
    await t.db.update(product).set({ countryId: switzerland!.id }).where(eq(product.id, paid.productIds[0]!));
    await expect(createLabel(t.db, paid.orderId, staff, ports)).resolves.toMatchObject({ carrier: "UPS" });
  });

  it("gives a piece without a country of origin its maker's, where the shop knows where the maker is based", async () => {
    const paid = await paidOrderFrom({ email: "maker-origin@example.com", address: newYork, items: [{ name: "Miyota 8215", price: "45.00", itemType: "MOVEMENT" }] }, [null]);
    await t.db.update(productDescription).set({ caliber: "AUTOMATIC" }).where(eq(productDescription.productId, paid.productIds[0]!));
    const [japan] = await t.db.select({ id: country.id }).from(country).where(eq(country.code, "JP"));
    const [miyota] = await t.db.insert(productManufacturer).values({ name: "Miyota", countryId: japan!.id }).returning({ id: productManufacturer.id });
    await t.db.update(product).set({ manufacturerId: miyota!.id }).where(eq(product.id, paid.productIds[0]!));
    await createLabel(t.db, paid.orderId, staff, ports);
    expect(requests.at(-1)!.customs!.lines).toMatchObject([{ hsCode: "910820", originCountryCode: "JP", description: "Watch movement, complete, automatic: Miyota 8215" }]);
  });

  it("declares nothing for a parcel within the EU, but does for the Canary Islands", async () => {
    const berlin = await paidOrderFrom({ email: "berlin@example.com", address: { street: "Unter den Linden", houseNumber: "5", postCode: "10117", city: "Berlin", countryCode: "DE" }, items: [{ name: "Dial for ETA 2824", price: "30.00", itemType: "DIAL" }] }, [null]);
    await createLabel(t.db, berlin.orderId, staff, ports);
    expect(requests.at(-1)!.customs).toBeNull();
    expect((await PDFDocument.load((await readLabelPdf(t.db, storage, berlin.orderNumber))!.body)).getPageCount()).toBe(1);

    const canaries = await paidOrderFrom({ email: "canarias@example.com", address: { street: "Calle Mayor", houseNumber: "3", postCode: "35001", city: "Las Palmas", countryCode: "ES" }, items: [{ name: "Dial for ETA 2836", price: "30.00", itemType: "DIAL" }] }, ["CH"]);
    await createLabel(t.db, canaries.orderId, staff, ports);
    expect(requests.at(-1)!.customs!.lines).toMatchObject([{ hsCode: "911430", originCountryCode: "CH" }]);
    expect(await pdfText((await readLabelPdf(t.db, storage, canaries.orderNumber))!.body)).toContain("CUSTOMS DECLARATION CN22");
  });
});
