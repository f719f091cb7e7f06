import type { Decimal } from "decimal.js";
import type { Carrier } from "@/lib/enums";
import type { Probe } from "../port-status";

/**
 * The parcel carriers (PostNL, UPS) behind one port. The fulfilment service decides which carrier and which of its
 * products a parcel travels with; an adapter only speaks its carrier's API and turns the answers into these types,
 * so no PostNL or UPS shape leaves `integrations/carriers/`.
 */

/** How staff and customers know each carrier. */
export const carrierNames: Record<Carrier, string> = { POSTNL: "PostNL", UPS: "UPS" };

/** A postal address as a carrier wants it. `countryCode` is ISO 3166-1 alpha-2. */
export type CarrierAddress = {
  name: string;
  companyName?: string | null;
  street: string;
  houseNumber: string;
  addressLine2?: string | null;
  postCode: string;
  city: string;
  stateCode?: string | null;
  countryCode: string;
  email?: string | null;
  phoneNumber?: string | null;
};

/**
 * One line of a parcel's customs declaration (CN22/CN23 and the carrier's customs fields): a product and how many of
 * it are in the parcel.
 */
export type CustomsLine = {
  /** What the goods are, in English, for customs ("Wrist-watch, automatic: Seiko 5 SNK809"); an adapter shortens it to its carrier's limit. */
  description: string;
  quantity: number;
  /** Net weight of all the line's pieces, grams, at least 1. */
  netWeightGrams: number;
  /** What the customer paid for the line (all its pieces), euro. */
  value: Decimal;
  /** The HS tariff code, 6 digits. */
  hsCode: string;
  /** ISO 3166-1 alpha-2 of where the goods were made. */
  originCountryCode: string;
};

/** What customs are told about a parcel leaving the EU: a sale of goods, in euro, under the shop's invoice. */
export type CustomsDeclaration = {
  category: "SALE_OF_GOODS";
  currency: "EUR";
  /** The invoice the goods were sold under (the order's invoice number, or its order number before one was made). */
  invoiceNumber: string;
  invoiceDate: Date;
  lines: CustomsLine[];
};

export type LabelRequest = {
  /** Our order number, printed on the label as the reference and sent as the carrier's customer reference. */
  reference: string;
  sender: CarrierAddress;
  receiver: CarrierAddress;
  /** Grams, at least 1. */
  weightGrams: number;
  /** The carrier's own product: a PostNL product code ("3085", "4907") or a UPS service code ("11", "65"). */
  product: string;
  /** Value of the contents in euro, for insurance and customs. */
  declaredValue: Decimal;
  /**
   * The customs declaration of a parcel leaving the EU's customs and VAT area (the shop decides, `fulfilment/customs.ts`);
   * null within it. The carriers refuse an export without one.
   */
  customs: CustomsDeclaration | null;
  /** The same key for a retried request, so a retry after a timeout does not buy a second label where the API allows it. */
  idempotencyKey: string;
};

export type Label = {
  /** What the customer types into the carrier's tracking page. */
  trackingNumber: string;
  /** What the carrier needs to void the shipment (UPS's ShipmentIdentificationNumber, PostNL's barcode). */
  shipmentId: string;
  /** The label as a PDF (an adapter converts the carrier's GIF or base64 into one). */
  pdf: Buffer;
  /** What the carrier charges for the label, when it says; null when the contract price is not in the answer. */
  cost: Decimal | null;
};

/** One tracking event, oldest first in `TrackingInfo.events`. */
export type TrackingEvent = { at: Date; description: string; location?: string | null };

export type TrackingInfo = {
  trackingNumber: string;
  /** Our reading of the carrier's status. */
  status: "pre_transit" | "in_transit" | "delivered" | "exception" | "unknown";
  /** The carrier's own words for the current status. */
  description: string;
  events: TrackingEvent[];
  deliveredAt: Date | null;
};

/**
 * A refusal from the carrier (bad address, unknown product, expired credentials) with its message for staff.
 * `status` is the carrier's HTTP status, or 0 when the carrier could not be reached or answered something unreadable:
 * a 4xx other than 429 will not change by retrying, anything else may.
 */
export class CarrierError extends Error {
  constructor(
    readonly carrier: Carrier,
    readonly status: number,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "CarrierError";
  }
}

export interface CarrierPort {
  readonly carrier: Carrier;
  readonly kind: "sandbox" | "live";
  /** The owner's Test connection: one harmless authenticated call (PostNL: a status lookup; UPS: a token). */
  probe: Probe;
  createLabel(request: LabelRequest): Promise<Label>;
  /**
   * Cancels a shipment whose parcel has not been handed over; voiding one already voided is not an error. A parcel
   * the carrier has already picked up or scanned is refused with a CarrierError that says so.
   */
  voidLabel(shipmentId: string): Promise<void>;
  track(trackingNumber: string): Promise<TrackingInfo>;
  /** The public page where the customer follows the parcel. */
  trackingUrl(trackingNumber: string, receiver: { countryCode: string; postCode: string }): string;
}
