import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

/**
 * eBay's digital signature on the calls it requires one for from EU and UK sellers (PROVIDERS.md section 12, eBay's
 * guide "Digital Signatures for APIs"): every Finances API call, the Fulfillment API's issue_refund, and the Post-Order
 * API's refund, decide and cancellation calls. The signature is an HTTP Message Signature (RFC 9421) with the key pair
 * the Key Management API made (Ed25519), over the covered components eBay documents:
 *
 *   "content-digest" (only with a body) "x-ebay-signature-key" "@method" "@path" "@authority"
 *
 * and four headers: `x-ebay-signature-key` (the public key as eBay's JWE), `Content-Digest` (RFC 9530, sha-256 of the
 * body, only with a body), `Signature-Input` (`sig1=(...);created=<unix seconds>`) and `Signature` (`sig1=:<base64>:`).
 * The verifier below is what the stand-ins check calls with, as eBay does.
 */

/** The key a call is signed with: eBay's JWE of the public key, and the private key (PEM, or eBay's bare base64). */
export type EbaySigningKey = { jwe: string; privateKey: string };

/** The request as signed: method, the full address (its path and authority are covered), and the body sent. */
export type SignableRequest = { method: string; url: string; body: string | null };

const label = "sig1";

/**
 * Whether eBay requires a signature on this call (path from the host on, query aside). Signatures on other calls are
 * ignored by eBay; the shop signs exactly these, so that an ordinary call never waits for a signing key.
 */
export function ebayRequiresSignature(method: string, path: string): boolean {
  const bare = path.split("?")[0]!;
  if (bare.startsWith("/sell/finances/")) return true;
  if (method === "POST" && /^\/sell\/fulfillment\/v1\/order\/[^/]+\/issue_refund$/.test(bare)) return true;
  if (method !== "POST" || !bare.startsWith("/post-order/v2/")) return false;
  return /^\/post-order\/v2\/(inquiry\/[^/]+\/issue_refund|casemanagement\/[^/]+\/issue_refund|return\/[^/]+\/(issue_refund|decide)|cancellation|cancellation\/[^/]+\/approve)$/.test(bare);
}

/** RFC 9530's Content-Digest of a body: `sha-256=:<base64>:`. */
export function contentDigest(body: string): string {
  return `sha-256=:${createHash("sha256").update(body, "utf8").digest("base64")}:`;
}

const componentsOf = (withBody: boolean) => [...(withBody ? ["content-digest"] : []), "x-ebay-signature-key", "@method", "@path", "@authority"];
const paramsOf = (components: readonly string[], created: number) => `(${components.map((name) => `"${name}"`).join(" ")});created=${created}`;

/** RFC 9421's signature base: one line per covered component, then the signature's parameters. */
function signatureBase(components: readonly string[], values: Record<string, string>, params: string): string {
  return [...components.map((name) => `"${name}": ${values[name]}`), `"@signature-params": ${params}`].join("\n");
}

function derivedValues(request: SignableRequest, headers: { jwe: string; digest: string | null }): Record<string, string> {
  const url = new URL(request.url);
  return {
    "content-digest": headers.digest ?? "",
    "x-ebay-signature-key": headers.jwe,
    "@method": request.method.toUpperCase(),
    "@path": url.pathname,
    // RFC 9421: the host in lower case, with the port when it is not the scheme's default.
    "@authority": url.host.toLowerCase(),
  };
}

/** A private key as eBay's createSigningKey gives it (base64 PKCS#8 without the PEM lines) or as PEM. */
export function privateKeyOf(text: string): KeyObject {
  if (text.includes("-----BEGIN")) return createPrivateKey(text);
  return createPrivateKey({ key: Buffer.from(text.replace(/\s+/g, ""), "base64"), format: "der", type: "pkcs8" });
}

/** A public key as PEM or bare base64 SPKI. */
export function publicKeyOf(text: string): KeyObject {
  if (text.includes("-----BEGIN")) return createPublicKey(text);
  return createPublicKey({ key: Buffer.from(text.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" });
}

/** The four (or, without a body, three) headers that sign a request, as of `created`. */
export function ebaySignatureHeaders(request: SignableRequest, key: EbaySigningKey, created: Date): Record<string, string> {
  const withBody = request.body !== null && request.body !== "";
  const digest = withBody ? contentDigest(request.body!) : null;
  const components = componentsOf(withBody);
  const params = paramsOf(components, Math.floor(created.getTime() / 1000));
  const base = signatureBase(components, derivedValues(request, { jwe: key.jwe, digest }), params);
  // Ed25519 signs the message itself: no separate digest algorithm (RSA keys would need sha256 here).
  const privateKey = privateKeyOf(key.privateKey);
  const signature = sign(privateKey.asymmetricKeyType === "ed25519" ? null : "sha256", Buffer.from(base, "utf8"), privateKey).toString("base64");
  return {
    "x-ebay-signature-key": key.jwe,
    ...(digest ? { "content-digest": digest } : {}),
    "signature-input": `${label}=${params}`,
    signature: `${label}=:${signature}:`,
  };
}

/** Why eBay refuses a call's signature, with its error id; eBay says no more than this. */
export type SignatureRefusal = { status: number; errorId: number; message: string };

const missingKey: SignatureRefusal = { status: 400, errorId: 215001, message: "Missing x-ebay-signature-key header" };
const invalid = (why: string): SignatureRefusal => ({ status: 403, errorId: 215122, message: `Signature validation failed: ${why}` });

/**
 * Checks a received request's signature as eBay does: the JWE names a key the key service issued (`publicKeyFor`),
 * Signature-Input covers the documented components (with content-digest when there is a body), the Content-Digest is
 * that of the body, and the signature over the base holds. Null when it does; eBay's refusal otherwise.
 */
export function verifyEbaySignature(request: SignableRequest, headers: Headers, publicKeyFor: (jwe: string) => KeyObject | null): SignatureRefusal | null {
  const jwe = headers.get("x-ebay-signature-key");
  if (!jwe) return missingKey;
  const key = publicKeyFor(jwe);
  if (!key) return invalid("the x-ebay-signature-key is not a key eBay issued");
  const input = /^sig1=(\(("[a-z@-]+"( "[a-z@-]+")*)?\));created=(\d{1,12})$/.exec(headers.get("signature-input") ?? "");
  if (!input) return invalid("Signature-Input is missing or not sig1=(...);created=...");
  const signature = /^sig1=:([A-Za-z0-9+/]+={0,2}):$/.exec(headers.get("signature") ?? "");
  if (!signature) return invalid("Signature is missing or not sig1=:...:");
  const components = (input[2] ?? "").split(" ").map((name) => name.slice(1, -1));
  const withBody = request.body !== null && request.body !== "";
  const required = componentsOf(withBody);
  if (required.some((name) => !components.includes(name)) || components.some((name) => !required.includes(name))) {
    return invalid(`the signature covers ${components.join(", ") || "nothing"} instead of ${required.join(", ")}`);
  }
  const digest = headers.get("content-digest");
  if (withBody && digest !== contentDigest(request.body!)) return invalid("Content-Digest is not the SHA-256 of the body");
  const base = signatureBase(components, derivedValues(request, { jwe, digest }), paramsOf(components, Number(input[4])));
  try {
    const holds = verify(key.asymmetricKeyType === "ed25519" ? null : "sha256", Buffer.from(base, "utf8"), key, Buffer.from(signature[1]!, "base64"));
    return holds ? null : invalid("the signature does not match the request");
  } catch {
    return invalid("the signature does not match the request");
  }
}
