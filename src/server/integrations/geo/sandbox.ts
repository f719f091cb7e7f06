import { iso1A2Code } from "@rapideditor/country-coder";
import { sandboxProbeAnswer } from "../port-status";
import type { GeoPort } from "./port";

/** Offline lookup in simplified country borders (PROVIDERS section 7): fine for countries, no network, no key. */
export function createSandboxGeo(): GeoPort {
  return {
    probe: async () => sandboxProbeAnswer,
    async countryCode({ lat, lng }) {
      // country-coder takes longitude first.
      return iso1A2Code([lng, lat]);
    },
  };
}
