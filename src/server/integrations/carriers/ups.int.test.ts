import { PDFDocument } from "@cantoo/pdf-lib";
import { Decimal } from "decimal.js";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { CarrierError, type CustomsDeclaration, type LabelRequest } from "@/server/integrations/carriers/port";
import { createUpsCarrier, upsTokenMarginMs } from "@/server/integrations/carriers/ups";
import { startUpsStandIn, upsCredentials } from "../../../../tests/helpers/carrier-stand-ins";
import { keepPdfPicture, pdfPagePng } from "../../../../tests/helpers/pdf-pages";
import { standInForFile } from "../../../../tests/helpers/stand-in";

/**
 * Acceptance 3 (UPS): the live adapter against a local server answering as UPS's OAuth, Shipping v2409 and Track v1
 * APIs document (PROVIDERS.md section 4), including `{"response":{"errors":[...]}}`, a token that expires early and
 * one whose `expires_in` has passed.
 */

const server = standInForFile(startUpsStandIn);
const start = new Date("2026-03-04T09:00:00Z");
const clock = { now: start };
const newUps = () => createUpsCarrier({ ...upsCredentials, baseUrl: server.url, now: () => clock.now });

const request = (overrides: Partial<LabelRequest> = {}): LabelRequest => ({
  reference: "1002",
  sender: { name: "Balance & Crown", companyName: "Balance & Crown", street: "Prinsengracht", houseNumber: "263", postCode: "1016 GV", city: "Amsterdam", countryCode: "NL", phoneNumber: "+31 20 000 0000" },
  receiver: { name: "Karel Čapek", street: "Vinohradská", houseNumber: "1511/230", addressLine2: "Byt 4", postCode: "100 00", city: "Praha 10", countryCode: "CZ", phoneNumber: "+420 601 234 567" },
  weightGrams: 23_450,
  product: "11",
  declaredValue: new Decimal("1450.00"),
  customs: null,
  idempotencyKey: "1002-1772614800000",
  ...overrides,
});

const tokenCalls = () => server.requests.filter((r) => r.path === "/security/v1/oauth/token");
const apiCalls = () => server.requests.filter((r) => r.path.startsWith("/api/"));

beforeEach(() => {
  server.rateLimited.value = false;
  server.tokenLifetimeSeconds.value = 3600;
  clock.now = start;
});

