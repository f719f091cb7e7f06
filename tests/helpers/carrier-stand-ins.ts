import sharp from "sharp";
import { createPdf, pdfBuffer } from "@/server/documents/pdf";
import { startProviderServer, type ProviderAnswer, type ProviderServer, type ReceivedRequest } from "./provider-server";

/**
 * Local stand-ins for the carriers' APIs, answering in their documented shapes (PROVIDERS.md sections 3 and 4), for
 * the live adapters' tests. A test moves a parcel along (scans, delivery) through the stand-in's own methods.
 */

// ---------------------------------------------------------------------------------------------------------------
// PostNL Send & Track: Barcode v1_1, Labelling v2_2, Shippingstatus v2; `{"Errors":[{Code, Description}]}` from the
// services and `{"fault":{...}}` from the API gateway (invalid key, rate limit).

export const postnlCredentials = { apiKey: "postnl-test-key-2f1c", customerCode: "DEVC", customerNumber: "11223344" };
/** The contract's GlobalPack barcode type and customer code, for parcels outside the EU (product 4945). */
export const postnlGlobalPack = { barcodeType: "CD", customerCode: "1234" };

/** The EU's member states: PostNL's EU product goes only there, its GlobalPack product only elsewhere, as do UPS's exports. */
const euMembers = new Set(["AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"]);

/** A UPU S10 item number (2 letters, 8 digits, a check digit, the country), as GlobalPack barcodes are. */
function s10(prefix: string, serial: number): string {
  const digits = String(serial % 100_000_000).padStart(8, "0");
  const sum = [8, 6, 4, 2, 3, 5, 9, 7].reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  const check = 11 - (sum % 11);
  return `${prefix}${digits}${check === 10 ? 0 : check === 11 ? 5 : check}NL`;
}

type PostNLContent = { Description?: string; Quantity?: string; Weight?: string; Value?: string; HSTariffNr?: string; CountryOfOrigin?: string };
type PostNLCustoms = { ShipmentType?: string; Currency?: string; Invoice?: boolean; InvoiceNr?: string; Certificate?: boolean; License?: boolean; HandleAsNonDeliverable?: boolean; Content?: PostNLContent[] };

/** What PostNL's Labelling service says of a GlobalPack parcel's customs data, or null when it takes it. */
function postnlCustomsErrors(customs: PostNLCustoms | undefined): { Code: string; Description: string }[] {
  if (!customs) return [{ Code: "44", Description: "Customs is mandatory for a shipment outside the EU" }];
  const errors: { Code: string; Description: string }[] = [];
  if (!["Gift", "Documents", "Commercial Goods", "Commercial Sample", "Returned Goods"].includes(customs.ShipmentType ?? "")) errors.push({ Code: "45", Description: `ShipmentType ${customs.ShipmentType} is invalid` });
  if (!["EUR", "USD", "GBP"].includes(customs.Currency ?? "")) errors.push({ Code: "46", Description: `Currency ${customs.Currency} is invalid` });
  if (typeof customs.HandleAsNonDeliverable !== "boolean") errors.push({ Code: "47", Description: "HandleAsNonDeliverable is mandatory" });
  if (customs.ShipmentType === "Commercial Goods" && !(customs.Invoice && customs.InvoiceNr) && !customs.Certificate && !customs.License) {
    errors.push({ Code: "48", Description: "Commercial Goods need an invoice (Invoice true and InvoiceNr), a certificate or a license" });
  }
  const content = customs.Content ?? [];
  if (content.length === 0 || content.length > 5) errors.push({ Code: "49", Description: "Content must hold 1 to 5 lines" });
  content.forEach((line, index) => {
    const where = `Content[${index}]`;
    if (!line.Description || line.Description.length > 35) errors.push({ Code: "50", Description: `${where}.Description is mandatory, at most 35 characters` });
    if (!/^[1-9]\d*$/.test(line.Quantity ?? "")) errors.push({ Code: "53", Description: `${where}.Quantity is invalid` });
    if (!/^[1-9]\d*$/.test(line.Weight ?? "")) errors.push({ Code: "54", Description: `${where}.Weight (grams) is invalid` });
    if (!/^\d+(\.\d{1,2})?$/.test(line.Value ?? "") || Number(line.Value) <= 0) errors.push({ Code: "55", Description: `${where}.Value is invalid` });
    if (!/^\d{6,10}$/.test(line.HSTariffNr ?? "")) errors.push({ Code: "56", Description: `${where}.HSTariffNr must be 6 to 10 digits` });
    if (!/^[A-Z]{2}$/.test(line.CountryOfOrigin ?? "")) errors.push({ Code: "57", Description: `${where}.CountryOfOrigin is invalid` });
  });
  return errors;
}

