import { eq } from "drizzle-orm";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAuthHandlers } from "@/server/auth/handlers";
import { EMAIL_ADDRESS_LIMIT, EMAIL_CLIENT_LIMIT, EMAIL_VISITOR_LIMIT } from "@/server/auth/sign-in-limits";
import { issueVisitorToken } from "@/server/token/service";
import { account, logbook, mailOutbox, rateLimit, user, verificationToken } from "@/server/db/schema";
import { createOutboxMail, listOutbox } from "@/server/integrations/mail/sandbox";
import { logger } from "@/server/logger";
import { AuthBrowser } from "../helpers/auth-browser";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// Auth.js as the browser meets it at /api/auth, on a fresh database, with the sandbox outbox for mail and a local
// OpenID Connect server standing in for Google.

const ORIGIN = "http://shop.test";
const VISITOR_SECRET = "a-visitor-token-secret-of-thirty-two-characters";
let t: TestDatabase;
let oidc: OAuth2Server;
let googleUser: { sub: string; email: string; email_verified: boolean; name: string };
let handlers: ReturnType<typeof createAuthHandlers>;

/** A browser at the shop's /api/auth, on this file's handlers and database. */
class Browser extends AuthBrowser {
  constructor(ip?: string) {
    super({ handlers: () => handlers, origin: ORIGIN, db: () => t.db }, ip);
  }
}

async function requestLink(browser: Browser, email: string, callbackUrl = `${ORIGIN}/account`) {
  return browser.post("/api/auth/signin/nodemailer", { email, callbackUrl });
}

async function latestLink(email: string): Promise<string> {
  const [message] = await listOutbox(t.db, { to: email, limit: 1 });
  if (!message?.links[0]) throw new Error(`no e-mail for ${email}`);
  return message.links[0];
}

beforeAll(async () => {
  // Requests here come through the front door, which names the client in x-shop-client.
  process.env.SHOP_FRONT_DOOR = "1";
  t = await createTestDatabase();
  oidc = new OAuth2Server();
  await oidc.issuer.keys.generate("RS256");
  await oidc.start(0, "127.0.0.1");
  oidc.service.on("beforeTokenSigning", (token) => {
    Object.assign(token.payload, googleUser);
  });
  oidc.service.on("beforeUserinfo", (response) => {
    response.body = { ...googleUser };
  });
  handlers = createAuthHandlers(() => ({
    db: t.db,
    mail: createOutboxMail({ db: t.db, from: "Shop <shop@example.com>", log: logger }),
    log: logger,
    secret: "a-test-secret-of-at-least-thirty-two-characters",
    visitorTokenSecret: VISITOR_SECRET,
    shopName: "Balance & Crown",
    google: { clientId: "shop-client", clientSecret: "shop-secret", issuer: oidc.issuer.url! },
    origin: ORIGIN,
  }));
});

afterAll(async () => {
  delete process.env.SHOP_FRONT_DOOR;
  await oidc?.stop();
  await t?.dispose();
});

beforeEach(async () => {
  await t.db.delete(rateLimit);
});

/** The logbook's sign-up entries about one user. */
async function signUpsOf(userId: string): Promise<string[]> {
  const rows = await t.db.select({ description: logbook.description, entityType: logbook.entityType, entityId: logbook.entityId, eventType: logbook.eventType }).from(logbook).where(eq(logbook.entityId, userId));
  return rows.filter((row) => row.entityType === "USER" && row.eventType === "CUSTOMER" && row.description.startsWith("New customer account")).map((row) => row.description);
}

