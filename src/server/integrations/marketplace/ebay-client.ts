import { z } from "zod";
import { errorDocumentOf, jsonOf, reasonOf } from "@/server/integrations/payments/provider-http";
import { ebayRequiresSignature, ebaySignatureHeaders } from "./ebay-signature";
import { MarketplaceError, type MarketplaceErrorDetail } from "./port";
import type { EbaySigningKeyStore, StoredSigningKey } from "./signing-key-store";

/**
 * eBay's HTTP for the live adapter: the two OAuth tokens, the calls with their headers, and eBay's error format read
 * into a MarketplaceError (PROVIDERS.md section 5).
 *
 * The seller's user token comes from the refresh token and is kept in the token store (EBAY_ACCESS_TOKEN), so the web
 * server and the job worker share it instead of each spending a refresh on start. The application token (client
 * credentials, needed only to read the Notification API's public keys) stays in memory: it is free to get and seldom
 * needed.
 */

/** eBay's user access token and until when it holds; what the token store keeps. */
export type EbayToken = { accessToken: string; expiresAt: Date };

export type EbayTokenStore = {
  read(): Promise<EbayToken | null>;
  write(token: EbayToken): Promise<void>;
};

export type EbayClientOptions = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  tokenStore: EbayTokenStore;
  /** Where the signing key is kept (signing-key-store.ts); made with the Key Management API when there is none. */
  signingKeyStore: EbaySigningKeyStore;
  now: () => Date;
};

export type EbayRequest = {
  method: "GET" | "POST" | "PUT";
  /** From the host on, with the query string. */
  path: string;
  /** eBay serves the Finances and Key Management APIs from apiz.ebay.com instead of api.ebay.com. */
  host?: "api" | "apiz";
  body?: unknown;
  headers?: Record<string, string>;
  /** How the user token is presented: eBay's REST APIs take `Bearer`, the Post-Order API takes OAuth tokens as `IAF`. */
  tokenScheme?: "Bearer" | "IAF";
};

/** The scopes the shop's refresh token was granted: listings, orders, business policies, refunds. */
export const ebayUserScopes = ["sell.inventory", "sell.fulfillment", "sell.account", "sell.finances"].map((scope) => `https://api.ebay.com/oauth/api_scope/${scope}`);
const applicationScope = "https://api.ebay.com/oauth/api_scope";

/** A signing key (three years valid) is replaced this long before it expires, so no call goes out with a dying key. */
export const ebaySigningKeyMarginMs = 24 * 60 * 60_000;
const signingKeyAnswer = z.object({
  signingKeyId: z.string().min(1),
  jwe: z.string().min(1),
  privateKey: z.string().min(1),
  expirationTime: z.number().int().positive(),
});

/** The apiz host of an api host (`https://api.sandbox.ebay.com` → `https://apiz.sandbox.ebay.com`); a stand-in's stays. */
export function apizBaseOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (/^api\./.test(url.hostname)) url.hostname = url.hostname.replace(/^api\./, "apiz.");
  return url.toString().replace(/\/+$/, "");
}

/** A token is renewed this long before eBay says it expires, so that no request leaves with a dying token. */
export const ebayTokenMarginMs = 5 * 60_000;
// eBay that has not answered in this time is treated as unreachable; the caller's retry decides what next.
const ebayTimeoutMs = 30_000;

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });
const oauthError = z.object({ error: z.string(), error_description: z.string().optional() });
const errorDetail = z.object({
  errorId: z.coerce.number(),
  domain: z.string().catch(""),
  category: z.string().catch(""),
  message: z.string().catch(""),
  longMessage: z.string().optional(),
  parameters: z.array(z.object({ name: z.string(), value: z.coerce.string() })).optional(),
});
/** eBay's error entries, as `errors[]` of a failed call or of one item of a bulk call. */
export const ebayErrors = z.array(errorDetail).catch([]);
const errorDocument = z.object({ errors: ebayErrors });

/** eBay's words for its errors: the message and, when it says more, the long message, with the error id. */
export function ebayErrorText(details: readonly MarketplaceErrorDetail[]): string {
  return details.map((detail) => `${detail.longMessage && detail.longMessage !== detail.message ? detail.longMessage : detail.message} (error ${detail.errorId})`).join("; ");
}

export type EbayClient = ReturnType<typeof createEbayClient>;