export type PostNLStatusEntry = { TimeStamp: string; StatusCode: string; StatusDescription: string; PhaseCode: string; PhaseDescription: string };

export type PostNLStandIn = ProviderServer & {
  /** Every parcel labelled, by barcode, with its statuses oldest first. */
  parcels: Map<string, { product: string; statuses: PostNLStatusEntry[] }>;
  /** Adds a status to a parcel, as PostNL's scanners do. */
  scan: (barcode: string, entry: PostNLStatusEntry) => void;
  /** Makes every following request answer 429, as PostNL's gateway does over the quota. */
  rateLimited: { value: boolean };
};

const postnlErrors = (status: number, errors: { Code: string; Description: string }[]): ProviderAnswer => ({ status, body: { Errors: errors } });
const postnlFault = (status: number, faultstring: string, errorcode: string): ProviderAnswer => ({ status, body: { fault: { faultstring, detail: { errorcode } } } });

/** The products the stand-in knows; anything else is refused as PostNL refuses an unknown product code. */
const postnlProducts = new Set(["2928", "3085", "3189", "3385", "4907", "4945"]);

async function labelPdf(text: string): Promise<Buffer> {
  const doc = createPdf({ size: "A6" });
  doc.fontSize(14).text(text);
  return pdfBuffer(doc);
}

