import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { base64url, createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "@/env";
import { createAuthHandlers } from "@/server/auth/handlers";
import { shopUrl } from "@/server/config/shop-url";
import { account, logbook, user } from "@/server/db/schema";
import { googleSignIn } from "@/server/integrations/identity/identity";
import {
  createSandboxIdentity,
  sandboxGoogleAccountInput,
  sandboxGoogleClient,
  STAFF_ACCOUNT_REFUSED,
  type AuthorizationRequest,
  type SandboxIdentity,
} from "@/server/integrations/identity/sandbox";
import { createOutboxMail } from "@/server/integrations/mail/sandbox";
import { logger } from "@/server/logger";
import { demoUsers } from "@/server/setup/seed/reference-data";
import { startProviderServer, type ProviderServer, type ReceivedRequest } from "../helpers/provider-server";
import { AuthBrowser } from "../helpers/auth-browser";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// The sandbox's stand-in for Google, end to end with the shop's Auth.js: the shop serves both, so the stand-in's
// endpoints answer on a local HTTP server that is the shop's address here, and Auth.js fetches discovery and the
// token from it over HTTP as it does in the running shop. The authorization page's choice is the service call its
// form makes.

const SECRET = "a-test-secret-of-at-least-thirty-two-characters";
let t: TestDatabase;
let shop: ProviderServer;
let origin: string;
let identity: SandboxIdentity;
let handlers: ReturnType<typeof createAuthHandlers>;

/** The stand-in's route handlers, as the shop's routes under /sandbox/google serve them. */
async function standIn(received: ReceivedRequest) {
  const url = `${origin}${received.path}?${received.query.toString()}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(received.headers)) if (typeof value === "string") headers.set(name, value);
  const request = new Request(url, { method: received.method, headers, ...(received.method === "POST" ? { body: received.body } : {}) });
  const routes: Record<string, () => Response | Promise<Response>> = {
    "GET /sandbox/google/.well-known/openid-configuration": () => identity.discovery(),
    "GET /sandbox/google/jwks": () => identity.jwks(),
    "POST /sandbox/google/token": () => identity.token(request),
    "GET /sandbox/google/userinfo": () => identity.userinfo(request),
  };
  const route = routes[`${received.method} ${received.path}`];
  const response = route ? await route() : new Response("Not found", { status: 404 });
  return { status: response.status, body: await response.text(), headers: Object.fromEntries(response.headers) };
}

/** A browser at the shop's /api/auth, on this file's handlers and database. */
class Browser extends AuthBrowser {
  constructor() {
    super({ handlers: () => handlers, origin, db: () => t.db });
  }
}

/** "Continue with Google": Auth.js sends the browser to the stand-in's page; this is the request that page reads. */
async function continueWithGoogle(browser: Browser): Promise<AuthorizationRequest> {
  const start = await browser.post("/api/auth/signin/google", { callbackUrl: `${origin}/account` });
  const authorize = new URL(((await start.json()) as { url: string }).url);
  expect(`${authorize.origin}${authorize.pathname}`).toBe(`${origin}/sandbox/google/authorize`);
  return identity.readAuthorizationRequest(authorize.searchParams);
}

/** The whole journey: the page's choice, then the browser back at the shop's callback. */
async function signInAs(browser: Browser, email: string, name: string | null = null): Promise<Response> {
  const back = await identity.authorize(await continueWithGoogle(browser), { email, name });
  expect(back.startsWith(`${origin}/api/auth/callback/google?`)).toBe(true);
  return browser.get(back);
}

/** A code as Auth.js would get one, with a PKCE pair of our own, for the token endpoint's checks. */
async function codeFor(email: string) {
  const verifier = base64url.encode(randomBytes(32));
  const challenge = base64url.encode(createHash("sha256").update(verifier).digest());
  const back = await identity.authorize(
    {
      response_type: "code",
      client_id: identity.client.clientId,
      redirect_uri: `${origin}/api/auth/callback/google`,
      scope: "openid email profile",
      code_challenge: challenge,
      code_challenge_method: "S256",
    },
    { email, name: "Tom Token" },
  );
  return { code: new URL(back).searchParams.get("code")!, verifier };
}

function tokenRequest(form: Record<string, string>, secret = identity.client.clientSecret): Request {
  return new Request(`${origin}/sandbox/google/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "authorization_code", redirect_uri: `${origin}/api/auth/callback/google`, ...form }),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${identity.client.clientId}:${secret}`).toString("base64")}`,
    },
  });
}

async function makeUser(email: string, role: "USER" | "ADMIN" = "USER") {
  const [row] = await t.db.insert(user).values({ email, name: null, role }).returning();
  return row!;
}

