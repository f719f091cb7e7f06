import { randomInt } from "node:crypto";
import { Decimal } from "decimal.js";
import type { Carrier } from "@/lib/enums";
import { CarrierError, carrierNames, type CarrierPort, type Label, type LabelRequest, type TrackingInfo } from "./port";
import { sandboxProbeAnswer } from "../port-status";
import { renderSandboxLabel } from "./sandbox-label";
import { carrierTrackingUrl } from "./tracking-url";

/**
 * The sandbox carrier: one per carrier, standing in for PostNL and UPS in development, demos and tests. It keeps
 * nothing: the label's time is written into its tracking number, and the parcel's journey is played from that time,
 * so any instance answers alike and a restart forgets nothing. Labels are real PDFs (see sandbox-label.ts) marked
 * as not valid for shipping.
 *
 * Like the real carriers it refuses what they refuse: an unknown product, a parcel too heavy for its product, a
 * Dutch-only PostNL product to another country, a parcel leaving the EU without its customs declaration (or with a
 * line missing its tariff code, origin, weight or value), and voiding a label whose parcel the carrier already has.
 */

type SandboxProduct = { name: string; price: string; maxGrams: number; netherlandsOnly?: boolean };

/** The products the sandbox sells, with demo prices (the real ones are in each carrier's contract). */
export const sandboxProducts: Record<Carrier, Record<string, SandboxProduct>> = {
  POSTNL: {
    "2928": { name: "Letterbox parcel", price: "4.25", maxGrams: 2_000, netherlandsOnly: true },
    "3085": { name: "Standard parcel", price: "6.95", maxGrams: 23_000, netherlandsOnly: true },
    "3189": { name: "Parcel, signature on delivery", price: "8.15", maxGrams: 23_000, netherlandsOnly: true },
    "3385": { name: "Parcel, stated address only", price: "7.45", maxGrams: 23_000, netherlandsOnly: true },
    "4907": { name: "EU parcel, track & trace", price: "13.50", maxGrams: 20_000 },
    "4945": { name: "Parcel non-EU", price: "24.95", maxGrams: 20_000 },
  },
  UPS: {
    "07": { name: "UPS Worldwide Express", price: "64.00", maxGrams: 70_000 },
    "11": { name: "UPS Standard", price: "18.90", maxGrams: 70_000 },
    "65": { name: "UPS Worldwide Saver", price: "47.50", maxGrams: 70_000 },
  },
};

/** The EU's member states: a parcel to any other country is an export, which carriers take only with customs data. */
export const euMemberStates: ReadonlySet<string> = new Set([
  "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
]);

/** Why a carrier refuses a parcel's customs data, or null: PostNL and UPS both want each line complete. */
export function customsRefusal(request: LabelRequest): string | null {
  const country = request.receiver.countryCode.toUpperCase();
  if (euMemberStates.has(country)) return null;
  if (!request.customs || request.customs.lines.length === 0) return `a parcel to ${country} leaves the EU and needs its customs declaration (contents, HS codes, origin, values)`;
  for (const [index, line] of request.customs.lines.entries()) {
    const what = `customs line ${index + 1} (${line.description})`;
    if (!/^\d{6}$/.test(line.hsCode)) return `${what} needs a 6-digit HS tariff code, not "${line.hsCode}"`;
    if (!/^[A-Z]{2}$/.test(line.originCountryCode)) return `${what} needs its country of origin`;
    if (!(line.quantity > 0) || !(line.netWeightGrams > 0)) return `${what} needs its quantity and net weight`;
    if (!line.value.greaterThan(0)) return `${what} needs its value`;
  }
  return null;
}

const minute = 60_000;
const hour = 60 * minute;

/**
 * A sandbox parcel's journey, by time since its label was made: the shop hands parcels over within the hour, the
 * carrier sorts them that evening, and delivers the next day. The last stage reached is the parcel's status.
 */
export const sandboxJourney: readonly { afterMs: number; status: TrackingInfo["status"]; description: (carrier: string) => string; location: string | null }[] = [
  { afterMs: 0, status: "pre_transit", description: (carrier) => `Label created; ${carrier} is expecting the parcel`, location: null },
  { afterMs: 30 * minute, status: "in_transit", description: (carrier) => `Parcel received by ${carrier}`, location: "Drop-off point" },
  { afterMs: 6 * hour, status: "in_transit", description: () => "Parcel sorted", location: "Sorting centre" },
  { afterMs: 24 * hour, status: "in_transit", description: () => "Parcel out for delivery", location: "Delivery depot" },
  { afterMs: 30 * hour, status: "delivered", description: () => "Parcel delivered", location: null },
];