export async function startPostNLStandIn(): Promise<PostNLStandIn> {
  const parcels: PostNLStandIn["parcels"] = new Map();
  const rateLimited = { value: false };
  let nextSerial = 100_000_001;
  let nextGlobalPack = 1_001;

  const statusShipment = (barcode: string, parcel: { product: string; statuses: PostNLStatusEntry[] }, detail: boolean) => ({
    MainBarcode: barcode,
    Barcode: barcode,
    ShipmentAmount: "1",
    ShipmentCounter: "1",
    Customer: { CustomerCode: postnlCredentials.customerCode, CustomerNumber: postnlCredentials.customerNumber, Name: "Balance & Crown" },
    ProductCode: `00${parcel.product}`,
    Reference: "1001",
    Status: parcel.statuses.at(-1),
    // PostNL lists old statuses newest first, with its "not applicable" filler between them.
    ...(detail
      ? { OldStatus: [...parcel.statuses].reverse().flatMap((entry) => [entry, { TimeStamp: entry.TimeStamp, StatusCode: "99", StatusDescription: "Not applicable", PhaseCode: "99", PhaseDescription: "Not applicable" }]) }
      : {}),
  });

  const handle = async (request: ReceivedRequest): Promise<ProviderAnswer> => {
    if (request.headers.apikey !== postnlCredentials.apiKey) return postnlFault(401, "Invalid ApiKey", "oauth.v2.InvalidApiKey");
    if (rateLimited.value) return postnlFault(429, "Rate limit quota violation. Quota limit exceeded.", "policies.ratelimit.QuotaViolation");

    if (request.method === "GET" && request.path === "/shipment/v1_1/barcode") {
      const { CustomerCode, CustomerNumber, Type, Serie } = Object.fromEntries(request.query);
      if (CustomerCode !== postnlCredentials.customerCode || CustomerNumber !== postnlCredentials.customerNumber) {
        return postnlErrors(400, [{ Code: "13", Description: "Combination of CustomerCode and CustomerNumber is invalid" }]);
      }
      if (Type === postnlGlobalPack.barcodeType) {
        const { Range } = Object.fromEntries(request.query);
        if (Range !== postnlGlobalPack.customerCode || Serie !== "0000-9999") return postnlErrors(400, [{ Code: "2", Description: `Invalid GlobalPack range or serie (${Range}, ${Serie})` }]);
        return { status: 200, body: { Barcode: s10(Type, nextGlobalPack++) } };
      }
      if (Type !== "3S" || Serie !== "000000000-999999999") return postnlErrors(400, [{ Code: "2", Description: `Invalid barcode type or serie (${Type}, ${Serie})` }]);
      return { status: 200, body: { Barcode: `3S${CustomerCode}${nextSerial++}` } };
    }

    if (request.method === "POST" && request.path === "/shipment/v2_2/label") {
      if (request.query.get("confirm") !== "true") return postnlErrors(400, [{ Code: "1", Description: "The stand-in only confirms labels at once" }]);
      const body = request.json as {
        Customer: { CustomerCode: string; CustomerNumber: string };
        Message: { Printertype: string };
        Shipments: { Barcode: string; ProductCodeDelivery: string; Customs?: PostNLCustoms; Addresses: { AddressType: string; Zipcode: string; Countrycode: string; HouseNr: string }[] }[];
      };
      const shipment = body.Shipments[0]!;
      const receiver = shipment.Addresses.find((address) => address.AddressType === "01");
      if (!receiver) return postnlErrors(400, [{ Code: "8", Description: "Receiver address (AddressType 01) is missing" }]);
      if (receiver.Countrycode === "NL" && !/^\d{4}[A-Z]{2}$/.test(receiver.Zipcode)) return postnlErrors(400, [{ Code: "51", Description: `Zipcode ${receiver.Zipcode} is invalid` }]);
      if (!/^\d+$/.test(receiver.HouseNr)) return postnlErrors(400, [{ Code: "52", Description: `HouseNr ${receiver.HouseNr} is not a number` }]);
      if (shipment.ProductCodeDelivery === "4905") {
        // PostNL answers some refusals with 200 and the error inside the shipment (seen for Direct Infeed products).
        return {
          status: 200,
          body: { MergedLabels: [], ResponseShipments: [{ Barcode: shipment.Barcode, Errors: [{ Code: "111", Description: "No label available, Direct Infeed" }], Warnings: [], Labels: [], ProductCodeDelivery: "4905" }] },
        };
      }
      if (!postnlProducts.has(shipment.ProductCodeDelivery)) return postnlErrors(400, [{ Code: "4", Description: `ProductCodeDelivery ${shipment.ProductCodeDelivery} is invalid` }]);
      if (shipment.ProductCodeDelivery === "4945") {
        if (euMembers.has(receiver.Countrycode)) return postnlErrors(400, [{ Code: "42", Description: `ProductCodeDelivery 4945 is not allowed to ${receiver.Countrycode}: use a Parcels EU product` }]);
        if (!shipment.Barcode.startsWith(postnlGlobalPack.barcodeType)) return postnlErrors(400, [{ Code: "43", Description: `Barcode ${shipment.Barcode} is not a GlobalPack barcode` }]);
        const errors = postnlCustomsErrors(shipment.Customs);
        if (errors.length > 0) return postnlErrors(400, errors);
      } else if (!euMembers.has(receiver.Countrycode)) {
        return postnlErrors(400, [{ Code: "42", Description: `ProductCodeDelivery ${shipment.ProductCodeDelivery} is not allowed to ${receiver.Countrycode}` }]);
      }
      if (body.Message.Printertype !== "GraphicFile|PDF") return postnlErrors(400, [{ Code: "9", Description: "The stand-in prints PDF only" }]);
      parcels.set(shipment.Barcode, {
        product: shipment.ProductCodeDelivery,
        statuses: [{ TimeStamp: "04-03-2026 10:00:12", StatusCode: "1", StatusDescription: "Shipment pre-alerted", PhaseCode: "1", PhaseDescription: "Collection" }],
      });
      const pdf = await labelPdf(`PostNL ${shipment.ProductCodeDelivery} ${shipment.Barcode}`);
      return {
        status: 200,
        body: {
          MergedLabels: [],
          // One shipment comes back as a bare object, as PostNL's XML-born JSON does.
          ResponseShipments: { Barcode: shipment.Barcode, ProductCodeDelivery: shipment.ProductCodeDelivery, Labels: { Content: pdf.toString("base64"), Labeltype: "Label", OutputType: "PDF" }, Errors: [], Warnings: [] },
        },
      };
    }

    const statusMatch = /^\/shipment\/v2\/status\/barcode\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && statusMatch) {
      const barcode = decodeURIComponent(statusMatch[1]!);
      const detail = request.query.get("detail") === "true";
      const key = detail ? "CompleteStatus" : "CurrentStatus";
      const parcel = parcels.get(barcode);
      if (!parcel) return { status: 200, body: { [key]: {}, Warnings: [{ Message: "No shipment found", Code: "2" }] } };
      return { status: 200, body: { [key]: { Shipment: statusShipment(barcode, parcel, detail) } } };
    }
    return postnlErrors(404, [{ Code: "0", Description: `No such endpoint in the stand-in: ${request.method} ${request.path}` }]);
  };

  const server = await startProviderServer(handle);
  return {
    ...server,
    parcels,
    rateLimited,
    scan: (barcode, entry) => parcels.get(barcode)!.statuses.push(entry),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// UPS: OAuth client credentials, Shipping v2409 (ship, void), Track v1; `{"response":{"errors":[{code, message}]}}`.

export const upsCredentials = { clientId: "ups-client-7Hq2", clientSecret: "ups-secret-Zk41", accountNumber: "A1B2C3" };

export type UpsStandIn = ProviderServer & {
  /** Labels bought, by shipment id. */
  shipments: Map<string, { trackingNumber: string; voided: boolean; pickedUp: boolean; activities: UpsActivity[] }>;
  tokensIssued: () => number;
  /** What `expires_in` says on the next tokens, in seconds. */
  tokenLifetimeSeconds: { value: number };
  /** Ends every token issued so far, as UPS does when one expires: requests with it get 401. */
  expireTokens: () => void;
  /** Adds a tracking activity to a parcel (newest last here; UPS lists them newest first). */
  addActivity: (trackingNumber: string, activity: UpsActivity) => void;
  rateLimited: { value: boolean };
};

export type UpsActivity = { type: string; code: string; description: string; gmtDate: string; gmtTime: string; city?: string; countryCode?: string };

const upsError = (status: number, code: string, message: string): ProviderAnswer => ({ status, body: { response: { errors: [{ code, message }] } } });
const upsServices = new Set(["07", "11", "65"]);

type UpsProduct = { Description?: string[] | string; Unit?: { Number?: string; Value?: string; UnitOfMeasurement?: { Code?: string } }; CommodityCode?: string; OriginCountryCode?: string };
type UpsInternationalForms = { FormType?: string | string[]; InvoiceNumber?: string; InvoiceDate?: string; ReasonForExport?: string; CurrencyCode?: string; Contacts?: { SoldTo?: { Name?: string; Address?: unknown } }; Product?: UpsProduct[] };

/**
 * What UPS's Shipping API says of an export's paperwork (an EU shipper to a country outside the EU): the shipment's
 * description, and the invoice form (FormType 01) with its number, date, reason, currency, sold-to party and 1 to 50
 * products each with description, unit (number, value, measure), commodity code and origin. Null when it is taken.
 */
function upsExportError(description: string | undefined, forms: UpsInternationalForms | undefined): ProviderAnswer | null {
  if (!description?.trim()) return upsError(400, "120416", "A shipment description is required for international shipments.");
  const formTypes = [forms?.FormType ?? []].flat();
  if (!forms || !formTypes.includes("01")) return upsError(400, "120420", "An invoice (InternationalForms FormType 01) is required for this shipment.");
  if (!forms.InvoiceNumber) return upsError(400, "120426", "Missing InvoiceNumber.");
  if (!/^\d{8}$/.test(forms.InvoiceDate ?? "")) return upsError(400, "120427", "Missing or invalid InvoiceDate (YYYYMMDD).");
  if (!["SALE", "GIFT", "SAMPLE", "RETURN", "REPAIR", "INTERCOMPANYDATA"].includes(forms.ReasonForExport ?? "")) return upsError(400, "120428", "Missing or invalid ReasonForExport.");
  if (!/^[A-Z]{3}$/.test(forms.CurrencyCode ?? "")) return upsError(400, "120429", "Missing or invalid CurrencyCode.");
  if (!forms.Contacts?.SoldTo?.Name || !forms.Contacts.SoldTo.Address) return upsError(400, "120430", "SoldTo is required for an invoice.");
  const products = forms.Product ?? [];
  if (products.length < 1 || products.length > 50) return upsError(400, "120431", "An invoice needs 1 to 50 products.");
  for (const [index, product] of products.entries()) {
    const lines = [product.Description ?? []].flat();
    if (lines.length === 0 || lines.length > 3 || lines.some((line) => !line || line.length > 35)) return upsError(400, "120432", `Product ${index + 1}: Description is required (up to 3 lines of 35 characters).`);
    if (!/^[1-9]\d*$/.test(product.Unit?.Number ?? "") || !/^\d+(\.\d{1,6})?$/.test(product.Unit?.Value ?? "") || !product.Unit?.UnitOfMeasurement?.Code) {
      return upsError(400, "120433", `Product ${index + 1}: Unit Number, Value and UnitOfMeasurement are required.`);
    }
    if (!/^\d{6,15}$/.test(product.CommodityCode ?? "")) return upsError(400, "120434", `Product ${index + 1}: CommodityCode must be 6 to 15 digits.`);
    if (!/^[A-Z]{2}$/.test(product.OriginCountryCode ?? "")) return upsError(400, "120435", `Product ${index + 1}: OriginCountryCode is required.`);
  }
  return null;
}

/** A landscape GIF like the ones UPS sends (the 4x6 label lying on its side). */
async function upsGif(trackingNumber: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="800" fill="white"/><text x="40" y="120" font-size="80" font-family="sans-serif">UPS ${trackingNumber}</text></svg>`;
  return sharp(Buffer.from(svg)).gif().toBuffer();
}

export async function startUpsStandIn(): Promise<UpsStandIn> {
  const shipments: UpsStandIn["shipments"] = new Map();
  const validTokens = new Set<string>();
  const tokenLifetimeSeconds = { value: 3600 };
  const rateLimited = { value: false };
  let tokensIssued = 0;
  let nextShipment = 10_000_001;

  const packageOf = (trackingNumber: string) => [...shipments.values()].find((shipment) => shipment.trackingNumber === trackingNumber);

  const handle = async (request: ReceivedRequest): Promise<ProviderAnswer> => {
    if (rateLimited.value) return upsError(429, "10429", "Too Many Requests");
    if (request.method === "POST" && request.path === "/security/v1/oauth/token") {
      const expected = `Basic ${Buffer.from(`${upsCredentials.clientId}:${upsCredentials.clientSecret}`).toString("base64")}`;
      if (request.headers.authorization !== expected) return upsError(401, "10401", "ClientId is Invalid");
      if (request.body !== "grant_type=client_credentials") return upsError(400, "10400", "Invalid/Missing grant_type");
      tokensIssued++;
      const token = `ups-access-${tokensIssued}`;
      validTokens.add(token);
      return {
        status: 200,
        body: { token_type: "Bearer", issued_at: String(Date.now()), client_id: upsCredentials.clientId, access_token: token, expires_in: String(tokenLifetimeSeconds.value), refresh_count: "0", status: "approved" },
      };
    }

    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1];
    if (!bearer || !validTokens.has(bearer)) return upsError(401, "250002", "Invalid Authentication Information.");
    const transId = String(request.headers.transid ?? "");
    if (!transId || transId.length > 32 || !request.headers.transactionsrc) return upsError(400, "TV0001", "Missing or invalid transId or transactionSrc header");

    if (request.method === "POST" && request.path === "/api/shipments/v2409/ship") {
      const body = request.json as {
        ShipmentRequest: {
          Shipment: {
            Description?: string;
            Shipper: { ShipperNumber: string; Address: { CountryCode: string } };
            ShipTo: { Address: { CountryCode: string } };
            ShipmentServiceOptions?: { InternationalForms?: UpsInternationalForms };
            Service: { Code: string };
            Package: { PackageWeight: { UnitOfMeasurement: { Code: string }; Weight: string } }[];
          };
          LabelSpecification: { LabelImageFormat: { Code: string } };
        };
      };
      const { Shipment, LabelSpecification } = body.ShipmentRequest;
      if (Shipment.Shipper.ShipperNumber !== upsCredentials.accountNumber) return upsError(400, "120100", "Missing or invalid shipper number");
      if (!upsServices.has(Shipment.Service.Code)) return upsError(400, "121210", `The requested service ${Shipment.Service.Code} is unavailable between the selected locations.`);
      const weight = Shipment.Package[0]!.PackageWeight;
      if (weight.UnitOfMeasurement.Code !== "KGS" || Number(weight.Weight) > 70) return upsError(400, "120540", "Package weight exceeds the maximum for the service.");
      if (euMembers.has(Shipment.Shipper.Address.CountryCode) && !euMembers.has(Shipment.ShipTo.Address.CountryCode)) {
        const refused = upsExportError(Shipment.Description, Shipment.ShipmentServiceOptions?.InternationalForms);
        if (refused) return refused;
      }
      if (LabelSpecification.LabelImageFormat.Code !== "GIF") return upsError(400, "120700", "The stand-in prints GIF only");
      const serial = nextShipment++;
      const shipmentId = `1Z${upsCredentials.accountNumber}${Shipment.Service.Code}${serial}`;
      shipments.set(shipmentId, { trackingNumber: shipmentId, voided: false, pickedUp: false, activities: [] });
      const gif = await upsGif(shipmentId);
      return {
        status: 200,
        body: {
          ShipmentResponse: {
            Response: { ResponseStatus: { Code: "1", Description: "Success" }, TransactionReference: { CustomerContext: "1001" } },
            ShipmentResults: {
              ShipmentCharges: { TransportationCharges: { CurrencyCode: "EUR", MonetaryValue: "21.40" }, ServiceOptionsCharges: { CurrencyCode: "EUR", MonetaryValue: "0.00" }, TotalCharges: { CurrencyCode: "EUR", MonetaryValue: "21.40" } },
              NegotiatedRateCharges: { TotalCharge: { CurrencyCode: "EUR", MonetaryValue: "18.15" } },
              BillingWeight: { UnitOfMeasurement: { Code: "KGS", Description: "Kilograms" }, Weight: weight.Weight },
              ShipmentIdentificationNumber: shipmentId,
              // One package comes back as a bare object, as UPS does.
              PackageResults: { TrackingNumber: shipmentId, ServiceOptionsCharges: { CurrencyCode: "EUR", MonetaryValue: "0.00" }, ShippingLabel: { ImageFormat: { Code: "GIF", Description: "GIF" }, GraphicImage: gif.toString("base64") } },
            },
          },
        },
      };
    }

    const voidMatch = /^\/api\/shipments\/v2409\/void\/cancel\/([^/]+)$/.exec(request.path);
    if (request.method === "DELETE" && voidMatch) {
      const shipment = shipments.get(decodeURIComponent(voidMatch[1]!));
      if (!shipment) return upsError(400, "190100", "Invalid shipment identification number");
      if (shipment.voided) return upsError(400, "190117", "The shipment has already been voided");
      if (shipment.pickedUp) return upsError(400, "190102", "No shipment found within the allowed void period");
      shipment.voided = true;
      return {
        status: 200,
        body: { VoidShipmentResponse: { Response: { ResponseStatus: { Code: "1", Description: "Success" } }, SummaryResult: { Status: { Code: "1", Description: "Voided" } } } },
      };
    }

    const trackMatch = /^\/api\/track\/v1\/details\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && trackMatch) {
      const trackingNumber = decodeURIComponent(trackMatch[1]!);
      const shipment = packageOf(trackingNumber);
      if (!shipment) return upsError(404, "TW0001", "Tracking Information Not Found");
      const activities = [...shipment.activities].reverse().map((activity) => ({
        location: { address: { city: activity.city ?? "", countryCode: activity.countryCode ?? "", country: activity.countryCode ?? "" } },
        status: { type: activity.type, description: activity.description, code: activity.code, statusCode: "003" },
        date: activity.gmtDate,
        time: activity.gmtTime,
        gmtDate: activity.gmtDate,
        gmtOffset: "+00:00",
        gmtTime: activity.gmtTime,
      }));
      const current = activities[0]?.status ?? { type: "M", description: "Shipper created a label, UPS has not received the package yet.", code: "MP", statusCode: "003" };
      return {
        status: 200,
        body: {
          trackResponse: {
            shipment: [
              {
                inquiryNumber: trackingNumber,
                package: [
                  {
                    trackingNumber,
                    currentStatus: { description: current.description, code: current.code, type: current.type },
                    activity: activities,
                    ...(current.type === "D" ? { deliveryDate: [{ type: "DEL", date: shipment.activities.at(-1)!.gmtDate }] } : {}),
                    packageCount: 1,
                  },
                ],
              },
            ],
          },
        },
      };
    }
    return upsError(404, "0", `No such endpoint in the stand-in: ${request.method} ${request.path}`);
  };

  const server = await startProviderServer(handle);
  return {
    ...server,
    shipments,
    tokenLifetimeSeconds,
    rateLimited,
    tokensIssued: () => tokensIssued,
    expireTokens: () => validTokens.clear(),
    addActivity: (trackingNumber, activity) => {
      const shipment = packageOf(trackingNumber)!;
      shipment.activities.push(activity);
      if (activity.type !== "M") shipment.pickedUp = true;
    },
  };
}
