import "server-only";
import { env } from "@/env";
import { createGoogleGeo } from "./live";
import { secretSetting, type PortDescription } from "../port-status";
import type { GeoPort } from "./port";
import { createSandboxGeo } from "./sandbox";

/** Google's geocoding with live integrations and a key; the offline borders otherwise. */
export function getGeo(): GeoPort {
  return env.INTEGRATIONS === "live" && env.GOOGLE_MAPS_API_KEY ? createGoogleGeo(env.GOOGLE_MAPS_API_KEY) : createSandboxGeo();
}

/** How `getGeo` is set up, for the owner's integrations page; nothing is called. */
export function describeGeo(): PortDescription {
  if (env.INTEGRATIONS !== "live") return { mode: "sandbox", detail: "Offline country borders", endpoint: null, settings: [] };
  const key = secretSetting("GOOGLE_MAPS_API_KEY", env.GOOGLE_MAPS_API_KEY);
  if (!env.GOOGLE_MAPS_API_KEY) return { mode: "sandbox", detail: "Offline country borders: no Google key is set", endpoint: null, settings: [key] };
  return { mode: "live", detail: "Google's Geocoding API", endpoint: "https://maps.googleapis.com", settings: [key] };
}