export function createEbayClient(options: EbayClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const apizBaseUrl = apizBaseOf(baseUrl);
  const basic = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`;
  // The user token as last read or renewed, shared by concurrent calls, as is a renewal under way.
  let userToken: EbayToken | null = null;
  let pendingUserToken: Promise<EbayToken> | null = null;
  // A token eBay answered 401 to: not used again even if the store still holds it.
  let rejectedToken: string | null = null;
  let applicationToken: EbayToken | null = null;
  let pendingApplicationToken: Promise<EbayToken> | null = null;
  let signingKey: StoredSigningKey | null = null;
  let pendingSigningKey: Promise<StoredSigningKey> | null = null;

  const fresh = (token: EbayToken | null): token is EbayToken =>
    token !== null && token.accessToken !== rejectedToken && token.expiresAt.getTime() - ebayTokenMarginMs > options.now().getTime();

  async function requestToken(form: Record<string, string>): Promise<EbayToken> {
    const response = await send("token", `${baseUrl}/identity/v1/oauth2/token`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
    });
    const text = await textOf("token", response);
    if (!response.ok) {
      const said = errorDocumentOf(oauthError, text);
      const why = said.error ? `${said.error}${said.error_description ? `: ${said.error_description}` : ""}` : `HTTP ${response.status}`;
      throw new MarketplaceError(
        "token",
        response.status,
        [],
        response.status >= 500 || response.status === 429
          ? `eBay could not renew the shop's access token (${why}); try again later.`
          : `eBay refused the shop's credentials (${why}): check EBAY_CLIENT_ID and EBAY_CLIENT_SECRET, or sign in to eBay again for a new EBAY_REFRESH_TOKEN.`,
      );
    }
    const answer = read("token", tokenAnswer, jsonAnswer("token", text));
    return { accessToken: answer.access_token, expiresAt: new Date(options.now().getTime() + answer.expires_in * 1000) };
  }

  /** The seller's access token: the one in memory, else the stored one, else a new one from the refresh token. */
  function userAccessToken(): Promise<EbayToken> {
    if (fresh(userToken)) return Promise.resolve(userToken);
    pendingUserToken ??= (async () => {
      try {
        // Another process may have renewed it already.
        const stored = await options.tokenStore.read();
        if (fresh(stored)) return (userToken = stored);
        const renewed = await requestToken({ grant_type: "refresh_token", refresh_token: options.refreshToken, scope: ebayUserScopes.join(" ") });
        await options.tokenStore.write(renewed);
        return (userToken = renewed);
      } finally {
        pendingUserToken = null;
      }
    })();
    return pendingUserToken;
  }

  /**
   * A new seller's token from the refresh token now, stored for every process: the Test connection, which must
   * prove the refresh token itself rather than a token renewed from it earlier.
   */
  async function renewUserAccessToken(): Promise<EbayToken> {
    const renewed = await requestToken({ grant_type: "refresh_token", refresh_token: options.refreshToken, scope: ebayUserScopes.join(" ") });
    await options.tokenStore.write(renewed);
    return (userToken = renewed);
  }

  function applicationAccessToken(): Promise<EbayToken> {
    if (fresh(applicationToken)) return Promise.resolve(applicationToken);
    pendingApplicationToken ??= (async () => {
      try {
        return (applicationToken = await requestToken({ grant_type: "client_credentials", scope: applicationScope }));
      } finally {
        pendingApplicationToken = null;
      }
    })();
    return pendingApplicationToken;
  }

  const usable = (key: StoredSigningKey | null): key is StoredSigningKey => key !== null && key.expiresAt.getTime() - ebaySigningKeyMarginMs > options.now().getTime();

  /**
   * The key calls are signed with: the one in memory, else the stored one, else a new Ed25519 key pair from the Key
   * Management API (createSigningKey, with the application token), stored at once: eBay never gives its private key
   * again.
   */
  function currentSigningKey(): Promise<StoredSigningKey> {
    if (usable(signingKey)) return Promise.resolve(signingKey);
    pendingSigningKey ??= (async () => {
      try {
        const stored = await options.signingKeyStore.read();
        if (usable(stored)) return (signingKey = stored);
        const body = await call("createSigningKey", { method: "POST", host: "apiz", path: "/developer/key_management/v1/signing_key", body: { signingKeyCipher: "ED25519" } }, "application");
        const answer = read("createSigningKey", signingKeyAnswer, body);
        const created = { signingKeyId: answer.signingKeyId, jwe: answer.jwe, privateKey: answer.privateKey, expiresAt: new Date(answer.expirationTime * 1000) };
        await options.signingKeyStore.write(created);
        return (signingKey = created);
      } finally {
        pendingSigningKey = null;
      }
    })();
    return pendingSigningKey;
  }

  /**
   * One call to eBay's REST APIs as the seller (or, with `application`, as the shop's eBay application), answered
   * with the JSON eBay sent (`{}` for an empty answer). A 401 (the token expired early or was revoked)
   * gets a new token and one more try.
   */
  async function call(name: string, request: EbayRequest, as: "user" | "application" = "user"): Promise<unknown> {
    const token = () => (as === "user" ? userAccessToken() : applicationAccessToken());
    const url = `${request.host === "apiz" ? apizBaseUrl : baseUrl}${request.path}`;
    const body = request.body === undefined ? null : JSON.stringify(request.body);
    // The calls eBay wants signed carry the signature (ebay-signature.ts), made anew for each attempt.
    const signed = ebayRequiresSignature(request.method, request.path) ? await currentSigningKey() : null;
    const attempt = async (bearer: string) =>
      send(name, url, {
        method: request.method,
        headers: {
          authorization: `${request.tokenScheme ?? "Bearer"} ${bearer}`,
          accept: "application/json",
          ...(body === null ? {} : { "content-type": "application/json" }),
          ...request.headers,
          ...(signed ? ebaySignatureHeaders({ method: request.method, url, body }, signed, options.now()) : {}),
        },
        ...(body === null ? {} : { body }),
      });
    const first = await token();
    let response = await attempt(first.accessToken);
    if (response.status === 401) {
      await response.body?.cancel();
      if (as === "user") rejectedToken = first.accessToken;
      else if (applicationToken?.accessToken === first.accessToken) applicationToken = null;
      response = await attempt((await token()).accessToken);
    }
    const text = await textOf(name, response);
    if (!response.ok) throw errorOf(name, response.status, text);
    return jsonAnswer(name, text);
  }

  return {
    call,
    /** The seller's token, renewed when it is near its end; throws the MarketplaceError of a refused renewal. */
    userAccessToken,
    /** The signing key, made with eBay when the shop has none (or it is near its end). */
    currentSigningKey,
    renewUserAccessToken,
  };
}