beforeAll(async () => {
  t = await createTestDatabase();
  shop = await startProviderServer(standIn);
  origin = shop.url;
  identity = createSandboxIdentity({ db: t.db, baseUrl: origin, secret: SECRET, demoCustomer: demoUsers.customer });
  handlers = createAuthHandlers(() => ({
    db: t.db,
    mail: createOutboxMail({ db: t.db, from: "Shop <shop@example.com>", log: logger }),
    log: logger,
    secret: SECRET,
    visitorTokenSecret: SECRET,
    shopName: "Balance & Crown",
    google: sandboxGoogleClient({ baseUrl: origin, secret: SECRET }),
    origin,
  }));
});

afterAll(async () => {
  await shop?.close();
  await t?.dispose();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Google sign-in with sandbox integrations", () => {
  it("is always on, served by the stand-in on the shop's own address", () => {
    expect(env.INTEGRATIONS).toBe("sandbox");
    expect(googleSignIn()).toEqual({ clientId: "shop-sandbox", clientSecret: expect.any(String), issuer: `${shopUrl()}/sandbox/google` });
    expect(googleSignIn()).toEqual(sandboxGoogleClient({ baseUrl: shopUrl(), secret: env.AUTH_SECRET }));
  });

  it("signs a new customer in with the address chosen on the stand-in's page, verified, as USER", async () => {
    const browser = new Browser();
    const request = await continueWithGoogle(browser);
    // Auth.js's own request: the shop's client, its callback, and PKCE.
    expect(request).toMatchObject({ client_id: "shop-sandbox", redirect_uri: `${origin}/api/auth/callback/google`, code_challenge_method: "S256" });

    const callback = await browser.get(await identity.authorize(request, { email: "greta.google@example.com", name: "Greta Google" }));
    expect(callback.headers.get("location")).toBe(`${origin}/account`);
    const session = await browser.session();
    expect(session?.user).toMatchObject({ email: "greta.google@example.com", name: "Greta Google", role: "USER" });
    const links = await t.db.select().from(account).where(eq(account.userId, session!.user.id));
    expect(links.map((l) => l.provider)).toEqual(["google"]);
    // The sign-up is in the logbook, once, as an e-mail link's is.
    const entries = await t.db.select({ description: logbook.description, userId: logbook.userId, entityType: logbook.entityType }).from(logbook).where(eq(logbook.entityId, session!.user.id));
    expect(entries).toEqual([{ description: "New customer account: greta.google@example.com signed up with Google", userId: session!.user.id, entityType: "USER" }]);
    // Auth.js asked the stand-in over HTTP, as it asks Google.
    expect(shop.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["GET /sandbox/google/.well-known/openid-configuration", "POST /sandbox/google/token"]),
    );
  });

  it("signs an existing customer in to their own account, and again the next time", async () => {
    const existing = await makeUser("returning@example.com");
    const first = new Browser();
    await signInAs(first, "Returning@Example.com");
    expect((await first.session())?.user.id).toBe(existing.id);
    const second = new Browser();
    await signInAs(second, "returning@example.com");
    expect((await second.session())?.user.id).toBe(existing.id);
    expect(await t.db.$count(user, eq(user.email, "returning@example.com"))).toBe(1);
  });

  it("offers the demo customer and the newest customers on its page, never staff", async () => {
    await makeUser("recent.customer@example.com");
    await makeUser("chooser.staff@example.com", "ADMIN");
    const emails = (await identity.accountsToChoose()).map((a) => a.email);
    expect(emails[0]).toBe("customer@example.com");
    expect(emails).toContain("recent.customer@example.com");
    expect(emails).not.toContain("chooser.staff@example.com");
  });
});

describe("staff accounts sign in with the e-mail link only", () => {
  it("refuses a staff address on the page, whatever its case, and nobody is signed in", async () => {
    await makeUser("staff@example.com", "ADMIN");
    const browser = new Browser();
    const request = await continueWithGoogle(browser);
    await expect(identity.authorize(request, { email: "staff@example.com", name: null })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: STAFF_ACCOUNT_REFUSED,
    });
    // What the page's form sends, as its action reads it.
    const typed = sandboxGoogleAccountInput.parse({ email: "Staff@Example.COM", name: "" });
    await expect(identity.authorize(request, typed)).rejects.toThrow(STAFF_ACCOUNT_REFUSED);
    expect(await browser.session()).toBeNull();
  });

  it("refuses the Google account of a customer who has become staff since, even under the old address", async () => {
    const browser = new Browser();
    await signInAs(browser, "promoted@example.com");
    const promoted = (await browser.session())!.user;
    await t.db.update(user).set({ role: "ADMIN", email: "promoted.staff@example.com" }).where(eq(user.id, promoted.id));
    const request = await continueWithGoogle(new Browser());
    await expect(identity.authorize(request, { email: "promoted@example.com", name: null })).rejects.toThrow(STAFF_ACCOUNT_REFUSED);
  });

  it("refuses at the token endpoint a code issued before the customer became staff", async () => {
    const browser = new Browser();
    const back = await identity.authorize(await continueWithGoogle(browser), { email: "soon.staff@example.com", name: null });
    await makeUser("soon.staff@example.com", "ADMIN");
    const callback = await browser.get(back);
    expect(callback.headers.get("location")).toContain("/sign-in?error=");
    expect(await browser.session()).toBeNull();
  });
});