/** `3SSBOX` / `1ZSBOX`, then the label's time (milliseconds, base 36, 9 characters) and 3 random characters. */
const trackingPrefixes: Record<Carrier, string> = { POSTNL: "3SSBOX", UPS: "1ZSBOX" };
const base36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function sandboxTrackingNumber(carrier: Carrier, at: Date): string {
  const time = at.getTime().toString(36).toUpperCase().padStart(9, "0");
  const random = Array.from({ length: 3 }, () => base36[randomInt(36)]).join("");
  return `${trackingPrefixes[carrier]}${time}${random}`;
}

/** When a sandbox label was made, read from its tracking number; null for a number the sandbox did not make. */
export function sandboxLabelTime(carrier: Carrier, trackingNumber: string): Date | null {
  const match = new RegExp(`^${trackingPrefixes[carrier]}([0-9A-Z]{9})[0-9A-Z]{3}$`).exec(trackingNumber);
  return match ? new Date(parseInt(match[1]!, 36)) : null;
}

export function createSandboxCarrier(carrier: Carrier, options: { now?: () => Date } = {}): CarrierPort {
  const now = options.now ?? (() => new Date());
  const name = carrierNames[carrier];

  function labelTime(trackingNumber: string): Date {
    const at = sandboxLabelTime(carrier, trackingNumber);
    if (!at) throw new CarrierError(carrier, 404, `${name} (sandbox) knows no parcel ${trackingNumber}.`);
    return at;
  }

  /** The stages of the journey reached by now, oldest first (at least the first: the label exists). */
  function stagesReached(trackingNumber: string) {
    const madeAt = labelTime(trackingNumber);
    const elapsed = now().getTime() - madeAt.getTime();
    return sandboxJourney.filter((stage, index) => index === 0 || stage.afterMs <= elapsed).map((stage) => ({ ...stage, at: new Date(madeAt.getTime() + stage.afterMs) }));
  }

  return {
    carrier,
    kind: "sandbox",
    probe: async () => sandboxProbeAnswer,

    async createLabel(request: LabelRequest): Promise<Label> {
      const product = sandboxProducts[carrier][request.product];
      if (!product) throw new CarrierError(carrier, 400, `${name} refused the request: unknown product ${request.product}`);
      if (request.weightGrams > product.maxGrams) {
        throw new CarrierError(carrier, 400, `${name} refused the request: ${product.name} takes at most ${product.maxGrams / 1000} kg, the parcel weighs ${request.weightGrams / 1000} kg`);
      }
      if (product.netherlandsOnly && request.receiver.countryCode.toUpperCase() !== "NL") {
        throw new CarrierError(carrier, 400, `${name} refused the request: ${product.name} (${request.product}) only goes to addresses in the Netherlands`);
      }
      const customs = customsRefusal(request);
      if (customs) throw new CarrierError(carrier, 400, `${name} refused the request: ${customs}`);
      const createdAt = now();
      const trackingNumber = sandboxTrackingNumber(carrier, createdAt);
      const pdf = await renderSandboxLabel({ carrier, product: { code: request.product, name: product.name }, trackingNumber, request, createdAt });
      return { trackingNumber, shipmentId: trackingNumber, pdf, cost: new Decimal(product.price) };
    },

    async voidLabel(shipmentId: string): Promise<void> {
      const handedOver = stagesReached(shipmentId).find((stage) => stage.status !== "pre_transit");
      if (handedOver) {
        throw new CarrierError(carrier, 409, `${name} (sandbox) has had parcel ${shipmentId} since ${handedOver.at.toISOString()}: a label whose parcel was handed over cannot be voided.`);
      }
    },

    async track(trackingNumber: string): Promise<TrackingInfo> {
      const stages = stagesReached(trackingNumber);
      const current = stages.at(-1)!;
      return {
        trackingNumber,
        status: current.status,
        description: current.description(name),
        events: stages.map((stage) => ({ at: stage.at, description: stage.description(name), location: stage.location })),
        deliveredAt: current.status === "delivered" ? current.at : null,
      };
    },

    // The carriers' own pages: they know no sandbox parcel, but the link has the shape the customer will get.
    trackingUrl: (trackingNumber, receiver) => carrierTrackingUrl(carrier, trackingNumber, receiver),
  };
}