describe("live UPS adapter: labels", () => {
  it("ships with the account, service, weight in kilograms and addresses, and turns UPS's GIF into a 4x6 PDF", async () => {
    const label = await newUps().createLabel(request());

    expect(label.trackingNumber).toMatch(/^1ZA1B2C311\d{8}$/);
    expect(label.shipmentId).toBe(label.trackingNumber);
    // The negotiated rate, which UPS bills the account, not the published one.
    expect(label.cost).toEqual(new Decimal("18.15"));

    const pdf = await PDFDocument.load(label.pdf);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });

    const [tokenCall, shipCall] = server.requests;
    expect(tokenCall!.headers["x-merchant-id"]).toBe("A1B2C3");
    expect(tokenCall!.body).toBe("grant_type=client_credentials");
    expect(shipCall!.path).toBe("/api/shipments/v2409/ship");
    expect(shipCall!.headers.authorization).toBe("Bearer ups-access-1");
    expect(String(shipCall!.headers.transid).length).toBeLessThanOrEqual(32);
    expect(shipCall!.headers.transactionsrc).toBeTruthy();
    expect(shipCall!.json).toMatchObject({
      ShipmentRequest: {
        Request: { RequestOption: "nonvalidate", TransactionReference: { CustomerContext: "1002" } },
        Shipment: {
          Shipper: { ShipperNumber: "A1B2C3", Name: "Balance & Crown", Address: { AddressLine: ["Prinsengracht 263"], PostalCode: "1016 GV", CountryCode: "NL" } },
          ShipTo: { Name: "Karel Čapek", Phone: { Number: "+420 601 234 567" }, Address: { AddressLine: ["Vinohradská 1511/230", "Byt 4"], City: "Praha 10", PostalCode: "100 00", CountryCode: "CZ" } },
          PaymentInformation: { ShipmentCharge: [{ Type: "01", BillShipper: { AccountNumber: "A1B2C3" } }] },
          Service: { Code: "11" },
          Package: [
            {
              Packaging: { Code: "02" },
              PackageWeight: { UnitOfMeasurement: { Code: "KGS" }, Weight: "23.5" },
              ReferenceNumber: [{ Value: "1002" }],
              PackageServiceOptions: { DeclaredValue: { CurrencyCode: "EUR", MonetaryValue: "1450.00" } },
            },
          ],
        },
        LabelSpecification: { LabelImageFormat: { Code: "GIF" } },
      },
    });
  });

  it("makes a label page that renders, the label turned upright", async () => {
    const label = await newUps().createLabel(request());
    const png = await pdfPagePng(label.pdf, { dpi: 50 });
    keepPdfPicture("ups-label", png);
    // 4x6 inch at 50 dpi: 200 by 300 pixels, portrait.
    expect(await sharp(png).metadata()).toMatchObject({ width: 200, height: 300 });
  });

  it("turns UPS's {response:{errors:[{code, message}]}} into a CarrierError with UPS's words", async () => {
    const refused = newUps().createLabel(request({ product: "96" }));
    await expect(refused).rejects.toBeInstanceOf(CarrierError);
    await expect(refused).rejects.toMatchObject({
      carrier: "UPS",
      status: 400,
      message: "UPS refused the request: The requested service 96 is unavailable between the selected locations. (121210)",
    });
  });

  it("tells staff to check the client id and secret when UPS refuses them, and to wait on a 429", async () => {
    const wrongSecret = createUpsCarrier({ ...upsCredentials, clientSecret: "wrong", baseUrl: server.url });
    await expect(wrongSecret.track("1ZA1B2C31110000001")).rejects.toMatchObject({ status: 401, message: "UPS refused the shop's credentials (ClientId is Invalid (10401)): check UPS_CLIENT_ID and UPS_CLIENT_SECRET." });
    // Refused credentials are not retried: one token request, no API call.
    expect(tokenCalls()).toHaveLength(1);
    expect(apiCalls()).toHaveLength(0);

    server.rateLimited.value = true;
    await expect(newUps().track("1ZA1B2C31110000001")).rejects.toMatchObject({ status: 429, message: expect.stringContaining("try again in a few minutes") });
  });
});

describe("live UPS adapter: the access token", () => {
  it("asks for a token once and reuses it for later calls", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());
    await ups.track(label.trackingNumber);
    await ups.voidLabel(label.shipmentId);
    expect(tokenCalls()).toHaveLength(1);
    expect(apiCalls().map((call) => call.headers.authorization)).toEqual(Array(3).fill(apiCalls()[0]!.headers.authorization));
  });

  it("gets a new token and retries once when UPS answers 401 for an expired one", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());
    server.expireTokens();
    server.requests.length = 0;

    const info = await ups.track(label.trackingNumber);

    expect(info.trackingNumber).toBe(label.trackingNumber);
    expect(server.requests.map((r) => r.path)).toEqual([`/api/track/v1/details/${label.trackingNumber}`, "/security/v1/oauth/token", `/api/track/v1/details/${label.trackingNumber}`]);
    const [refused, , retried] = server.requests;
    expect(retried!.headers.authorization).not.toBe(refused!.headers.authorization);
  });

  it("renews a token whose expires_in has passed before using it, so no request meets a 401", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());

    // Just before the renewal margin the token is still used.
    clock.now = new Date(start.getTime() + 3600_000 - upsTokenMarginMs - 1000);
    await ups.track(label.trackingNumber);
    expect(tokenCalls()).toHaveLength(1);

    // Once within the margin of expires_in, a new token is fetched before the call; the stand-in would have
    // accepted the old one still, so this is the adapter reading expires_in and not a 401 retry.
    clock.now = new Date(start.getTime() + 3600_000 - upsTokenMarginMs + 1000);
    await ups.track(label.trackingNumber);
    expect(tokenCalls()).toHaveLength(2);
    const tracks = apiCalls().filter((call) => call.path.startsWith("/api/track/"));
    expect(tracks.map((call) => call.headers.authorization)).toEqual([apiCalls()[0]!.headers.authorization, "Bearer " + `ups-access-${server.tokensIssued()}`]);
  });
});

