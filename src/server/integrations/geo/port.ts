import type { Probe } from "../port-status";

/** A position from the browser's geolocation: degrees, and the accuracy radius in metres. */
export type Position = { lat: number; lng: number; accuracy: number };

/** Reverse geocoding to a country: the ISO 3166-1 alpha-2 code, or null where no country is (the open sea). */
export interface GeoPort {
  countryCode(position: Position): Promise<string | null>;
  /** The owner's Test connection: one reverse geocoding of a known place with the shop's key. */
  probe: Probe;
}
