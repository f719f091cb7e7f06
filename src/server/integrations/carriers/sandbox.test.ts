import { PDFDocument } from "@cantoo/pdf-lib";
import { Decimal } from "decimal.js";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { pageSizes } from "@/server/documents/pdf";
import type { LabelRequest } from "@/server/integrations/carriers/port";
import { createSandboxCarrier, sandboxJourney, sandboxLabelTime } from "@/server/integrations/carriers/sandbox";
import { keepPdfPicture, pdfPagePng, pdfText } from "../../../../tests/helpers/pdf-pages";

/**
 * The sandbox carrier: a real PDF label a person can print and read (rendered here to a picture and its text read
 * with PDF.js), and a parcel journey that moves on with the clock from the label's time.
 */

const madeAt = new Date("2026-03-04T09:00:00Z");
const clock = { now: madeAt };
const later = (ms: number) => new Date(madeAt.getTime() + ms);
const hour = 60 * 60_000;

const request = (overrides: Partial<LabelRequest> = {}): LabelRequest => ({
  reference: "1001",
  sender: { name: "Balance & Crown", companyName: "Balance & Crown", street: "Prinsengracht", houseNumber: "263", postCode: "1016 GV", city: "Amsterdam", countryCode: "NL" },
  receiver: { name: "Jürgen Müller", street: "Keizersgracht", houseNumber: "12a", postCode: "1015 CS", city: "Amsterdam", countryCode: "NL" },
  weightGrams: 450,
  product: "3085",
  declaredValue: new Decimal("120.00"),
  customs: null,
  idempotencyKey: "1001-1",
  ...overrides,
});

beforeEach(() => {
  clock.now = madeAt;
});

/** Page 1 of a PDF as a picture at 72 dpi (one pixel per point), and the PDF's text. */
async function renderFirstPage(pdf: Buffer, name: string): Promise<{ png: Buffer; text: string }> {
  const png = await pdfPagePng(pdf, { dpi: 72 });
  keepPdfPicture(name, png);
  return { png, text: await pdfText(pdf) };
}

