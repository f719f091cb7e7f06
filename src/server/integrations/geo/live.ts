import { z } from "zod";
import type { GeoPort } from "./port";

const geocodeResponse = z.object({
  status: z.string(),
  error_message: z.string().optional(),
  results: z
    .array(z.object({ address_components: z.array(z.object({ short_name: z.string(), types: z.array(z.string()) })) }))
    .default([]),
});

/** Google's Geocoding API (PROVIDERS section 7): the short name of the component typed `country`. */
export function createGoogleGeo(apiKey: string, baseUrl = "https://maps.googleapis.com"): GeoPort {
  const port: GeoPort = {
    /** The shop's own address (Amsterdam) reverse geocoded with the key: billed as one request, refused REQUEST_DENIED for a bad key. */
    async probe() {
      const country = await port.countryCode({ lat: 52.3676, lng: 4.8846, accuracy: 0 });
      return `Google's geocoding accepted the key (Amsterdam is in ${country ?? "no country"})`;
    },

    async countryCode({ lat, lng }) {
      const url = new URL("/maps/api/geocode/json", baseUrl);
      url.search = new URLSearchParams({ latlng: `${lat},${lng}`, result_type: "country", key: apiKey }).toString();
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`Geocoding answered HTTP ${response.status}`);
      const body = geocodeResponse.parse(await response.json());
      if (body.status === "ZERO_RESULTS") return null;
      if (body.status !== "OK") throw new Error(`Geocoding failed: ${body.status}${body.error_message ? ` (${body.error_message})` : ""}`);
      const country = body.results.flatMap((result) => result.address_components).find((c) => c.types.includes("country"));
      return country?.short_name ?? null;
    },
  };
  return port;
}
