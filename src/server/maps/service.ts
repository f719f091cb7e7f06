import type { GeoPort, Position } from "@/server/integrations/geo/port";

/** The country a browser position lies in, as an upper-case ISO code, or null where none is known. */
export async function countryFromPosition(geo: GeoPort, position: Position): Promise<{ countryCode: string | null }> {
  const code = await geo.countryCode(position);
  return { countryCode: code ? code.toUpperCase() : null };
}
