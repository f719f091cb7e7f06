import { z } from "zod";
import { carrierHttp, oneOrMany } from "./carrier-http";
import { customsTextLines } from "./customs-text";
import { CarrierError, type CarrierAddress, type CarrierPort, type CustomsDeclaration, type Label, type LabelRequest, type TrackingEvent, type TrackingInfo } from "./port";

/**
 * The live PostNL adapter, on PostNL's Send & Track REST API (PROVIDERS.md section 3): a barcode from the Barcode
 * service, a confirmed label from Labelling v2_2 (`confirm=true`, so no separate Confirming call), and the parcel's
 * statuses from Shippingstatus v2. Every call carries the `apikey` header. There is no usable npm client.
 *
 * PostNL's JSON is converted from its XML services, which shows: a list of one is sometimes a bare object, an empty
 * element is `{}` rather than null, and times are Dutch local time as `dd-MM-yyyy HH:mm:ss`. The schemas below take
 * all of these.
 *
 * Voiding: PostNL has no cancel for a confirmed label. It charges a parcel when it first scans it, so a label whose
 * parcel was never handed over costs nothing and simply expires. `voidLabel` therefore asks the Shippingstatus
 * service whether PostNL has the parcel: if not, the label is dropped and nothing is owed; if it has, the void is
 * refused, because the parcel is on its way and will be charged.
 */

export type PostNLOptions = {
  apiKey: string;
  /** The contract's customer code (sandbox DEVC) and number (sandbox 11223344). */
  customerCode: string;
  customerNumber: string;
  /** https://api.postnl.nl, https://api-sandbox.postnl.nl, or a local stand-in. */
  baseUrl: string;
  /**
   * The GlobalPack barcode type ("CD") and customer code of the contract, which parcels outside the EU (product
   * 4945) need for their barcode; without them those labels are refused with a message saying so.
   */
  globalPack?: { barcodeType: string; customerCode: string };
  now?: () => Date;
};

/** Products for addresses outside the EU: their barcode comes from the GlobalPack range and they carry customs data. */
const globalPackProducts = new Set(["4945"]);
/** PostNL's EU parcel wants its track & trace option; PostNL's own plugin sends 101/012 with every 4907 as well. */
const productOptions: Record<string, { Characteristic: string; Option: string }[]> = {
  "4907": [
    { Characteristic: "005", Option: "025" },
    { Characteristic: "101", Option: "012" },
  ],
};

