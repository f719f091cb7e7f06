import { Decimal } from "decimal.js";
import { beforeEach, describe, expect, it } from "vitest";
import { CarrierError, type CustomsDeclaration, type LabelRequest } from "@/server/integrations/carriers/port";
import { createPostNLCarrier, parsePostnlTimestamp, postnlTimestamp } from "@/server/integrations/carriers/postnl";
import { postnlCredentials, postnlGlobalPack, startPostNLStandIn } from "../../../../tests/helpers/carrier-stand-ins";
import { standInForFile } from "../../../../tests/helpers/stand-in";

/**
 * Acceptance 3 (PostNL): the live adapter against a local server answering as PostNL's Barcode, Labelling v2_2 and
 * Shippingstatus services document (PROVIDERS.md section 3), including `{"Errors":[...]}`, 401 and 429.
 */

const server = standInForFile(startPostNLStandIn);
const clock = { now: new Date("2026-03-04T09:00:00Z") };
const postnl = () => createPostNLCarrier({ ...postnlCredentials, baseUrl: server.url, now: () => clock.now });

const shop = { name: "Balance & Crown", companyName: "Balance & Crown", street: "Prinsengracht", houseNumber: "263", postCode: "1016 GV", city: "Amsterdam", countryCode: "NL", email: "service@balance-and-crown.example" };

const request = (overrides: Partial<LabelRequest> = {}): LabelRequest => ({
  reference: "1001",
  sender: shop,
  receiver: { name: "Jürgen Müller", street: "Keizersgracht", houseNumber: "12 a", postCode: "1015 cs", city: "Amsterdam", countryCode: "NL", email: "jurgen@example.com", phoneNumber: "+31612345678" },
  weightGrams: 450,
  product: "3085",
  declaredValue: new Decimal("120.00"),
  customs: null,
  idempotencyKey: "1001-1772614800000",
  ...overrides,
});

beforeEach(() => {
  server.rateLimited.value = false;
});

