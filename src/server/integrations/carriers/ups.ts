import { randomUUID } from "node:crypto";
import { Decimal } from "decimal.js";
import sharp from "sharp";
import { z } from "zod";
import { createPdf, pageSizes, pdfBuffer } from "@/server/documents/pdf";
import { carrierHttp, oneOrMany, type CarrierRequest } from "./carrier-http";
import { internationalForms } from "./ups-customs";
import { CarrierError, type CarrierAddress, type CarrierPort, type Label, type LabelRequest, type TrackingEvent, type TrackingInfo } from "./port";

/**
 * The live UPS adapter, on UPS's REST APIs (PROVIDERS.md section 4): OAuth client credentials, Shipping v2409 (ship
 * and void) and Track v1. The only official TypeScript SDK is published outside the npm registry and covers OAuth
 * alone, so this is our own small client.
 *
 * The access token lives in this process's memory, not in `config_params.UPS_ACCESS_TOKEN`: UPS hands out client
 * credentials tokens freely (no refresh token, no limit that a few instances asking once an hour come near), so
 * sharing one buys nothing, while a token in the database is one more secret at rest and a write on every renewal.
 * Each instance asks for its own when it first needs one, and again `expires_in` seconds later (minus a margin).
 */

export type UpsOptions = {
  clientId: string;
  clientSecret: string;
  /** The shipper number labels are billed to. */
  accountNumber: string;
  /** https://onlinetools.ups.com, https://wwwcie.ups.com (UPS's test environment), or a local stand-in. */
  baseUrl: string;
  now?: () => Date;
};

/** A token is renewed this long before UPS says it expires, so that no request leaves with a dying token. */
export const upsTokenMarginMs = 60_000;
/** Sent as `transactionSrc` on every call, so UPS support can find the shop's requests. */
const transactionSource = "balance-and-crown";

