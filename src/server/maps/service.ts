import "server-only";
import type { Db } from "@/server/db/client";
import type { GeoPort, Position } from "@/server/integrations/geo/port";
import { limitCaller, type Caller } from "@/server/rate-limit/service";

/** Positions remembered per process; a few thousand answers are a few hundred kilobytes. */
const CACHED_POSITIONS = 5_000;
const countryCache = new Map<string, string | null>();

/**
 * The country a browser position lies in, as an upper-case ISO code, or null where none is known. Live, every
 * lookup is a paid geocoding request on the shop's key, so callers are limited and answers are remembered for the
 * position rounded to about a hundred metres: borders are not that precise in a browser's position anyway (M12).
 */
export async function countryFromPosition(db: Db, geo: GeoPort, position: Position, caller: Caller): Promise<{ countryCode: string | null }> {
  await limitCaller(db, "geocode", caller);
  const key = `${position.lat.toFixed(3)},${position.lng.toFixed(3)}`;
  if (countryCache.has(key)) return { countryCode: countryCache.get(key) ?? null };
  const found = await geo.countryCode(position);
  const code = found ? found.toUpperCase() : null;
  // The oldest answer makes room: a Map iterates in insertion order.
  if (countryCache.size >= CACHED_POSITIONS) countryCache.delete(countryCache.keys().next().value!);
  countryCache.set(key, code);
  return { countryCode: code };
}

/** Country headers that CDNs and load balancers put on requests: Cloudflare, Vercel, CloudFront, Google App Engine. */
const countryHeaders = ["cf-ipcountry", "x-vercel-ip-country", "cloudfront-viewer-country", "x-appengine-country"];
/** Codes those headers use for "unknown" or "Tor", not countries. */
const notCountries = new Set(["XX", "ZZ", "T1"]);

function asCountry(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) && !notCountries.has(code) ? code : null;
}

/** The region of a language tag (nl-NL, zh-Hant-TW, es-419 has none that is a country); null without one. */
function regionOf(tag: string): string | null {
  const [, ...subtags] = tag.split("-");
  return asCountry(subtags.find((subtag) => /^[A-Za-z]{2}$/.test(subtag)));
}

/**
 * The visitor's country from the request alone, so the browser is never asked for its position: a country header
 * set by the CDN in front of the shop, or else the region of the most preferred language in Accept-Language that
 * names one (en-GB, nl-NL). Null when neither tells.
 */
export function countryFromRequest(headers: Headers): string | null {
  for (const name of countryHeaders) {
    const code = asCountry(headers.get(name));
    if (code) return code;
  }
  const languages = (headers.get("accept-language") ?? "")
    .split(",")
    .map((entry, index) => {
      const [tag = "", ...parameters] = entry.trim().split(";");
      const quality = Number(parameters.find((parameter) => parameter.trim().startsWith("q="))?.trim().slice(2) ?? 1);
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((language) => language.tag && language.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of languages) {
    const code = regionOf(tag);
    if (code) return code;
  }
  return null;
}
