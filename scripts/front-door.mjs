// The shop's front door: how a request's client address is decided before Next.js sees the request. Used by
// scripts/serve.mjs; kept apart so the rule can be tested on its own.

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