describe("the stand-in answers only the shop, as an OpenID Connect provider", () => {
  it("refuses a request that would send the browser anywhere but the shop's callback, or lacks PKCE", async () => {
    const request = await continueWithGoogle(new Browser());
    const query = (changes: Record<string, string | null>) => {
      const params = new URLSearchParams(identity.authorizationQuery(request));
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) params.delete(name);
        else params.set(name, value);
      }
      return params;
    };
    expect(() => identity.readAuthorizationRequest(query({ redirect_uri: "https://evil.example/api/auth/callback/google" }))).toThrow(/not to the shop/);
    expect(() => identity.readAuthorizationRequest(query({ client_id: "someone-else" }))).toThrow(/client/);
    expect(() => identity.readAuthorizationRequest(query({ code_challenge: null }))).toThrow(/PKCE/);
    expect(() => identity.readAuthorizationRequest(query({ code_challenge_method: "plain" }))).toThrow(/S256/);
    const twice = query({});
    twice.append("redirect_uri", "https://evil.example/");
    expect(() => identity.readAuthorizationRequest(twice)).toThrow(/more than once/);
    expect(identity.readAuthorizationRequest(query({}))).toEqual(request);
  });

  it("exchanges a code once its client secret, redirect_uri and PKCE verifier are right, for an ID token signed with its published key", async () => {
    const { code, verifier } = await codeFor("token.check@example.com");

    expect((await identity.token(tokenRequest({ code, code_verifier: verifier }, "not-the-secret"))).status).toBe(401);
    const wrongVerifier = await identity.token(tokenRequest({ code, code_verifier: base64url.encode(randomBytes(32)) }));
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: "invalid_grant" });
    const wrongRedirect = await identity.token(tokenRequest({ code, code_verifier: verifier, redirect_uri: "https://evil.example/callback" }));
    expect(wrongRedirect.status).toBe(400);
    const anotherShop = createSandboxIdentity({ db: t.db, baseUrl: origin, secret: "another-shop-secret-of-thirty-two-characters" });
    const foreign = new URL(await anotherShop.authorize(await continueWithGoogle(new Browser()), { email: "x@example.com", name: null })).searchParams.get("code")!;
    expect((await identity.token(tokenRequest({ code: foreign, code_verifier: verifier }))).status).toBe(400);

    const answer = await identity.token(tokenRequest({ code, code_verifier: verifier }));
    expect(answer.status).toBe(200);
    const tokens = (await answer.json()) as { id_token: string; access_token: string; token_type: string };
    expect(tokens.token_type).toBe("Bearer");
    const keys = createRemoteJWKSet(new URL(`${origin}/sandbox/google/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token, keys, { issuer: `${origin}/sandbox/google`, audience: "shop-sandbox" });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload).toMatchObject({ email: "token.check@example.com", email_verified: true, name: "Tom Token" });

    const profile = await identity.userinfo(new Request(`${origin}/sandbox/google/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } }));
    expect(await profile.json()).toEqual({ sub: payload.sub, email: "token.check@example.com", name: "Tom Token", email_verified: true });
    expect((await identity.userinfo(new Request(`${origin}/sandbox/google/userinfo`, { headers: { authorization: "Bearer forged" } }))).status).toBe(401);
  });

  it("refuses a code after its minute is up", async () => {
    const { code, verifier } = await codeFor("slow@example.com");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    const late = await identity.token(tokenRequest({ code, code_verifier: verifier }));
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("keeps the same keys and client secret on every instance of the shop (derived from AUTH_SECRET)", async () => {
    const otherInstance = createSandboxIdentity({ db: t.db, baseUrl: origin, secret: SECRET });
    expect(otherInstance.client).toEqual(identity.client);
    expect(await (await otherInstance.jwks()).json()).toEqual(await (await identity.jwks()).json());
    const { code, verifier } = await codeFor("any.instance@example.com");
    expect((await otherInstance.token(tokenRequest({ code, code_verifier: verifier }))).status).toBe(200);
  });
});
