// The shop's front door: what is settled about a request before Next.js sees it, its client address and, for a
// catalogue page, the path its page is cached under. Used by scripts/serve.mjs; kept apart so the rules can be tested
// on their own.
import { cachedPagePath } from "../src/features/catalog/catalogue-addresses.mjs";
import { isDatabaseUnreachable } from "../src/server/cache/next-cache-handler.mjs";

/** The header the app reads the client's address from (src/server/http/client-address.ts). */
export const CLIENT_ADDRESS_HEADER = "x-shop-client";

/**
 * The client's address: the socket's peer when clients connect directly (`hops` = 0), or, behind `hops` trusted
 * proxies that each append the address they saw to X-Forwarded-For, the entry the outermost trusted proxy wrote.
 * Entries left of it were written by the client and are ignored; a client can put anything there.
 */
export function clientAddressOf(remoteAddress, forwardedFor, hops) {
  if (hops <= 0) return remoteAddress || "unknown";
  const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // The last proxy's own peer is the socket; each trusted proxy before it added one entry.
  const entries = [...chain, remoteAddress];
  return entries[entries.length - 1 - hops] || remoteAddress || "unknown";
}

/**
 * Rewrites a Node request's headers in place: the client address in CLIENT_ADDRESS_HEADER (whatever a client sent
 * under that name is replaced) and, with no trusted proxy, no X-Forwarded-* that a client made up.
 */
export function normaliseRequestHeaders(request, hops) {
  const headers = request.headers;
  headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(request.socket.remoteAddress, headers["x-forwarded-for"], hops);
  if (hops <= 0) {
    for (const name of ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"]) delete headers[name];
  }
}

/**
 * Whether a request's target is one the shop answers: a path (origin form), or `*` for OPTIONS. An absolute target
 * (`GET http://evil.example/ HTTP/1.1`, which proxies send but browsers never do to a server) would have Next
 * redirect to the host it names, and an authority target (CONNECT) means nothing here (SECURITY-REVIEW N-L8).
 */
export function isServedTarget(request) {
  const url = request.url ?? "";
  return url.startsWith("/") || (url === "*" && request.method === "OPTIONS");
}

/**
 * Serves `/` and `/search?…` from the paths their pages are cached under (src/features/catalog/catalogue-addresses.mjs)
 * by changing the request's address in place. Next's proxy could do the same, but it costs a cached page a third of
 * its time. The browser keeps the address it asked for: Next's router takes the page's address from the address bar.
 * Next's `_rsc` (the cache key of a client navigation, which Next checks) goes along.
 */
export function mapCatalogueAddress(request) {
  const url = request.url ?? "";
  const queryAt = url.indexOf("?");
  const query = queryAt === -1 ? "" : url.slice(queryAt);
  const path = cachedPagePath(queryAt === -1 ? url : url.slice(0, queryAt), query);
  if (!path) return;
  const rsc = new URLSearchParams(query).get("_rsc");
  request.url = rsc === null ? path : `${path}?_rsc=${encodeURIComponent(rsc)}`;
}

/** What a client is told to wait before trying again while the database is away, as the API says too (src/app/api/trpc). */
export const RETRY_AFTER_SECONDS = 30;

/**
 * How long before the end of nginx's whole second a copy it keeps stops being fresh (see `settleCaching`): the time
 * one request has to fetch the page anew within the second the SPEC allows a copy to be served.
 */
export const EDGE_REFRESH_MARGIN_MS = 500;

const SHARED_CACHE_LIFETIME = /(?:^|,)\s*s-maxage=\d+/i;
const PERSONAL = /(?:^|,)\s*(?:private|no-store|no-cache)\b/i;

/**
 * Says who may keep a response, as it is written:
 * - A response that sets a cookie is personal, whatever else it says: `private, no-store`.
 * - A page Next serves for everyone alike (a catalogue page: `s-maxage=1, stale-while-revalidate=…`, from its
 *   `revalidate = 1`) is `public`, and carries `X-Accel-Expires`, the one thing that lets nginx in front keep it
 *   (scripts/nginx-site.mjs; nginx does not pass it on). nginx counts time in whole seconds, so `s-maxage=1` alone
 *   would keep a copy fresh for up to two. The copy is fresh to the end of the second that began
 *   `EDGE_REFRESH_MARGIN_MS` before now (sent early in a second, it is kept only to be served while another request
 *   fetches the page anew): fresh for at most 1 s less the margin, which leaves the margin to fetch the page again,
 *   so a piece one order sold out shows sold out within a second of the order committing.
 * - Everything else (personal pages are `private, no-store` already) is left as it is, and no edge keeps it.
 */
export function settleCaching(response, now = Date.now(), given = []) {
  response.removeHeader("x-accel-expires");
  // Headers handed to writeHead itself go out as given, over those set before: ask nothing of the edge then.
  if (given.includes("cache-control")) return;
  if (response.hasHeader("set-cookie") || given.includes("set-cookie")) {
    response.setHeader("cache-control", "private, no-store");
    return;
  }
  const cacheControl = String(response.getHeader("cache-control") ?? "");
  if (!SHARED_CACHE_LIFETIME.test(cacheControl) || PERSONAL.test(cacheControl)) return;
  if (!/(?:^|,)\s*public\b/i.test(cacheControl)) response.setHeader("cache-control", `public, ${cacheControl}`);
  response.setHeader("x-accel-expires", `@${Math.floor((now - EDGE_REFRESH_MARGIN_MS) / 1000)}`);
}

/** The lower-case names of the headers handed to `writeHead(status, [message], [headers])`. */
function headerNamesGiven(rest) {
  const headers = rest.find((argument) => typeof argument === "object" && argument !== null);
  if (!headers) return [];
  if (!Array.isArray(headers)) return Object.keys(headers).map((name) => name.toLowerCase());
  // [[name, value], …] or [name, value, name, value, …]
  return (Array.isArray(headers[0]) ? headers.map((pair) => pair[0]) : headers.filter((_, index) => index % 2 === 0)).map((name) => String(name).toLowerCase());
}

/**
 * Settles a response's status line and headers as they are written:
 * - Who may keep it (`settleCaching`).
 * - While the shop's catalogue reads cannot reach the database (src/server/cache/next-cache-handler.mjs), a page that
 *   failed answers 503 with Retry-After instead of 500 (RELIABILITY-REVIEW D6): a load balancer or a crawler then
 *   knows to come back, and a person sees the same page either way. A page served from the cache is unaffected.
 * - A redirect a catalogue page rendered just now (a product id written another way, a search that amounts to
 *   another) carries one Location: Next 16 appends a fresh render's headers to those the render set already, and
 *   clients join the two copies into one address that leads nowhere.
 */
export function guardResponseHead(response) {
  const writeHead = response.writeHead;
  response.writeHead = function (status, ...rest) {
    settleCaching(this, Date.now(), headerNamesGiven(rest));
    const location = this.getHeader("location");
    if (Array.isArray(location) && new Set(location).size === 1) this.setHeader("location", location[0]);
    if (status === 500 && isDatabaseUnreachable()) {
      this.setHeader("retry-after", String(RETRY_AFTER_SECONDS));
      // A status message given for 500 ("Internal Server Error") would be wrong for 503.
      if (typeof rest[0] === "string") rest.shift();
      return writeHead.call(this, 503, ...rest);
    }
    return writeHead.call(this, status, ...rest);
  };
}