describe("live UPS adapter: void and tracking", () => {
  it("voids a shipment, and voiding it again is no error", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());
    await ups.voidLabel(label.shipmentId);
    expect(server.shipments.get(label.shipmentId)!.voided).toBe(true);
    await expect(ups.voidLabel(label.shipmentId)).resolves.toBeUndefined();
    expect(apiCalls().filter((call) => call.method === "DELETE").map((call) => call.path)).toEqual(Array(2).fill(`/api/shipments/v2409/void/cancel/${label.shipmentId}`));
  });

  it("refuses to void a shipment UPS has picked up, with UPS's reason", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());
    server.addActivity(label.trackingNumber, { type: "P", code: "XA", description: "Pickup Scan", gmtDate: "20260304", gmtTime: "171500", city: "Amsterdam", countryCode: "NL" });
    await expect(ups.voidLabel(label.shipmentId)).rejects.toMatchObject({ status: 400, message: "UPS refused the request: No shipment found within the allowed void period (190102)" });
  });

  it("follows a parcel from label to delivery, oldest event first, with the transId and transactionSrc headers", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());

    expect(await ups.track(label.trackingNumber)).toMatchObject({ status: "pre_transit", deliveredAt: null, events: [] });
    const trackCall = apiCalls().at(-1)!;
    expect(trackCall.query.get("locale")).toBe("en_US");
    expect(trackCall.headers.transid).toBeTruthy();
    expect(trackCall.headers.transactionsrc).toBeTruthy();

    server.addActivity(label.trackingNumber, { type: "P", code: "XA", description: "Pickup Scan", gmtDate: "20260304", gmtTime: "171500", city: "Amsterdam", countryCode: "NL" });
    server.addActivity(label.trackingNumber, { type: "I", code: "AR", description: "Arrived at Facility", gmtDate: "20260305", gmtTime: "42000", city: "Praha", countryCode: "CZ" });
    expect(await ups.track(label.trackingNumber)).toMatchObject({ status: "in_transit", description: "Arrived at Facility" });

    server.addActivity(label.trackingNumber, { type: "D", code: "KB", description: "DELIVERED", gmtDate: "20260305", gmtTime: "133000", city: "Praha", countryCode: "CZ" });
    const delivered = await ups.track(label.trackingNumber);
    expect(delivered.status).toBe("delivered");
    expect(delivered.deliveredAt).toEqual(new Date("2026-03-05T13:30:00Z"));
    expect(delivered.events).toEqual([
      { at: new Date("2026-03-04T17:15:00Z"), description: "Pickup Scan", location: "Amsterdam, NL" },
      { at: new Date("2026-03-05T04:20:00Z"), description: "Arrived at Facility", location: "Praha, CZ" },
      { at: new Date("2026-03-05T13:30:00Z"), description: "DELIVERED", location: "Praha, CZ" },
    ]);
  });

  it("reports an exception, and a number UPS does not know", async () => {
    const ups = newUps();
    const label = await ups.createLabel(request());
    server.addActivity(label.trackingNumber, { type: "X", code: "UE", description: "The receiver was not available for delivery.", gmtDate: "20260305", gmtTime: "120000" });
    expect(await ups.track(label.trackingNumber)).toMatchObject({ status: "exception", description: "The receiver was not available for delivery." });
    await expect(ups.track("1ZA1B2C31199999999")).rejects.toMatchObject({ status: 404, message: "UPS refused the request: Tracking Information Not Found (TW0001)" });
  });

  it("links to UPS's tracking page", () => {
    expect(newUps().trackingUrl("1ZA1B2C31110000001", { countryCode: "CZ", postCode: "100 00" })).toBe("https://www.ups.com/track?tracknum=1ZA1B2C31110000001");
  });
});

