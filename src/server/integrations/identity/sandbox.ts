import "server-only";
import { createECDH, createHash, createPrivateKey, hkdfSync, timingSafeEqual, type KeyObject } from "node:crypto";
import { and, desc, eq, ne, or, sql } from "drizzle-orm";
import { base64url, calculateJwkThumbprint, jwtVerify, SignJWT, type JWK } from "jose";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { account, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { CALLBACK_BODY_LIMIT, readTextWithin } from "@/server/http/request-guards";

/**
 * The embedded default's stand-in for Google sign-in: an OpenID Connect provider inside the shop, at
 * `/sandbox/google`, that Auth.js talks to exactly as it talks to Google (discovery, the authorization page, the
 * token endpoint, keys and userinfo). On its page a tester picks or types an address, and the shop receives it as
 * an address Google has verified.
 *
 * It keeps nothing: an authorization code is a short-lived signed token carrying who was chosen and the request it
 * answers, and every key is derived from AUTH_SECRET, so any instance of the shop can finish a sign-in another one
 * started. A code is not marked as used; replaying one needs the client secret and the PKCE verifier, which only
 * the shop's own Auth.js has, and Auth.js forgets the verifier once it has used it.
 *
 * Staff accounts are refused: an ADMIN sign-in must only come from the e-mail link, so that nobody who can reach
 * this page becomes staff by typing a staff address.
 */

/** Where the stand-in lives in the shop; its issuer is the shop's address followed by this path. */
export const sandboxGooglePath = "/sandbox/google";

export const STAFF_ACCOUNT_REFUSED = "Staff accounts sign in with the e-mail link";

const CLIENT_ID = "shop-sandbox";
/** How long the shop has to exchange a code: it does so as soon as the browser comes back. */
const CODE_LIFETIME_SECONDS = 60;
const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;
const ID_TOKEN_LIFETIME_SECONDS = 60 * 60;
const CODE_TYPE = "sandbox-google-code";
const ACCESS_TOKEN_TYPE = "sandbox-google-access";
const SCOPES = ["openid", "email", "profile"];
/** The order of NIST P-256, the range an ES256 private key is drawn from. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** What Auth.js needs to use the stand-in as its Google provider. */
export type SandboxGoogleClient = { clientId: string; clientSecret: string; issuer: string };

/** A person to sign in as: the address the tester picked or typed, and the name Google would report. */
export type SandboxGoogleAccount = { email: string; name: string | null };

export const sandboxGoogleAccountInput = z.object({
  email: z
    .email("Enter a valid e-mail address, like name@example.com")
    .max(254)
    .transform((email) => email.toLowerCase()),
  name: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((name) => name || null),
});

const singleLine = z.string().min(1).max(512);
const required = (name: string) => z.string({ error: `The sign-in request has no ${name}` });
const authorizationRequestSchema = z.object({
  response_type: z.literal("code", { error: "Only the authorization code flow is supported" }),
  client_id: required("client_id"),
  redirect_uri: required("redirect_uri"),
  scope: required("scope").refine((scope) => scope.split(" ").includes("openid"), "The scope must include openid"),
  code_challenge: z.string({ error: "A PKCE code challenge is required" }).regex(/^[A-Za-z0-9_-]{43,128}$/, "A PKCE code challenge is required"),
  code_challenge_method: z.literal("S256", { error: "The PKCE method must be S256" }),
  state: singleLine.optional(),
  nonce: singleLine.optional(),
});

/** A validated request from the shop's Auth.js to sign someone in, as it reached the authorization page. */
export type AuthorizationRequest = z.infer<typeof authorizationRequestSchema>;

const codeClaims = z.object({
  sub: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  redirect_uri: z.string(),
  code_challenge: z.string(),
  scope: z.string(),
  nonce: z.string().optional(),
});

const accessTokenClaims = z.object({ sub: z.string(), email: z.string(), name: z.string().optional() });

function deriveKey(secret: string, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", `sandbox google sign-in: ${purpose}`, length));
}

/**
 * The client credentials the shop's Auth.js uses with the stand-in. The secret is derived from AUTH_SECRET, so the
 * shop and the stand-in agree on it without storing it, and nobody without AUTH_SECRET can exchange a code.
 */
export function sandboxGoogleClient(options: { baseUrl: string; secret: string }): SandboxGoogleClient {
  return {
    clientId: CLIENT_ID,
    clientSecret: base64url.encode(deriveKey(options.secret, "client secret")),
    issuer: `${options.baseUrl.replace(/\/+$/, "")}${sandboxGooglePath}`,
  };
}

/**
 * The ES256 key that signs ID tokens, derived from AUTH_SECRET: the same on every instance and after a restart, and
 * published as a JWKS like Google's keys.
 */
function idTokenSigningKey(secret: string): { privateKey: KeyObject; publicJwk: JWK } {
  const scalar = (BigInt(`0x${deriveKey(secret, "ID token signing key", 48).toString("hex")}`) % (P256_ORDER - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, "0"), "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const publicJwk = { kty: "EC", crv: "P-256", x: base64url.encode(point.subarray(1, 33)), y: base64url.encode(point.subarray(33)) };
  return { privateKey: createPrivateKey({ key: { ...publicJwk, d: base64url.encode(d) }, format: "jwk" }), publicJwk };
}

/** Google's subject is a stable identifier per account; here it follows from the address. */
function subjectFor(email: string): string {
  return createHash("sha256").update(email).digest("hex").slice(0, 24);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** OAuth's error answers (RFC 6749 section 5.2), never cached. */
function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** The client's credentials from HTTP Basic (what Auth.js sends, form-encoded as RFC 6749 2.3.1 says) or the body. */
function clientCredentials(request: Request, form: URLSearchParams): { id: string; secret: string } | null {
  const basic = request.headers.get("authorization")?.match(/^Basic\s+(.+)$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return null;
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    try {
      return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
    } catch {
      return null;
    }
  }
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  return id && secret ? { id, secret } : null;
}

export type SandboxIdentity = ReturnType<typeof createSandboxIdentity>;

/** `demoCustomer`: the account the chooser offers first (the demo shop's customer), given by whoever knows the demo. */
export function createSandboxIdentity(options: { db: Db; baseUrl: string; secret: string; demoCustomer?: SandboxGoogleAccount }) {
  const { db, demoCustomer } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const client = sandboxGoogleClient(options);
  const { issuer } = client;
  /** Auth.js's callback for its Google provider: the only place the stand-in sends anyone back to. */
  const redirectUri = `${baseUrl}/api/auth/callback/google`;
  const tokenKey = deriveKey(options.secret, "codes and access tokens");
  const signing = idTokenSigningKey(options.secret);
  const kid = calculateJwkThumbprint(signing.publicJwk);

  /**
   * The one check that keeps staff out, made when the code is issued and again when it is exchanged: the address is
   * a staff account's, or the Google subject is already linked to one (an account whose address has changed since).
   */
  async function isStaff(email: string, subject: string): Promise<boolean> {
    const [staff] = await db
      .select({ id: user.id })
      .from(user)
      .leftJoin(account, and(eq(account.userId, user.id), eq(account.provider, "google")))
      .where(and(eq(user.role, "ADMIN"), or(eq(sql`lower(${user.email})`, email), eq(account.providerAccountId, subject))))
      .limit(1);
    return staff !== undefined;
  }

  async function verifyToken(token: string, typ: string) {
    const { payload } = await jwtVerify(token, tokenKey, { issuer, audience: CLIENT_ID, typ, algorithms: ["HS256"] });
    return payload;
  }

  return {
    client,

    /** The discovery document (OpenID Connect Discovery 1.0), as Google publishes its own. */
    discovery(): Response {
      return Response.json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256"],
        scopes_supported: SCOPES,
        claims_supported: ["iss", "sub", "aud", "exp", "iat", "email", "email_verified", "name", "nonce"],
        grant_types_supported: ["authorization_code"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        code_challenge_methods_supported: ["S256"],
        authorization_response_iss_parameter_supported: true,
      });
    },

    async jwks(): Promise<Response> {
      return Response.json({ keys: [{ ...signing.publicJwk, kid: await kid, alg: "ES256", use: "sig" }] });
    },

    /**
     * Reads the authorization page's query. Anything but the shop's own client and callback is refused outright,
     * never answered with a redirect (RFC 6749 section 4.1.2.1): the page must not send anyone elsewhere.
     */
    readAuthorizationRequest(query: URLSearchParams): AuthorizationRequest {
      const names = [...query.keys()];
      if (new Set(names).size !== names.length) throw new AppError("BAD_REQUEST", "A sign-in parameter was sent more than once");
      const parsed = authorizationRequestSchema.safeParse(Object.fromEntries(query));
      if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues[0]?.message ?? "The sign-in request is incomplete");
      if (parsed.data.client_id !== CLIENT_ID) throw new AppError("BAD_REQUEST", "This sign-in request is not from the shop's own client");
      if (parsed.data.redirect_uri !== redirectUri) throw new AppError("BAD_REQUEST", `This sign-in request would return to ${parsed.data.redirect_uri}, not to the shop`);
      return parsed.data;
    },

    /** The request again as a query, for the page's forms to send back with the chosen account. */
    authorizationQuery(request: AuthorizationRequest): string {
      return new URLSearchParams(Object.entries(request).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    },

    /** The accounts the chooser offers: the demo customer, if any, and the newest customer accounts (never staff). */
    async accountsToChoose(): Promise<SandboxGoogleAccount[]> {
      const recent = await db
        .select({ email: user.email, name: user.name })
        .from(user)
        .where(and(ne(user.role, "ADMIN"), demoCustomer ? ne(user.email, demoCustomer.email) : undefined))
        .orderBy(desc(user.createdAt))
        .limit(4);
      return demoCustomer ? [{ ...demoCustomer }, ...recent] : recent;
    },

    /** The chosen account goes back to the shop: the address to redirect to, with a code for it. */
    async authorize(request: AuthorizationRequest, chosen: SandboxGoogleAccount): Promise<string> {
      const subject = subjectFor(chosen.email);
      if (await isStaff(chosen.email, subject)) throw new AppError("FORBIDDEN", STAFF_ACCOUNT_REFUSED);
      const code = await new SignJWT({
        email: chosen.email,
        name: chosen.name,
        redirect_uri: request.redirect_uri,
        code_challenge: request.code_challenge,
        scope: request.scope,
        ...(request.nonce ? { nonce: request.nonce } : {}),
      })
        .setProtectedHeader({ alg: "HS256", typ: CODE_TYPE })
        .setIssuer(issuer)
        .setAudience(CLIENT_ID)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime(`${CODE_LIFETIME_SECONDS}s`)
        .sign(tokenKey);
      const back = new URL(request.redirect_uri);
      back.searchParams.set("code", code);
      if (request.state) back.searchParams.set("state", request.state);
      back.searchParams.set("iss", issuer);
      return back.toString();
    },

    /** The token endpoint: a code, the client's credentials and the PKCE verifier in; an ID token out. */
    async token(request: Request): Promise<Response> {
      const body = await readTextWithin(request, CALLBACK_BODY_LIMIT);
      if (body === null) return oauthError(413, "invalid_request", "The request is too large");
      const form = new URLSearchParams(body);
      const credentials = clientCredentials(request, form);
      if (!credentials || credentials.id !== CLIENT_ID || !safeEqual(credentials.secret, client.clientSecret)) {
        return oauthError(401, "invalid_client", "Unknown client or wrong client secret", { "WWW-Authenticate": 'Basic realm="sandbox google"' });
      }
      if (form.get("grant_type") !== "authorization_code") return oauthError(400, "unsupported_grant_type", "Only authorization_code is supported");

      let claims: z.infer<typeof codeClaims>;
      try {
        claims = codeClaims.parse(await verifyToken(form.get("code") ?? "", CODE_TYPE));
      } catch {
        return oauthError(400, "invalid_grant", "The code is invalid or has expired");
      }
      if (form.get("redirect_uri") !== claims.redirect_uri) return oauthError(400, "invalid_grant", "redirect_uri differs from the authorization request");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = base64url.encode(createHash("sha256").update(verifier).digest());
      if (!safeEqual(challenge, claims.code_challenge)) return oauthError(400, "invalid_grant", "The PKCE code verifier does not match the challenge");
      if (await isStaff(claims.email, claims.sub)) return oauthError(400, "invalid_grant", STAFF_ACCOUNT_REFUSED);

      const person = { email: claims.email, ...(claims.name ? { name: claims.name } : {}) };
      // Both tokens of a sign-in: issued by us, now, to the client, about the person who signed in.
      const aboutThisSignIn = (token: SignJWT, lifetimeSeconds: number) =>
        token.setIssuer(issuer).setAudience(CLIENT_ID).setSubject(claims.sub).setIssuedAt().setExpirationTime(`${lifetimeSeconds}s`);
      const accessToken = await aboutThisSignIn(new SignJWT(person).setProtectedHeader({ alg: "HS256", typ: ACCESS_TOKEN_TYPE }), ACCESS_TOKEN_LIFETIME_SECONDS).sign(tokenKey);
      const idToken = await aboutThisSignIn(
        new SignJWT({ ...person, email_verified: true, azp: CLIENT_ID, ...(claims.nonce ? { nonce: claims.nonce } : {}) }).setProtectedHeader({ alg: "ES256", kid: await kid, typ: "JWT" }),
        ID_TOKEN_LIFETIME_SECONDS,
      ).sign(signing.privateKey);
      return Response.json(
        { access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_LIFETIME_SECONDS, scope: claims.scope, id_token: idToken },
        { headers: { "Cache-Control": "no-store" } },
      );
    },

    /** The userinfo endpoint, for a client that asks for the profile with the access token. */
    async userinfo(request: Request): Promise<Response> {
      const token = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
      try {
        const claims = accessTokenClaims.parse(await verifyToken(token, ACCESS_TOKEN_TYPE));
        return Response.json({ ...claims, email_verified: true });
      } catch {
        return new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });
      }
    },
  };
}