async function send(name: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(ebayTimeoutMs) });
  } catch (error) {
    throw new MarketplaceError(name, null, [], `eBay could not be reached for ${name}: ${reasonOf(error)}`, { cause: error });
  }
}

/** An answer cut off while it was read is no answer: the request may have done its work all the same. */
async function textOf(name: string, response: Response): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new MarketplaceError(name, null, [], `eBay's answer to ${name} was cut off: ${reasonOf(error)}`, { cause: error });
  }
}

// A successful answer that does not read is as good as none: we cannot tell what came of the request.
function jsonAnswer(name: string, text: string): unknown {
  try {
    return jsonOf(text);
  } catch (error) {
    throw new MarketplaceError(name, null, [], `eBay answered ${name} with something that is not JSON: ${text.slice(0, 200)}`, { cause: error });
  }
}

/** eBay's answer to a call read with its schema; one that does not fit is as good as no answer. */
export function read<T>(name: string, schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new MarketplaceError(name, null, [], `eBay answered ${name} with something we could not read: ${JSON.stringify(body).slice(0, 200)}`, { cause: parsed.error });
}

function errorOf(name: string, status: number, text: string): MarketplaceError {
  const details = errorDocumentOf(errorDocument, text).errors ?? [];
  const said = details.length > 0 ? ebayErrorText(details) : `HTTP ${status}`;
  // eBay's digital-signature refusals (2150xx, 2151xx) are the signature's, not the access token's.
  const aboutSignature = details.some((detail) => detail.errorId >= 215000 && detail.errorId < 215200);
  const message = aboutSignature
    ? `eBay refused the digital signature of ${name} (${said}): the signing key may have been revoked; see the signing key on the integrations page.`
    : status === 401 || status === 403
      ? `eBay refused the shop's access for ${name} (${said}): sign in to eBay again for a new EBAY_REFRESH_TOKEN with the sell scopes.`
      : status === 429
        ? `eBay is limiting the shop's calls (${name}: ${said}); try again later.`
        : status >= 500
          ? `eBay could not handle ${name} (${said}); try again later.`
          : `eBay refused ${name}: ${said}`;
  return new MarketplaceError(name, status, details, message);
}
