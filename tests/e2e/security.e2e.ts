import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { baseUrl, openBrowser, type BrowserSession } from "./browser";
import { loginDialog, openWith, serverLogLinks, signInAs } from "./sign-in";

/**
 * The shop as an attacker meets it over HTTP (SECURITY-REVIEW C1, M5): the security headers on catalogue pages and
 * personal pages, and what an anonymous stranger can see of the sandbox. The server runs behind one trusted proxy
 * hop here (TRUSTED_PROXY_HOPS=1, tests/e2e/global-setup.ts), so a request can say where it came from and whether
 * it arrived over https, as nginx would tell the shop.
 */

async function firstProductPath(): Promise<string> {
  const html = await (await fetch(`${baseUrl()}/`)).text();
  const match = /href="(\/product\/\d+)"/.exec(html);
  if (!match) throw new Error("no product link on the home page");
  return match[1]!;
}

function expectCommonHeaders(headers: Headers) {
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("permissions-policy")).toContain("camera=()");
  const policy = headers.get("content-security-policy") ?? "";
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("base-uri 'self'");
  expect(policy).toContain("form-action 'self'");
  return policy;
}

/** Collects what the browser blocked for the page's policy. */
function policyViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

describe("security headers", () => {
  it("gives catalogue pages a static policy that can be cached: scripts from the shop only, no framing", async () => {
    for (const path of ["/", await firstProductPath(), "/search?search=omega"]) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.status, path).toBe(200);
      const policy = expectCommonHeaders(response.headers);
      expect(policy).toContain("script-src 'self' 'unsafe-inline'");
      expect(policy).not.toContain("nonce-");
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("gives personal pages a fresh nonce per response, on the policy and on every script", async () => {
    const nonces = [];
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${baseUrl()}/checkout`);
      expect(response.status).toBe(200);
      const policy = expectCommonHeaders(response.headers);
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce).toBeTruthy();
      expect(policy).toContain("'strict-dynamic'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const html = await response.text();
      const scripts = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")[^>]*>/g)].map((match) => match[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("adds Strict-Transport-Security when the shop is reached over https", async () => {
    for (const path of ["/", "/checkout"]) {
      const response = await fetch(`${baseUrl()}${path}`, { headers: { "x-forwarded-proto": "https" } });
      expect(response.headers.get("strict-transport-security"), path).toBe("max-age=63072000; includeSubDomains");
    }
  });
});

describe("the shop works with its policies on", () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser();
  });
  afterAll(() => b?.close());

  it("renders and runs the storefront, checkout and admin with nothing blocked", async () => {
    const page = await b.newPage();
    const blocked = policyViolations(page);
    await page.goto("/");
    await openWith(loginDialog(page).trigger, loginDialog(page).signIn);
    await page.goto("/checkout");
    // Rendered by the page's scripts: an empty cart has nothing to check out.
    await page.getByRole("heading", { name: "Your cart is empty" }).waitFor();
    const staff = await b.newContext();
    const adminPage = await staff.newPage();
    const adminBlocked = policyViolations(adminPage);
    // Afresh, so that the sign-in and second-factor pages are among those checked.
    await signInAs(adminPage, "admin@example.com", { fresh: true });
    await adminPage.goto("/admin/dashboard");
    await adminPage.getByText("Admin panel").first().waitFor();
    expect(blocked).toEqual([]);
    expect(adminBlocked).toEqual([]);
    await staff.close();
  });
});

describe("the sandbox to a stranger (C1)", () => {
  it("shows no outbox, payment page or sign-in link to a client from another machine", async () => {
    const stranger = { "x-forwarded-for": "203.0.113.5" };
    expect((await fetch(`${baseUrl()}/dev/outbox`, { headers: stranger })).status).toBe(404);
    expect((await fetch(`${baseUrl()}/sandbox/pay/sbx_00000000000000000000`, { headers: stranger })).status).toBe(404);
  });

  it("never shows a staff account's sign-in link in the outbox; the operator finds it in the server log", async () => {
    const b = await openBrowser();
    try {
      const page = await b.newPage();
      await page.goto("/sign-in");
      await page.getByLabel("E-mail address").fill("admin@example.com");
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await page.getByRole("heading", { name: "Check your email" }).waitFor();
      await expect.poll(() => serverLogLinks("admin@example.com").length).toBeGreaterThan(0);

      const outbox = await b.newPage();
      const response = await outbox.goto("/dev/outbox?to=admin%40example.com");
      expect(response?.status()).toBe(200);
      expect(await outbox.locator('[data-testid="outbox-message"]').count()).toBe(0);
      await outbox.goto("/dev/outbox");
      expect(await outbox.locator('[data-to="admin@example.com"]').count()).toBe(0);
    } finally {
      await b.close();
    }
  });
});
