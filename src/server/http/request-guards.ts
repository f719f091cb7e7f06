import { shopUrl } from "@/server/config/shop-url";

/**
 * Whether a state-changing request comes from the shop's own pages. Browsers name the page that sent a request in
 * `Origin` and `Sec-Fetch-Site`, and a page on another site cannot change either; tools without a browser send
 * neither and are let through (cross-site request forgery needs a victim's browser). The shop's configured address
 * counts as its own, and so does the address the browser used, since `Host` is also set by the browser
 * (SECURITY-REVIEW L8: another port on localhost or a sibling subdomain is "same-site" to SameSite=Lax cookies).
 */
export function isSameOriginRequest(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  const origin = headers.get("origin");
  if (!origin) return true;
  if (origin === new URL(shopUrl()).origin) return true;
  try {
    return new URL(origin).host === headers.get("host");
  } catch {
    return false;
  }
}

/** A request id a caller may choose (a proxy's, say), within what logs and the answer can carry; else a new one. */
export function requestIdOf(headers: Headers): string {
  const given = headers.get("x-request-id");
  return given && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : crypto.randomUUID();
}

/**
 * The body of a request, read up to `limit` bytes; null when it is longer. The declared `Content-Length` is
 * checked first, and the stream is counted as it arrives, since a chunked body declares no length.
 */
export async function readBodyWithin(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
