import type { Carrier } from "@/lib/enums";
import { postnlTrackingUrl } from "./postnl";
import { upsTrackingUrl } from "./ups";

/**
 * The carrier's public page where the customer follows a parcel. It needs no credentials, so an order page or an
 * e-mail can link to it whichever adapter is configured; every adapter's `trackingUrl` is this.
 */
export function carrierTrackingUrl(carrier: Carrier, trackingNumber: string, receiver: { countryCode: string; postCode: string }): string {
  return carrier === "POSTNL" ? postnlTrackingUrl(trackingNumber, receiver) : upsTrackingUrl(trackingNumber);
}
