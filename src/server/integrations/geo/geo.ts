import "server-only";
import { env } from "@/env";
import { createGoogleGeo } from "./live";
import type { GeoPort } from "./port";
import { createSandboxGeo } from "./sandbox";

/** Google's geocoding with live integrations and a key; the offline borders otherwise. */
export function getGeo(): GeoPort {
  return env.INTEGRATIONS === "live" && env.GOOGLE_MAPS_API_KEY ? createGoogleGeo(env.GOOGLE_MAPS_API_KEY) : createSandboxGeo();
}