describe("live PostNL adapter: labels", () => {
  it("takes a barcode, then a confirmed PDF label for it with the addresses, weight in grams and product", async () => {
    const label = await postnl().createLabel(request());

    expect(label.trackingNumber).toMatch(/^3SDEVC\d{9}$/);
    expect(label.shipmentId).toBe(label.trackingNumber);
    expect(label.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(label.cost).toBeNull();

    const [barcodeCall, labelCall] = server.requests;
    expect(barcodeCall!.headers.apikey).toBe(postnlCredentials.apiKey);
    expect(Object.fromEntries(barcodeCall!.query)).toEqual({ CustomerCode: "DEVC", CustomerNumber: "11223344", Type: "3S", Serie: "000000000-999999999" });
    expect(labelCall!.path).toBe("/shipment/v2_2/label");
    expect(labelCall!.query.get("confirm")).toBe("true");
    expect(labelCall!.json).toMatchObject({
      Customer: { CustomerCode: "DEVC", CustomerNumber: "11223344", Address: { AddressType: "02", Street: "Prinsengracht", HouseNr: "263", Zipcode: "1016GV", City: "Amsterdam", Countrycode: "NL" } },
      Message: { MessageID: "1001-1772614800000", MessageTimeStamp: "04-03-2026 10:00:00", Printertype: "GraphicFile|PDF" },
      Shipments: [
        {
          Barcode: label.trackingNumber,
          Addresses: [{ AddressType: "01", Name: "Jürgen Müller", Street: "Keizersgracht", HouseNr: "12", HouseNrExt: "a", Zipcode: "1015CS", City: "Amsterdam", Countrycode: "NL" }],
          Contacts: [{ ContactType: "01", Email: "jurgen@example.com", SMSNr: "+31612345678" }],
          Dimension: { Weight: "450" },
          ProductCodeDelivery: "3085",
          ProductOptions: [],
          Reference: "1001",
        },
      ],
    });
  });

  it("sends the track & trace options PostNL wants with its EU parcel", async () => {
    const receiver = { name: "Anna Kowalska", street: "Długa", houseNumber: "5", postCode: "80-827", city: "Gdańsk", countryCode: "PL" };
    await postnl().createLabel(request({ product: "4907", receiver }));
    const shipment = (server.requests.at(-1)!.json as { Shipments: { ProductOptions: unknown; Addresses: { Zipcode: string }[] }[] }).Shipments[0]!;
    expect(shipment.ProductOptions).toEqual([
      { Characteristic: "005", Option: "025" },
      { Characteristic: "101", Option: "012" },
    ]);
    expect(shipment.Addresses[0]!.Zipcode).toBe("80-827");
  });

  it("turns PostNL's {Errors:[{Code, Description}]} into a CarrierError with PostNL's words", async () => {
    const refused = postnl().createLabel(request({ product: "9999" }));
    await expect(refused).rejects.toBeInstanceOf(CarrierError);
    await expect(refused).rejects.toMatchObject({ carrier: "POSTNL", status: 400, message: "PostNL refused the request: 4: ProductCodeDelivery 9999 is invalid" });
  });

  it("reads a refusal PostNL puts inside a 200 answer", async () => {
    await expect(postnl().createLabel(request({ product: "4905" }))).rejects.toMatchObject({ status: 400, message: "PostNL refused the label: 111: No label available, Direct Infeed" });
  });

  it("tells staff to check the API key on a 401 and to wait on a 429", async () => {
    const wrongKey = createPostNLCarrier({ ...postnlCredentials, apiKey: "not-the-key", baseUrl: server.url });
    await expect(wrongKey.createLabel(request())).rejects.toMatchObject({ status: 401, message: "PostNL refused the shop's credentials (Invalid ApiKey): check POSTNL_API_KEY." });

    server.rateLimited.value = true;
    await expect(postnl().track("3SDEVC100000001")).rejects.toMatchObject({ status: 429, message: expect.stringContaining("try again in a few minutes") });
  });

  it("refuses a parcel outside the EU while the contract's GlobalPack range is not configured, before asking PostNL", async () => {
    await expect(postnl().createLabel(request({ product: "4945" }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("GlobalPack") });
    expect(server.requests).toHaveLength(0);
  });

  it("says PostNL cannot be reached when nothing answers", async () => {
    const nowhere = createPostNLCarrier({ ...postnlCredentials, baseUrl: "http://127.0.0.1:9" });
    await expect(nowhere.track("3SDEVC100000001")).rejects.toMatchObject({ status: 0, message: expect.stringContaining("PostNL could not be reached") });
  });
});

describe("live PostNL adapter: void and tracking", () => {
  it("voids a label whose parcel PostNL has not scanned, without a call PostNL does not have", async () => {
    const label = await postnl().createLabel(request());
    server.requests.length = 0;
    await postnl().voidLabel(label.shipmentId);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /shipment/v2/status/barcode/${label.shipmentId}`]);
    // A barcode PostNL has never seen was never handed over either.
    await expect(postnl().voidLabel("3SDEVC999999999")).resolves.toBeUndefined();
  });

  it("refuses to void once PostNL has the parcel, saying since when", async () => {
    const label = await postnl().createLabel(request());
    server.scan(label.trackingNumber, { TimeStamp: "04-03-2026 17:45:03", StatusCode: "2", StatusDescription: "Shipment received by PostNL", PhaseCode: "1", PhaseDescription: "Collection" });
    await expect(postnl().voidLabel(label.shipmentId)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^PostNL already has parcel 3SDEVC\d+ \(Shipment received by PostNL, 04-03-2026 17:45:03\): PostNL cannot cancel/),
    });
  });

  it("follows a parcel from pre-alerted through sorting to delivered, in order and in Dutch time", async () => {
    const label = await postnl().createLabel(request());
    const carrier = postnl();

    const announced = await carrier.track(label.trackingNumber);
    expect(announced).toMatchObject({ status: "pre_transit", description: "Shipment pre-alerted", deliveredAt: null });
    expect(server.requests.at(-1)!.query.get("detail")).toBe("true");

    server.scan(label.trackingNumber, { TimeStamp: "04-03-2026 17:45:03", StatusCode: "2", StatusDescription: "Shipment received by PostNL", PhaseCode: "1", PhaseDescription: "Collection" });
    server.scan(label.trackingNumber, { TimeStamp: "04-03-2026 23:10:00", StatusCode: "3", StatusDescription: "Shipment sorted", PhaseCode: "2", PhaseDescription: "Sorting" });
    expect(await carrier.track(label.trackingNumber)).toMatchObject({ status: "in_transit", description: "Shipment sorted" });

    // Summer time: 14:02 in Amsterdam is 12:02 UTC.
    server.scan(label.trackingNumber, { TimeStamp: "05-07-2026 14:02:41", StatusCode: "11", StatusDescription: "Shipment delivered", PhaseCode: "4", PhaseDescription: "Delivered" });
    const delivered = await carrier.track(label.trackingNumber);
    expect(delivered.status).toBe("delivered");
    expect(delivered.deliveredAt).toEqual(new Date("2026-07-05T12:02:41Z"));
    expect(delivered.events.map((event) => event.description)).toEqual(["Shipment pre-alerted", "Shipment received by PostNL", "Shipment sorted", "Shipment delivered"]);
    expect(delivered.events[1]!.at).toEqual(new Date("2026-03-04T16:45:03Z"));
  });

  it("says PostNL knows no such parcel", async () => {
    await expect(postnl().track("3SDEVC999999999")).rejects.toMatchObject({ status: 404, message: "PostNL knows no parcel 3SDEVC999999999." });
  });

  it("links to PostNL's tracking page with the country and postcode", () => {
    expect(postnl().trackingUrl("3SDEVC100000001", { countryCode: "nl", postCode: "1015 cs" })).toBe("https://jouw.postnl.nl/track-and-trace/3SDEVC100000001-NL-1015CS");
  });
});

describe("PostNL's time stamps", () => {
  it("writes and reads Dutch local time across summer time", () => {
    expect(postnlTimestamp(new Date("2026-07-05T12:02:41Z"))).toBe("05-07-2026 14:02:41");
    expect(parsePostnlTimestamp("07-03-2018 23:22:56.326")).toEqual(new Date("2018-03-07T22:22:56Z"));
    expect(parsePostnlTimestamp("yesterday")).toBeNull();
  });
});

describe("live PostNL adapter: parcels leaving the EU (GlobalPack)", () => {
  const globalPack = () => createPostNLCarrier({ ...postnlCredentials, baseUrl: server.url, now: () => clock.now, globalPack: postnlGlobalPack });
  const newYork = { name: "Ada Byron", street: "Fifth Avenue", houseNumber: "1", postCode: "10001", city: "New York", stateCode: "NY", countryCode: "US", email: "ada@example.com" };
  const customs: CustomsDeclaration = {
    category: "SALE_OF_GOODS",
    currency: "EUR",
    invoiceNumber: "2026-000042",
    invoiceDate: new Date("2026-03-03T10:00:00Z"),
    lines: [
      { description: "Wrist-watch, automatic: Seiko 5 SNK809 on its original bracelet", quantity: 1, netWeightGrams: 100, value: new Decimal("149.00"), hsCode: "910221", originCountryCode: "JP" },
      { description: "Watch strap: Hirsch leather 20 mm", quantity: 2, netWeightGrams: 40, value: new Decimal("39.90"), hsCode: "911390", originCountryCode: "AT" },
    ],
  };

  it("takes a GlobalPack barcode and sends the customs block: sale of goods, invoice, and per line description, quantity, grams, value, HS code and origin", async () => {
    const label = await globalPack().createLabel(request({ product: "4945", receiver: newYork, customs }));

    expect(label.trackingNumber).toMatch(/^CD\d{9}NL$/);
    const [barcodeCall, labelCall] = server.requests;
    expect(Object.fromEntries(barcodeCall!.query)).toEqual({ CustomerCode: "DEVC", CustomerNumber: "11223344", Type: "CD", Range: "1234", Serie: "0000-9999" });
    const shipment = (labelCall!.json as { Shipments: Record<string, unknown>[] }).Shipments[0]!;
    expect(shipment).toMatchObject({ Barcode: label.trackingNumber, ProductCodeDelivery: "4945", Addresses: [{ Countrycode: "US", Zipcode: "10001", Region: "NY" }] });
    expect(shipment.Customs).toEqual({
      ShipmentType: "Commercial Goods",
      Currency: "EUR",
      HandleAsNonDeliverable: false,
      Invoice: true,
      InvoiceNr: "2026-000042",
      Certificate: false,
      License: false,
      Content: [
        { Description: "Wrist-watch, automatic: Seiko 5", Quantity: "1", Weight: "100", Value: "149.00", HSTariffNr: "910221", CountryOfOrigin: "JP" },
        { Description: "Watch strap: Hirsch leather 20 mm", Quantity: "2", Weight: "40", Value: "39.90", HSTariffNr: "911390", CountryOfOrigin: "AT" },
      ],
    });
  });

  it("refuses an export without its customs declaration before asking PostNL", async () => {
    await expect(globalPack().createLabel(request({ product: "4945", receiver: newYork }))).rejects.toMatchObject({ status: 400, message: expect.stringContaining("customs declaration") });
    expect(server.requests).toHaveLength(0);
  });

  it("passes on PostNL's refusal of a customs line without a proper tariff code or origin", async () => {
    const incomplete = { ...customs, lines: [{ ...customs.lines[0]!, hsCode: "9102", originCountryCode: "" }] };
    const refused = globalPack().createLabel(request({ product: "4945", receiver: newYork, customs: incomplete }));
    await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining("HSTariffNr must be 6 to 10 digits") });
    await expect(refused).rejects.toMatchObject({ message: expect.stringContaining("CountryOfOrigin is invalid") });
  });
});