/** UPS's public tracking page for a parcel. */
export function upsTrackingUrl(trackingNumber: string): string {
  return `https://www.ups.com/track?tracknum=${encodeURIComponent(trackingNumber)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// UPS's shapes

const tokenResponse = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });
const money = z.object({ CurrencyCode: z.string(), MonetaryValue: z.string() });
const shipResponse = z.object({
  ShipmentResponse: z.object({
    ShipmentResults: z.object({
      ShipmentIdentificationNumber: z.string(),
      ShipmentCharges: z.object({ TotalCharges: money.optional() }).optional(),
      NegotiatedRateCharges: z.object({ TotalCharge: money.optional() }).optional(),
      PackageResults: oneOrMany(z.object({ TrackingNumber: z.string(), ShippingLabel: z.object({ GraphicImage: z.string() }) })),
    }),
  }),
});
const voidResponse = z.object({ VoidShipmentResponse: z.object({ SummaryResult: z.object({ Status: z.object({ Code: z.string(), Description: z.string().optional() }) }) }) });
const activityStatus = z.object({ type: z.string().optional(), code: z.string().optional(), description: z.string().optional() });
const activity = z.object({
  date: z.string().optional(),
  time: z.string().optional(),
  gmtDate: z.string().optional(),
  gmtTime: z.string().optional(),
  location: z.object({ address: z.object({ city: z.string().optional(), countryCode: z.string().optional() }).optional() }).optional(),
  status: activityStatus.optional(),
});
const trackResponse = z.object({
  trackResponse: z.object({
    shipment: z.array(
      z.object({
        package: z
          .array(
            z.object({
              trackingNumber: z.string().optional(),
              currentStatus: activityStatus.optional(),
              activity: z.array(activity).optional(),
              deliveryDate: z.array(z.object({ type: z.string().optional(), date: z.string().optional() })).optional(),
              deliveryTime: z.object({ type: z.string().optional(), endTime: z.string().optional() }).optional(),
            }),
          )
          .optional(),
        warnings: z.array(z.object({ code: z.string().optional(), message: z.string().optional() })).optional(),
      }),
    ),
  }),
});
type UpsActivity = z.infer<typeof activity>;

const errorDocument = z.object({ response: z.object({ errors: z.array(z.object({ code: z.string().optional(), message: z.string().optional() })) }) });

function errorTexts(body: unknown): string[] {
  const parsed = errorDocument.safeParse(body);
  if (!parsed.success) return [];
  return parsed.data.response.errors.map((error) => [error.message, error.code && `(${error.code})`].filter(Boolean).join(" "));
}

// ---------------------------------------------------------------------------------------------------------------

/** UPS's activity types: M manifest (label made), I in transit, P pickup, O out for delivery, D delivered, X exception, RS returned to shipper. */
function trackingStatusOf(type: string | undefined): TrackingInfo["status"] {
  switch (type) {
    case "M":
    case "MV":
      return "pre_transit";
    case "I":
    case "P":
    case "O":
    case "DO":
    case "DD":
      return "in_transit";
    case "D":
      return "delivered";
    case "X":
    case "RS":
      return "exception";
    default:
      return "unknown";
  }
}

/** UPS's `YYYYMMDD` and `HHMMSS` (GMT when the `gmt*` fields are there; its leading zero is sometimes missing). */
function upsTime(date: string | undefined, time: string | undefined): Date | null {
  if (!date || !/^\d{8}$/.test(date)) return null;
  const clock = (time ?? "000000").padStart(6, "0");
  const at = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${clock.slice(0, 2)}:${clock.slice(2, 4)}:${clock.slice(4, 6)}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

const activityTime = (entry: UpsActivity) => upsTime(entry.gmtDate ?? entry.date, entry.gmtDate ? entry.gmtTime : entry.time);

function upsAddress(address: CarrierAddress) {
  const lines = [`${address.street} ${address.houseNumber}`.trim(), address.addressLine2].filter((line): line is string => Boolean(line));
  return {
    AddressLine: lines,
    City: address.city,
    ...(address.stateCode ? { StateProvinceCode: address.stateCode } : {}),
    PostalCode: address.postCode,
    CountryCode: address.countryCode.toUpperCase(),
  };
}

// UPS allows 35 characters in a name.
const upsName = (value: string) => value.slice(0, 35);

function party(address: CarrierAddress) {
  return {
    Name: upsName(address.companyName || address.name),
    AttentionName: upsName(address.name),
    ...(address.phoneNumber ? { Phone: { Number: address.phoneNumber } } : {}),
    ...(address.email ? { EMailAddress: address.email } : {}),
    Address: upsAddress(address),
  };
}

/**
 * A UPS GIF label as a one-page 4x6 inch PDF. UPS sends the label lying on its side (wider than tall); it is turned
 * upright and fitted to the page. PDF libraries embed PNG and JPEG, not GIF, hence sharp.
 */
export async function upsLabelPdf(gif: Buffer): Promise<Buffer> {
  const image = sharp(gif);
  const { width = 0, height = 0 } = await image.metadata();
  const png = await (width > height ? image.rotate(90) : image).png().toBuffer();
  const [pageWidth, pageHeight] = pageSizes.label4x6;
  const doc = createPdf({ size: [pageWidth, pageHeight], margin: 0, info: { Title: "UPS label" } });
  doc.image(png, 0, 0, { fit: [pageWidth, pageHeight], align: "center", valign: "center" });
  return pdfBuffer(doc);
}

export function createUpsCarrier(options: UpsOptions): CarrierPort {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const now = options.now ?? (() => new Date());
  const send = carrierHttp({ carrier: "UPS", credentials: "UPS_CLIENT_ID and UPS_CLIENT_SECRET", errorTexts });
  // One token for the process, shared by concurrent requests.
  let token: { value: string; renewAt: number } | null = null;
  let pendingToken: Promise<string> | null = null;

  function accessToken(): Promise<string> {
    if (token && token.renewAt > now().getTime()) return Promise.resolve(token.value);
    pendingToken ??= (async () => {
      try {
        const answer = tokenResponse.parse(
          await send({
            method: "POST",
            url: `${baseUrl}/security/v1/oauth/token`,
            headers: {
              authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`,
              "content-type": "application/x-www-form-urlencoded",
              "x-merchant-id": options.accountNumber,
              accept: "application/json",
            },
            body: "grant_type=client_credentials",
          }),
        );
        const lifetimeMs = answer.expires_in * 1000;
        // A margin no longer than half the lifetime, so a short-lived token is still used.
        token = { value: answer.access_token, renewAt: now().getTime() + lifetimeMs - Math.min(upsTokenMarginMs, lifetimeMs / 2) };
        return answer.access_token;
      } finally {
        pendingToken = null;
      }
    })();
    return pendingToken;
  }

  /** Calls the API with the current token; a 401 (the token expired early or was revoked) gets a new token and one retry. */
  async function api(request: Omit<CarrierRequest, "headers" | "url"> & { path: string }): Promise<unknown> {
    const call = (bearer: string) =>
      send({
        method: request.method,
        url: `${baseUrl}${request.path}`,
        body: request.body,
        headers: {
          authorization: `Bearer ${bearer}`,
          transId: randomUUID().replace(/-/g, ""),
          transactionSrc: transactionSource,
          accept: "application/json",
          ...(request.body ? { "content-type": "application/json" } : {}),
        },
      });
    const bearer = await accessToken();
    try {
      return await call(bearer);
    } catch (error) {
      if (!(error instanceof CarrierError) || error.status !== 401) throw error;
      // Dropped unless a concurrent request has already replaced it.
      if (token?.value === bearer) token = null;
      return call(await accessToken());
    }
  }

  function shipmentRequest(request: LabelRequest) {
    const kilograms = Math.max(0.1, Math.round(request.weightGrams / 100) / 10);
    return {
      ShipmentRequest: {
        Request: { RequestOption: "nonvalidate", TransactionReference: { CustomerContext: request.reference } },
        Shipment: {
          Description: "Watches and watch parts",
          Shipper: { ...party(request.sender), ShipperNumber: options.accountNumber },
          ShipFrom: party(request.sender),
          ShipTo: party(request.receiver),
          PaymentInformation: { ShipmentCharge: [{ Type: "01", BillShipper: { AccountNumber: options.accountNumber } }] },
          Service: { Code: request.product },
          ShipmentRatingOptions: { NegotiatedRatesIndicator: "Y" },
          ...(request.customs ? { ShipmentServiceOptions: { InternationalForms: internationalForms(request.customs, party(request.receiver)) } } : {}),
          Package: [
            {
              Packaging: { Code: "02" },
              PackageWeight: { UnitOfMeasurement: { Code: "KGS" }, Weight: kilograms.toFixed(1) },
              ReferenceNumber: [{ Value: request.reference }],
              ...(request.declaredValue.greaterThan(0)
                ? { PackageServiceOptions: { DeclaredValue: { Type: { Code: "01" }, CurrencyCode: "EUR", MonetaryValue: request.declaredValue.toFixed(2) } } }
                : {}),
            },
          ],
        },
        LabelSpecification: { LabelImageFormat: { Code: "GIF" }, HTTPUserAgent: "Mozilla/4.5" },
      },
    };
  }

  return {
    carrier: "UPS",
    kind: "live",

    /** A fresh OAuth token (`POST /security/v1/oauth/token`): UPS refuses a wrong client id or secret with 401. */
    async probe() {
      token = null;
      await accessToken();
      return "UPS issued an access token";
    },

    async createLabel(request: LabelRequest): Promise<Label> {
      const answer = shipResponse.parse(await api({ method: "POST", path: "/api/shipments/v2409/ship", body: JSON.stringify(shipmentRequest(request)) }));
      const results = answer.ShipmentResponse.ShipmentResults;
      const pack = results.PackageResults[0];
      if (!pack) throw new CarrierError("UPS", 0, `UPS sent no package for shipment ${results.ShipmentIdentificationNumber}; void it and try again.`, answer);
      // The account's negotiated rate is what UPS bills; the published rate when there is none.
      const charge = results.NegotiatedRateCharges?.TotalCharge ?? results.ShipmentCharges?.TotalCharges;
      return {
        trackingNumber: pack.TrackingNumber,
        shipmentId: results.ShipmentIdentificationNumber,
        pdf: await upsLabelPdf(Buffer.from(pack.ShippingLabel.GraphicImage, "base64")),
        cost: charge && charge.CurrencyCode === "EUR" ? new Decimal(charge.MonetaryValue) : null,
      };
    },

    async voidLabel(shipmentId: string): Promise<void> {
      try {
        const answer = voidResponse.parse(await api({ method: "DELETE", path: `/api/shipments/v2409/void/cancel/${encodeURIComponent(shipmentId)}` }));
        const { Code, Description } = answer.VoidShipmentResponse.SummaryResult.Status;
        if (Code !== "1") throw new CarrierError("UPS", 409, `UPS did not void shipment ${shipmentId}: ${Description ?? `status ${Code}`}`, answer);
      } catch (error) {
        if (error instanceof CarrierError && /already been voided/i.test(error.message)) return;
        throw error;
      }
    },

    async track(trackingNumber: string): Promise<TrackingInfo> {
      const answer = trackResponse.parse(
        await api({ method: "GET", path: `/api/track/v1/details/${encodeURIComponent(trackingNumber)}?${new URLSearchParams({ locale: "en_US", returnSignature: "false" })}` }),
      );
      const shipment = answer.trackResponse.shipment[0];
      const pack = shipment?.package?.find((candidate) => candidate.trackingNumber === trackingNumber) ?? shipment?.package?.[0];
      if (!pack) {
        const why = shipment?.warnings?.map((warning) => warning.message).join("; ");
        throw new CarrierError("UPS", 404, `UPS knows no parcel ${trackingNumber}${why ? `: ${why}` : "."}`, answer);
      }
      const activities = pack.activity ?? [];
      const events: TrackingEvent[] = activities
        .flatMap((entry) => {
          const at = activityTime(entry);
          const city = entry.location?.address?.city;
          const country = entry.location?.address?.countryCode;
          return at ? [{ at, description: entry.status?.description ?? "", location: city ? [city, country].filter(Boolean).join(", ") : null }] : [];
        })
        .sort((a, b) => a.at.getTime() - b.at.getTime());
      const current = pack.currentStatus ?? activities[0]?.status;
      const status = trackingStatusOf(current?.type);
      const deliveredActivity = activities.find((entry) => entry.status?.type === "D");
      const deliveredDate = pack.deliveryDate?.find((entry) => entry.type === "DEL")?.date;
      const deliveredAt = status !== "delivered" ? null : (deliveredActivity && activityTime(deliveredActivity)) ?? upsTime(deliveredDate, pack.deliveryTime?.endTime);
      return { trackingNumber, status, description: current?.description ?? "", events, deliveredAt };
    },

    trackingUrl: (trackingNumber) => upsTrackingUrl(trackingNumber),
  };
}
