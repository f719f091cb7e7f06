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
 * What a provider's callback (a payment or marketplace webhook, the Google stand-in's token endpoint) may send: a
 * small form or JSON document. Anything larger is refused before it is read, and before anyone is authenticated
 * (SECURITY-REVIEW N-M3).
 */
export const CALLBACK_BODY_LIMIT = 64 * 1024;

/** A form of the shop's own posted outside tRPC (sign-in, the sandbox's pages): a few fields. */
export const FORM_BODY_LIMIT = 16 * 1024;

/** The answer to a body over its route's limit. */
export function payloadTooLarge(limit: number): Response {
  return new Response(`The request is larger than ${limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MB` : `${limit / 1024} kB`}.`, { status: 413 });
}

/** The body of a request as text, read up to `limit` bytes (see readBodyWithin); null when it is longer. */
export async function readTextWithin(request: Request, limit: number): Promise<string | null> {
  const body = await readBodyWithin(request, limit);
  return body && new TextDecoder().decode(body);
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
