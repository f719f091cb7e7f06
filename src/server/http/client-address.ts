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

/**
 * Who a request is for rate limits and the caps on unpaid orders: its client address, with an IPv6 address taken as
 * its /64. One IPv6 subscriber is given a whole /64 (18 quintillion addresses) and can send each request from
 * another, so counting per address would count nothing (SECURITY-REVIEW N-L6). IPv4, also written IPv4-mapped, is
 * counted per address. The sandbox's loopback check keeps the full address (`clientAddress`).
 */
export function clientKey(headers: Headers, behindFrontDoor?: boolean): string {
  return clientNetwork(clientAddress(headers, behindFrontDoor));
}

export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(address.replace(/%.*$/, ""));
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : address;
}

/** The eight groups of an IPv6 address, written out (`2001:db8::1` → 2001, db8, 0, 0, 0, 0, 0, 1), or null. */
function ipv6Groups(address: string): string[] | null {
  if (!address.includes(":") || !/^[0-9a-f:.]+$/i.test(address)) return null;
  const [head = "", tail, ...rest] = address.split("::");
  if (rest.length > 0) return null;
  const split = (part: string) => (part ? part.split(":") : []);
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  // An IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
  const last = right.length > 0 ? right : left;
  const ipv4 = last.at(-1)?.includes(".") ? last.pop()! : null;
  if (ipv4) {
    const bytes = ipv4.split(".").map(Number);
    if (bytes.length !== 4 || bytes.some((byte) => !(byte >= 0 && byte <= 255))) return null;
    last.push(((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16));
  }
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.map((group) => parseInt(group, 16).toString(16));
}