describe("sandbox labels", () => {
  it("are one-page A6 PDFs for PostNL that render, with the tracking number, the addresses and the order", async () => {
    const postnl = createSandboxCarrier("POSTNL", { now: () => clock.now });
    const label = await postnl.createLabel(request());

    expect(label.trackingNumber).toMatch(/^3SSBOX[0-9A-Z]{12}$/);
    expect(label.shipmentId).toBe(label.trackingNumber);
    expect(label.cost).toEqual(new Decimal("6.95"));

    const pdf = await PDFDocument.load(label.pdf);
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect([width, height].map(Math.round)).toEqual(pageSizes.a6.map(Math.round));

    const { png, text } = await renderFirstPage(label.pdf, "sandbox-label-postnl");
    expect(await sharp(png).metadata()).toMatchObject({ width: Math.round(pageSizes.a6[0]), height: Math.round(pageSizes.a6[1]) });
    for (const printed of [label.trackingNumber, "Jürgen Müller", "1015 CS AMSTERDAM", "Standard parcel", "1001", "0.45 kg", "NOT VALID FOR SHIPPING"]) expect(text).toContain(printed);
  });

  it("print accented names and the euro sign, on UPS's 4x6 stock", async () => {
    const ups = createSandboxCarrier("UPS", { now: () => clock.now });
    const receiver = { name: "Karel Čapek", companyName: "Čapek & Synové — €100 club", street: "Vinohradská", houseNumber: "1511", postCode: "100 00", city: "Praha", countryCode: "CZ" };
    const label = await ups.createLabel(request({ product: "11", receiver }));

    expect(label.trackingNumber).toMatch(/^1ZSBOX[0-9A-Z]{12}$/);
    const { text } = await renderFirstPage(label.pdf, "sandbox-label-ups");
    for (const printed of ["Karel Čapek", "Čapek & Synové — €100 club", "CZECHIA", "UPS Standard"]) expect(text).toContain(printed);
    const size = (await PDFDocument.load(label.pdf)).getPage(0).getSize();
    expect(size).toEqual({ width: pageSizes.label4x6[0], height: pageSizes.label4x6[1] });
  });

  it("write the label's time into the tracking number, and no two labels share one", async () => {
    const postnl = createSandboxCarrier("POSTNL", { now: () => clock.now });
    const [first, second] = await Promise.all([postnl.createLabel(request()), postnl.createLabel(request())]);
    expect(first!.trackingNumber).not.toBe(second!.trackingNumber);
    expect(sandboxLabelTime("POSTNL", first!.trackingNumber)).toEqual(madeAt);
    expect(sandboxLabelTime("UPS", first!.trackingNumber)).toBeNull();
  });

  it("are refused as the carriers refuse them: unknown product, too heavy, a Dutch product abroad", async () => {
    const postnl = createSandboxCarrier("POSTNL");
    await expect(postnl.createLabel(request({ product: "11" }))).rejects.toMatchObject({ carrier: "POSTNL", status: 400, message: "PostNL refused the request: unknown product 11" });
    await expect(postnl.createLabel(request({ product: "2928", weightGrams: 2_500 }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("at most 2 kg") });
    const abroad = { ...request().receiver, countryCode: "BE", postCode: "1000", city: "Brussel" };
    await expect(postnl.createLabel(request({ receiver: abroad }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("only goes to addresses in the Netherlands") });
  });
});

describe("sandbox tracking", () => {
  it("moves on with the time since the label: expected, received, sorted, out for delivery, delivered", async () => {
    const postnl = createSandboxCarrier("POSTNL", { now: () => clock.now });
    const { trackingNumber } = await postnl.createLabel(request());

    expect(await postnl.track(trackingNumber)).toMatchObject({ status: "pre_transit", description: "Label created; PostNL is expecting the parcel", deliveredAt: null });

    clock.now = later(hour);
    expect(await postnl.track(trackingNumber)).toMatchObject({ status: "in_transit", description: "Parcel received by PostNL" });

    clock.now = later(26 * hour);
    const outForDelivery = await postnl.track(trackingNumber);
    expect(outForDelivery).toMatchObject({ status: "in_transit", description: "Parcel out for delivery", deliveredAt: null });
    expect(outForDelivery.events.map((event) => event.at)).toEqual(sandboxJourney.slice(0, 4).map((stage) => later(stage.afterMs)));

    clock.now = later(5 * 24 * hour);
    const delivered = await postnl.track(trackingNumber);
    expect(delivered.status).toBe("delivered");
    expect(delivered.deliveredAt).toEqual(later(sandboxJourney.at(-1)!.afterMs));
    expect(delivered.events).toHaveLength(sandboxJourney.length);
  });

  it("is the same answer from any instance: the sandbox keeps nothing", async () => {
    const { trackingNumber } = await createSandboxCarrier("UPS", { now: () => clock.now }).createLabel(request({ product: "65" }));
    clock.now = later(7 * hour);
    const elsewhere = createSandboxCarrier("UPS", { now: () => clock.now });
    expect(await elsewhere.track(trackingNumber)).toMatchObject({ status: "in_transit", description: "Parcel sorted" });
  });

  it("does not know tracking numbers it did not make", async () => {
    await expect(createSandboxCarrier("POSTNL").track("3SDEVC123456789")).rejects.toMatchObject({ status: 404 });
  });
});

describe("sandbox void", () => {
  it("voids a label until the parcel is handed over, and refuses after", async () => {
    const postnl = createSandboxCarrier("POSTNL", { now: () => clock.now });
    const { shipmentId } = await postnl.createLabel(request());
    await expect(postnl.voidLabel(shipmentId)).resolves.toBeUndefined();
    // Voiding twice is no error.
    await expect(postnl.voidLabel(shipmentId)).resolves.toBeUndefined();

    clock.now = later(hour);
    await expect(postnl.voidLabel(shipmentId)).rejects.toMatchObject({ status: 409, message: expect.stringContaining("cannot be voided") });
  });

  it("links to the carrier's own tracking page", () => {
    expect(createSandboxCarrier("POSTNL").trackingUrl("3SSBOX0MWTRDLVCGRM", { countryCode: "NL", postCode: "1015 CS" })).toBe("https://jouw.postnl.nl/track-and-trace/3SSBOX0MWTRDLVCGRM-NL-1015CS");
    expect(createSandboxCarrier("UPS").trackingUrl("1ZSBOX0MWTRDM5WF6H", { countryCode: "CZ", postCode: "100 00" })).toBe("https://www.ups.com/track?tracknum=1ZSBOX0MWTRDM5WF6H");
  });
});

describe("sandbox carrier: parcels leaving the EU", () => {
  const newYork = { name: "Ada Byron", street: "Fifth Avenue", houseNumber: "1", postCode: "10001", city: "New York", stateCode: "NY", countryCode: "US" };
  const line = { description: "Wrist-watch, automatic: Seiko 5", quantity: 1, netWeightGrams: 100, value: new Decimal("149.00"), hsCode: "910221", originCountryCode: "JP" };
  const customs = { category: "SALE_OF_GOODS", currency: "EUR", invoiceNumber: "1003", invoiceDate: madeAt, lines: [line] } as const;

  it("refuses an export without its customs declaration, as PostNL and UPS do", async () => {
    for (const [carrier, product] of [["POSTNL", "4945"], ["UPS", "65"]] as const) {
      await expect(createSandboxCarrier(carrier).createLabel(request({ product, receiver: newYork }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("needs its customs declaration") });
    }
  });

  it("refuses a customs line without a 6-digit tariff code or an origin, and takes a complete one", async () => {
    const postnl = createSandboxCarrier("POSTNL");
    const export_ = (lines: (typeof line)[]) => postnl.createLabel(request({ product: "4945", receiver: newYork, customs: { ...customs, lines } }));
    await expect(export_([{ ...line, hsCode: "9102" }])).rejects.toMatchObject({ message: expect.stringContaining("6-digit HS tariff code") });
    await expect(export_([{ ...line, originCountryCode: "" }])).rejects.toMatchObject({ message: expect.stringContaining("country of origin") });
    await expect(export_([line])).resolves.toMatchObject({ trackingNumber: expect.stringMatching(/^3SSBOX/) });
  });
});