/** PostNL's public tracking page for a parcel: the barcode, the destination country and postcode. */
export function postnlTrackingUrl(barcode: string, receiver: { countryCode: string; postCode: string }): string {
  const postCode = receiver.postCode.replace(/\s+/g, "").toUpperCase();
  return `https://jouw.postnl.nl/track-and-trace/${encodeURIComponent(barcode)}-${receiver.countryCode.toUpperCase()}-${encodeURIComponent(postCode)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// PostNL's shapes

/** A text field: PostNL writes an empty one as `{}`. */
const text = z.preprocess((value) => (typeof value === "string" || typeof value === "number" ? String(value) : undefined), z.string().optional());

const codedText = z.object({ Code: text, Description: text, Message: text });
const barcodeResponse = z.object({ Barcode: z.string().min(1) });
const labelResponse = z.object({
  ResponseShipments: oneOrMany(
    z.object({
      Barcode: text,
      Errors: oneOrMany(codedText),
      Labels: oneOrMany(z.object({ Content: text, Labeltype: text, LabelType: text, OutputType: text })),
    }),
  ),
});
const status = z.object({ TimeStamp: text, StatusCode: text, StatusDescription: text, PhaseCode: text, PhaseDescription: text });
const statusShipment = z.object({ Barcode: text, Status: status.optional(), OldStatus: oneOrMany(status) });
const statusResponse = z.object({
  CurrentStatus: z.object({ Shipment: oneOrMany(statusShipment) }).optional(),
  CompleteStatus: z.object({ Shipment: oneOrMany(statusShipment) }).optional(),
  Warnings: oneOrMany(codedText),
});
type PostNLStatus = z.infer<typeof status>;

/** `{"Errors":[{Code, Description}]}` from the services, `{"fault":{"faultstring"}}` from PostNL's API gateway (401, 429). */
const errorDocument = z.object({
  Errors: oneOrMany(codedText).optional(),
  fault: z.object({ faultstring: text }).optional(),
});

function errorTexts(body: unknown): string[] {
  const parsed = errorDocument.safeParse(body);
  if (!parsed.success) return [];
  const texts = (parsed.data.Errors ?? []).map(describe);
  if (parsed.data.fault?.faultstring) texts.push(parsed.data.fault.faultstring);
  return texts;
}

const describe = (entry: z.infer<typeof codedText>) => [entry.Code && `${entry.Code}:`, entry.Description ?? entry.Message].filter(Boolean).join(" ");

// ---------------------------------------------------------------------------------------------------------------
// Dutch local time, which PostNL reads and writes

const amsterdamParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Amsterdam",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

function partsOf(date: Date): Record<string, string> {
  return Object.fromEntries(amsterdamParts.formatToParts(date).map((part) => [part.type, part.value]));
}

/** `dd-MM-yyyy HH:mm:ss` in Amsterdam, as PostNL's MessageTimeStamp wants it. */
export function postnlTimestamp(date: Date): string {
  const p = partsOf(date);
  return `${p.day}-${p.month}-${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** Reads PostNL's `dd-MM-yyyy HH:mm:ss[.fff]` (Amsterdam time); null when it is not one. */
export function parsePostnlTimestamp(value: string | undefined): Date | null {
  const match = value ? /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})/.exec(value) : null;
  if (!match) return null;
  const [, day, month, year, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // The wall-clock time read as UTC, shifted back by Amsterdam's offset at that moment (one hour, two in summer).
  const p = partsOf(new Date(asUtc));
  const offset = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - asUtc;
  return new Date(asUtc - offset);
}

// ---------------------------------------------------------------------------------------------------------------

/** "12a" → 12 and "a"; "263-1" → 263 and "1". PostNL wants the number alone and the rest as its extension. */
function splitHouseNumber(houseNumber: string): { HouseNr: string; HouseNrExt?: string } {
  const match = /^\s*(\d+)\s*[-/\s]?\s*(.*?)\s*$/.exec(houseNumber);
  if (!match) return { HouseNr: houseNumber.trim() };
  return match[2] ? { HouseNr: match[1]!, HouseNrExt: match[2] } : { HouseNr: match[1]! };
}

function postnlAddress(addressType: "01" | "02", address: CarrierAddress) {
  return {
    AddressType: addressType,
    Name: address.name,
    ...(address.companyName ? { CompanyName: address.companyName } : {}),
    Street: address.street,
    ...splitHouseNumber(address.houseNumber),
    ...(address.addressLine2 ? { Buildingname: address.addressLine2 } : {}),
    // PostNL reads Dutch postcodes without the space ("1016GV").
    Zipcode: address.countryCode.toUpperCase() === "NL" ? address.postCode.replace(/\s+/g, "").toUpperCase() : address.postCode,
    City: address.city,
    ...(address.stateCode ? { Region: address.stateCode } : {}),
    Countrycode: address.countryCode.toUpperCase(),
  };
}

function trackingStatusOf(current: PostNLStatus): TrackingInfo["status"] {
  if (current.PhaseCode === "4") return "delivered";
  // Status 1, "Zending voorgemeld": the label exists, PostNL has not seen the parcel.
  if (current.StatusCode === "1") return "pre_transit";
  if (current.PhaseCode === "1" || current.PhaseCode === "2" || current.PhaseCode === "3") return "in_transit";
  return "unknown";
}

/** Whether PostNL has scanned the parcel (anything past "pre-announced"). */
const scanned = (current: PostNLStatus | undefined) => current !== undefined && current.StatusCode !== "1";

/** PostNL's limit on a customs line's description. */
const DESCRIPTION_MAX = 35;

/**
 * The `Customs` block a GlobalPack parcel carries (Labelling v2_2, "Customs" and "Content" types): a sale of goods
 * under the shop's invoice, not to be abandoned when undeliverable but returned, and per line the description,
 * quantity, net weight in grams, value in euro, the 6-digit HS code and the country of origin.
 */
function postnlCustoms(customs: CustomsDeclaration) {
  return {
    ShipmentType: "Commercial Goods",
    Currency: customs.currency,
    HandleAsNonDeliverable: false,
    Invoice: true,
    InvoiceNr: customs.invoiceNumber,
    Certificate: false,
    License: false,
    Content: customs.lines.map((line) => ({
      Description: customsTextLines(line.description, DESCRIPTION_MAX, 1).join(""),
      Quantity: String(line.quantity),
      Weight: String(Math.max(1, Math.round(line.netWeightGrams))),
      Value: line.value.toFixed(2),
      HSTariffNr: line.hsCode,
      CountryOfOrigin: line.originCountryCode,
    })),
  };
}

export function createPostNLCarrier(options: PostNLOptions): CarrierPort {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const now = options.now ?? (() => new Date());
  const send = carrierHttp({ carrier: "POSTNL", credentials: "POSTNL_API_KEY", errorTexts });
  const headers = { apikey: options.apiKey, accept: "application/json" };
  const customer = { CustomerCode: options.customerCode, CustomerNumber: options.customerNumber };

  const get = (path: string, query: Record<string, string>) => send({ method: "GET", url: `${baseUrl}${path}?${new URLSearchParams(query)}`, headers });

  async function newBarcode(product: string): Promise<string> {
    let query: Record<string, string> = { ...customer, Type: "3S", Serie: "000000000-999999999" };
    if (globalPackProducts.has(product) && options.globalPack) {
      query = { ...customer, Type: options.globalPack.barcodeType, Range: options.globalPack.customerCode, Serie: "0000-9999" };
    }
    return barcodeResponse.parse(await get("/shipment/v1_1/barcode", query)).Barcode;
  }

  async function currentStatus(barcode: string, detail: boolean) {
    const body = statusResponse.parse(await get(`/shipment/v2/status/barcode/${encodeURIComponent(barcode)}`, { detail: String(detail), language: "EN" }));
    const shipments = (detail ? body.CompleteStatus : body.CurrentStatus)?.Shipment ?? [];
    return shipments.find((shipment) => shipment.Barcode === barcode) ?? shipments[0] ?? null;
  }

  function labelBody(request: LabelRequest, barcode: string) {
    const { receiver } = request;
    const contact = receiver.email || receiver.phoneNumber ? [{ ContactType: "01", ...(receiver.email ? { Email: receiver.email } : {}), ...(receiver.phoneNumber ? { SMSNr: receiver.phoneNumber } : {}) }] : [];
    return {
      Customer: { ...customer, Name: request.sender.companyName ?? request.sender.name, Email: request.sender.email ?? undefined, Address: postnlAddress("02", request.sender) },
      // PostNL has no idempotency key: the message id only traces a request. A retry makes a second label, which
      // costs nothing unless a parcel carrying it is handed over.
      Message: { MessageID: request.idempotencyKey, MessageTimeStamp: postnlTimestamp(now()), Printertype: "GraphicFile|PDF" },
      Shipments: [
        {
          Addresses: [postnlAddress("01", receiver)],
          Barcode: barcode,
          Contacts: contact,
          Dimension: { Weight: String(Math.max(1, Math.round(request.weightGrams))) },
          ProductCodeDelivery: request.product,
          ProductOptions: productOptions[request.product] ?? [],
          Reference: request.reference,
          ...(request.customs ? { Customs: postnlCustoms(request.customs) } : {}),
        },
      ],
    };
  }

  return {
    carrier: "POSTNL",
    kind: "live",

    /**
     * A Shippingstatus lookup of a barcode of the shop's own series that no label carries: a read that changes
     * nothing and costs nothing, refused with 401 for a wrong key. (The barcode service would use up a number, and
     * "updated shipments" would move PostNL's cursor for the tracking poll.)
     */
    async probe() {
      await currentStatus(`3S${options.customerCode}000000000`, false);
      return "PostNL accepted the API key";
    },

    async createLabel(request: LabelRequest): Promise<Label> {
      // Both are the shop's to put right, so PostNL is not asked for a barcode first.
      if (globalPackProducts.has(request.product) && !options.globalPack) {
        throw new CarrierError("POSTNL", 400, `PostNL parcels outside the EU (product ${request.product}) need the contract's GlobalPack barcode type and customer code, which are not configured.`);
      }
      if (globalPackProducts.has(request.product) && !request.customs) {
        throw new CarrierError("POSTNL", 400, `PostNL parcels outside the EU (product ${request.product}) need the parcel's customs declaration, which the request lacks.`);
      }
      const barcode = await newBarcode(request.product);
      const answer = labelResponse.parse(
        await send({
          method: "POST",
          url: `${baseUrl}/shipment/v2_2/label?confirm=true`,
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(labelBody(request, barcode)),
        }),
      );
      const shipment = answer.ResponseShipments[0];
      // PostNL can answer 200 with the refusal inside the shipment.
      if (!shipment || shipment.Errors.length > 0) {
        const why = shipment?.Errors.map(describe).join("; ") || "no shipment in the answer";
        throw new CarrierError("POSTNL", 400, `PostNL refused the label: ${why}`, answer);
      }
      const label = shipment.Labels.find((candidate) => (candidate.Labeltype ?? candidate.LabelType) === "Label") ?? shipment.Labels[0];
      const pdf = label?.Content ? Buffer.from(label.Content, "base64") : null;
      if (!pdf || pdf.subarray(0, 5).toString("latin1") !== "%PDF-") throw new CarrierError("POSTNL", 0, `PostNL sent no PDF label for ${barcode}; try again.`, answer);
      const trackingNumber = shipment.Barcode ?? barcode;
      // PostNL's label answer carries no price: the contract rate is on PostNL's invoice.
      return { trackingNumber, shipmentId: trackingNumber, pdf, cost: null };
    },

    async voidLabel(shipmentId: string): Promise<void> {
      const shipment = await currentStatus(shipmentId, false);
      if (!scanned(shipment?.Status)) return;
      const since = parsePostnlTimestamp(shipment?.Status?.TimeStamp);
      throw new CarrierError(
        "POSTNL",
        409,
        `PostNL already has parcel ${shipmentId} (${shipment?.Status?.StatusDescription ?? "scanned"}${since ? `, ${postnlTimestamp(since)}` : ""}): PostNL cannot cancel a label once it has scanned the parcel. Ask PostNL customer service to return it.`,
      );
    },

    async track(trackingNumber: string): Promise<TrackingInfo> {
      const shipment = await currentStatus(trackingNumber, true);
      if (!shipment?.Status) throw new CarrierError("POSTNL", 404, `PostNL knows no parcel ${trackingNumber}.`);
      const current = shipment.Status;
      const history = shipment.OldStatus.length > 0 ? shipment.OldStatus : [current];
      const events: TrackingEvent[] = history
        // 99 is PostNL's "not applicable" filler between real statuses.
        .filter((entry) => entry.StatusCode !== "99")
        .flatMap((entry) => {
          const at = parsePostnlTimestamp(entry.TimeStamp);
          return at ? [{ at, description: entry.StatusDescription ?? entry.PhaseDescription ?? "" }] : [];
        })
        .sort((a, b) => a.at.getTime() - b.at.getTime());
      const status = trackingStatusOf(current);
      return {
        trackingNumber,
        status,
        description: current.StatusDescription ?? current.PhaseDescription ?? "",
        events,
        deliveredAt: status === "delivered" ? parsePostnlTimestamp(current.TimeStamp) : null,
      };
    },

    trackingUrl: postnlTrackingUrl,
  };
}
