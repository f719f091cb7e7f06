/**
 * Who sent a request, for rate limits and for the sandbox pages' loopback check.
 *
 * The shop's front door (`scripts/serve.mjs`, what `npm start` runs) writes the client's address into
 * `x-shop-client` on every request, replacing whatever a client sent: the socket's peer, or, behind
 * `TRUSTED_PROXY_HOPS` proxies, the address the outermost trusted proxy saw. `X-Forwarded-For`'s first entry is
 * never used: any client can write it.
 *
 * Without the front door (`next dev`), Next.js itself fills in `X-Forwarded-For` from the socket when a request has
 * none, so its last entry is the best there is; the front door is what makes the address trustworthy.
 */
export const CLIENT_ADDRESS_HEADER = "x-shop-client";

export function clientAddress(headers: Headers, behindFrontDoor: boolean = process.env.SHOP_FRONT_DOOR === "1"): string {
  if (behindFrontDoor) return headers.get(CLIENT_ADDRESS_HEADER)?.trim() || "unknown";
  const forwarded = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  return forwarded || "unknown";
}

/** Whether an address is this machine: 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.replace(/^::ffff:/i, "");
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}