describe("sign-in by e-mail link", () => {
  it("sends a branded e-mail through the outbox and signs a new customer in with the role USER", async () => {
    const browser = new Browser();
    const response = await requestLink(browser, "New.Collector@Example.com");
    expect(response.status).toBe(200);
    const [message] = await listOutbox(t.db, { to: "new.collector@example.com" });
    expect(message?.subject).toBe("Sign in to Balance & Crown");
    expect(message?.html).toContain("<h1");
    expect(message?.html).toContain('href="http://shop.test/api/auth/callback/nodemailer?');
    expect(message?.text).toContain(message?.links[0]);

    const callback = await browser.get(await latestLink("new.collector@example.com"));
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/account`);
    const session = await browser.session();
    expect(session?.user).toMatchObject({ email: "new.collector@example.com", role: "USER" });

    const served = (await (await browser.get("/api/auth/session")).json()) as Record<string, unknown>;
    expect(served.user).toEqual({ id: session?.user.id, name: null, email: "new.collector@example.com", image: null, role: "USER" });
    // The browser learns who is signed in and until when, never the session token.
    expect(Object.keys(served).sort()).toEqual(["expires", "user"]);
    expect(await signUpsOf(session!.user.id)).toEqual(["New customer account: new.collector@example.com signed up by e-mail link"]);

    // Signing in again is no new sign-up.
    const again = new Browser();
    await requestLink(again, "new.collector@example.com");
    await again.get(await latestLink("new.collector@example.com"));
    expect(await signUpsOf(session!.user.id)).toHaveLength(1);
  });

  it("keeps the link's token only hashed, so that a copy of the database holds no sign-in link (N-M6)", async () => {
    const email = "hashed-link@example.com";
    await requestLink(new Browser(), email);
    const token = new URL(await latestLink(email)).searchParams.get("token")!;
    expect(token.length).toBeGreaterThan(20);
    const stored = await t.db.select().from(verificationToken).where(eq(verificationToken.identifier, email));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("refuses a callbackUrl on another origin and sends the customer to the shop instead", async () => {
    const browser = new Browser();
    await requestLink(browser, "redirect@example.com", "https://evil.example/steal");
    const link = new URL(await latestLink("redirect@example.com"));
    expect(link.origin).toBe(ORIGIN);
    expect(link.searchParams.get("callbackUrl")).toBe(ORIGIN);
    const callback = await browser.get(link.toString());
    expect(new URL(callback.headers.get("location")!).origin).toBe(ORIGIN);

    const sneaky = new Browser();
    await requestLink(sneaky, "redirect2@example.com", "//evil.example/steal");
    expect(new URL(new URL(await latestLink("redirect2@example.com")).searchParams.get("callbackUrl")!).origin).toBe(ORIGIN);
  });

  it("signs out back to the home page", async () => {
    const browser = new Browser();
    await requestLink(browser, "leaver@example.com");
    await browser.get(await latestLink("leaver@example.com"));
    expect(await browser.session()).not.toBeNull();
    const response = await browser.post("/api/auth/signout", { callbackUrl: "/" });
    expect(((await response.json()) as { url: string }).url).toBe(`${ORIGIN}/`);
    expect(await browser.session()).toBeNull();
  });
});

describe("sign-in e-mail rate limit (kept in the database)", () => {
  it("sends at most the address limit to one address, then answers 429 with EmailRateLimit", async () => {
    const email = "flooded@example.com";
    for (let i = 0; i < EMAIL_ADDRESS_LIMIT.limit; i++) {
      // A different client each time: the address limit holds on its own.
      expect((await requestLink(new Browser(`203.0.113.${i + 1}`), email)).status).toBe(200);
    }
    const refused = await requestLink(new Browser("203.0.113.99"), email);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { url: string }).url).toContain("error=EmailRateLimit");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.to, email))).toBe(EMAIL_ADDRESS_LIMIT.limit);
  });

  it("limits one client across addresses", async () => {
    const client = "192.0.2.44";
    for (let i = 0; i < EMAIL_CLIENT_LIMIT.limit; i++) {
      expect((await requestLink(new Browser(client), `spray-${i}@example.com`)).status).toBe(200);
    }
    expect((await requestLink(new Browser(client), "spray-last@example.com")).status).toBe(429);
    // Another client is not affected.
    expect((await requestLink(new Browser("192.0.2.45"), "spray-last@example.com")).status).toBe(200);
  });

  it("starts afresh once a link has signed the customer in", async () => {
    const email = "regular@example.com";
    const browser = new Browser("192.0.2.80");
    for (let i = 0; i < EMAIL_ADDRESS_LIMIT.limit; i++) await requestLink(browser, email);
    expect((await requestLink(browser, email)).status).toBe(429);
    await t.db.delete(rateLimit);
    for (let i = 0; i < EMAIL_ADDRESS_LIMIT.limit; i++) await requestLink(browser, email);
    await browser.get(await latestLink(email));
    expect(await browser.session()).not.toBeNull();
    expect((await requestLink(new Browser("192.0.2.80"), email)).status).toBe(200);
  });

  it("keeps counting the client after one of its links signed someone in, so that signing in never buys more mail (N-M1)", async () => {
    const client = "192.0.2.81";
    const own = "attacker@example.com";
    expect((await requestLink(new Browser(client), own)).status).toBe(200);
    for (let i = 1; i < EMAIL_CLIENT_LIMIT.limit; i++) expect((await requestLink(new Browser(client), `victim-${i}@example.com`)).status).toBe(200);
    const browser = new Browser(client);
    await browser.get(await latestLink(own));
    expect(await browser.session()).not.toBeNull();
    expect((await requestLink(new Browser(client), "victim-next@example.com")).status).toBe(429);
    // The address that signed in starts afresh: its owner is not locked out by their own links.
    expect(await t.db.$count(rateLimit, eq(rateLimit.key, `sign-in-email:address:${own}`))).toBe(0);
  });

  it("counts JSON bodies as well as forms (SECURITY-REVIEW H2)", async () => {
    const email = "json-flood@example.com";
    for (let i = 0; i < EMAIL_ADDRESS_LIMIT.limit; i++) {
      expect((await new Browser(`203.0.113.${120 + i}`).post("/api/auth/signin/nodemailer", { email }, { json: true })).status).toBe(200);
    }
    expect((await new Browser("203.0.113.140").post("/api/auth/signin/nodemailer", { email }, { json: true })).status).toBe(429);
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.to, email))).toBe(EMAIL_ADDRESS_LIMIT.limit);
  });

  it("refuses addresses with a suffix that Auth.js would cut off, so one inbox has one limit (H2)", async () => {
    for (let i = 1; i <= 6; i++) {
      const refused = await requestLink(new Browser(`203.0.113.${150 + i}`), `suffixed@example.com,${i}`);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { url: string }).url).toContain("error=EmailSignin");
    }
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.to, "suffixed@example.com"))).toBe(0);
    const tooLong = await requestLink(new Browser(), `${"a".repeat(250)}@example.com`);
    expect(tooLong.status).toBe(400);
  });

  it("limits one visitor across addresses and networks when the request carries its visitor token", async () => {
    const visitorToken = await issueVisitorToken(VISITOR_SECRET, "sign-in-visitor", new Date());
    for (let i = 0; i < EMAIL_VISITOR_LIMIT.limit; i++) {
      const response = await new Browser(`198.18.0.${i + 1}`).post("/api/auth/signin/nodemailer", { email: `wanderer-${i}@example.com`, visitorToken });
      expect(response.status).toBe(200);
    }
    const refused = await new Browser("198.18.1.1").post("/api/auth/signin/nodemailer", { email: "wanderer-last@example.com", visitorToken });
    expect(refused.status).toBe(429);
    // A made-up token counts as no token: the address and network limits still apply.
    expect((await new Browser("198.18.1.2").post("/api/auth/signin/nodemailer", { email: "wanderer-forged@example.com", visitorToken: "forged" })).status).toBe(200);
  });

  it("keys the client on the front door's address, whatever X-Forwarded-For the client writes (H2)", async () => {
    const client = new Browser("192.0.2.60");
    for (let i = 0; i < EMAIL_CLIENT_LIMIT.limit; i++) {
      const response = await client.post("/api/auth/signin/nodemailer", { email: `rotating-${i}@example.com` }, { headers: { "x-forwarded-for": `10.9.8.${i}` } });
      expect(response.status).toBe(200);
    }
    const refused = await client.post("/api/auth/signin/nodemailer", { email: "rotating-last@example.com" }, { headers: { "x-forwarded-for": "10.9.9.9" } });
    expect(refused.status).toBe(429);
  });
});

describe("the shop's own address in sign-in links (SECURITY-REVIEW H3)", () => {
  it("links to the configured address whatever Host or X-Forwarded-Host the request names", async () => {
    const browser = new Browser("192.0.2.90");
    const response = await browser.post(
      "/api/auth/signin/nodemailer",
      { email: "poisoned@example.com", callbackUrl: "http://evil.example/account" },
      { headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } },
    );
    expect(response.status).toBe(200);
    const link = new URL(await latestLink("poisoned@example.com"));
    expect(link.origin).toBe(ORIGIN);
    expect(new URL(link.searchParams.get("callbackUrl")!).origin).toBe(ORIGIN);
  });
});

describe("sign-in with Google (a local OpenID Connect server)", () => {
  async function signInWithGoogle(browser: Browser) {
    const start = await browser.post("/api/auth/signin/google", { callbackUrl: `${ORIGIN}/account` });
    const authorize = ((await start.json()) as { url: string }).url;
    expect(authorize.startsWith(oidc.issuer.url!)).toBe(true);
    const consent = await fetch(authorize, { redirect: "manual" });
    const back = consent.headers.get("location")!;
    expect(back.startsWith(`${ORIGIN}/api/auth/callback/google`)).toBe(true);
    return browser.get(back);
  }

  it("creates an account for a new Google user", async () => {
    googleUser = { sub: "google-new-1", email: "first.google@example.com", email_verified: true, name: "Greta Google" };
    const browser = new Browser();
    const callback = await signInWithGoogle(browser);
    expect(callback.headers.get("location")).toBe(`${ORIGIN}/account`);
    const session = await browser.session();
    expect(session?.user).toMatchObject({ email: "first.google@example.com", name: "Greta Google", role: "USER" });
    const links = await t.db.select().from(account).where(eq(account.userId, session!.user.id));
    expect(links.map((l) => [l.provider, l.providerAccountId])).toEqual([["google", "google-new-1"]]);
    expect(await signUpsOf(session!.user.id)).toEqual(["New customer account: first.google@example.com signed up with Google"]);
  });

  it("links Google to the account a customer made by e-mail link, keeping one user", async () => {
    const email = "linked@example.com";
    const first = new Browser();
    await requestLink(first, email);
    await first.get(await latestLink(email));
    const byEmail = await first.session();

    googleUser = { sub: "google-linked-2", email, email_verified: true, name: "Linda Linked" };
    const second = new Browser();
    await signInWithGoogle(second);
    const byGoogle = await second.session();
    expect(byGoogle?.user.id).toBe(byEmail?.user.id);
    expect(await t.db.$count(user, eq(user.email, email))).toBe(1);
    expect(await t.db.$count(account, eq(account.userId, byEmail!.user.id))).toBe(1);
    // One account, so one sign-up: Google linked later is no second one.
    expect(await signUpsOf(byEmail!.user.id)).toEqual(["New customer account: linked@example.com signed up by e-mail link"]);
  });

  it("refuses a Google address Google has not verified", async () => {
    googleUser = { sub: "google-unverified-3", email: "unverified@example.com", email_verified: false, name: "Una" };
    const browser = new Browser();
    const callback = await signInWithGoogle(browser);
    expect(callback.headers.get("location")).toContain("error=AccessDenied");
    expect(await browser.session()).toBeNull();
  });
});