describe("live UPS adapter: shipments leaving the EU (Worldwide Saver)", () => {
  const newYork = { name: "Ada Byron", street: "Fifth Avenue", houseNumber: "1", postCode: "10001", city: "New York", stateCode: "NY", countryCode: "US", phoneNumber: "+1 212 555 0100" };
  const customs: CustomsDeclaration = {
    category: "SALE_OF_GOODS",
    currency: "EUR",
    invoiceNumber: "2026-000043",
    invoiceDate: new Date("2026-03-03T23:30:00Z"), // 4 March in Amsterdam
    lines: [
      { description: "Pocket watch, precious-metal case: Longines 18k gold hunter", quantity: 1, netWeightGrams: 90, value: new Decimal("1850.00"), hsCode: "910199", originCountryCode: "CH" },
      { description: "Watch movement, complete, hand-wound: ETA 6497", quantity: 3, netWeightGrams: 75, value: new Decimal("270.00"), hsCode: "910890", originCountryCode: "CH" },
    ],
  };
  const export_ = (overrides: Partial<LabelRequest> = {}) => request({ product: "65", receiver: newYork, weightGrams: 900, customs, ...overrides });

  it("sends the invoice form: sold to the receiver, reason SALE, in euro, and per product description, pieces, unit value, commodity code and origin", async () => {
    const label = await newUps().createLabel(export_());
    expect(label.trackingNumber).toMatch(/^1ZA1B2C365\d{8}$/);

    const shipment = (apiCalls()[0]!.json as { ShipmentRequest: { Shipment: Record<string, unknown> } }).ShipmentRequest.Shipment;
    expect(shipment.Description).toBe("Watches and watch parts");
    expect(shipment.ShipmentServiceOptions).toEqual({
      InternationalForms: {
        FormType: "01",
        InvoiceNumber: "2026-000043",
        InvoiceDate: "20260304",
        ReasonForExport: "SALE",
        CurrencyCode: "EUR",
        Contacts: { SoldTo: expect.objectContaining({ Name: "Ada Byron", Address: expect.objectContaining({ CountryCode: "US", StateProvinceCode: "NY", PostalCode: "10001" }) }) },
        Product: [
          {
            Description: ["Pocket watch, precious-metal case:", "Longines 18k gold hunter"],
            Unit: { Number: "1", Value: "1850.00", UnitOfMeasurement: { Code: "PCS" } },
            CommodityCode: "910199",
            OriginCountryCode: "CH",
            ProductWeight: { UnitOfMeasurement: { Code: "KGS" }, Weight: "0.1" },
          },
          {
            Description: ["Watch movement, complete,", "hand-wound: ETA 6497"],
            Unit: { Number: "3", Value: "90.00", UnitOfMeasurement: { Code: "PCS" } },
            CommodityCode: "910890",
            OriginCountryCode: "CH",
            ProductWeight: { UnitOfMeasurement: { Code: "KGS" }, Weight: "0.1" },
          },
        ],
      },
    });
  });

  it("is refused by UPS without the invoice form, as UPS refuses an export without one", async () => {
    await expect(newUps().createLabel(export_({ customs: null }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("(InternationalForms FormType 01) is required") });
  });

  it("is refused by UPS for a product without its commodity code", async () => {
    const withoutCode = { ...customs, lines: [{ ...customs.lines[0]!, hsCode: "" }] };
    await expect(newUps().createLabel(export_({ customs: withoutCode }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("CommodityCode must be 6 to 15 digits") });
  });
});
