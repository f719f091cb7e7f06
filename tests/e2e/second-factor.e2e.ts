import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";
import { newSignInLink, sentSignInLinks } from "./sign-in";

/**
 * Issue 24, acceptance 2: a member of staff signs in by e-mail link, is asked for the second factor, registers a
 * passkey with a virtual authenticator (Chromium's WebAuthn domain), signs out and signs in again with it; and the same
 * e-mail link without the factor reaches no admin page or procedure. The account is the demo shop's staff member who
 * has not signed in before (staff@example.com), so the first sign-in is the one that sets the factor up.
 */

const staffEmail = "staff@example.com";

/** Asks for a sign-in link on the sign-in page and opens it: where that lands. */
async function signInByLink(page: Page, email: string): Promise<void> {
  const before = await sentSignInLinks(page, email);
  await page.goto("/sign-in?callbackUrl=%2Fadmin%2Fdashboard");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  await page.goto(await newSignInLink(page, email, before));
}

/** A passkey authenticator built into this page's browser, as a laptop's fingerprint reader: it says yes at once. */
async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** What an admin procedure answers this page's session. */
const sidebarStatus = (page: Page) => page.request.get("/api/trpc/admin.sidebar.getSidebarInformation").then((response) => response.status());

describe("staff sign in with a second factor", () => {
  let b: BrowserSession | undefined;

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await b?.close();
  });

  it("asks for it after the e-mail link, sets up a passkey the first time, and signs in with the passkey after signing out", async () => {
    const context = await b!.newContext();
    const page = await context.newPage();
    await addVirtualAuthenticator(context, page);

    await signInByLink(page, staffEmail);
    await page.waitForURL(/\/sign-in\/second-factor/);
    await page.getByRole("heading", { name: "Protect your staff account" }).waitFor();
    await screenshot(page, "second-factor-choose");

    // The e-mail link alone reaches nothing of the back office.
    expect(await sidebarStatus(page)).toBe(401);
    const other = await context.newPage();
    await other.goto("/admin/dashboard");
    expect(new URL(other.url()).pathname).toBe("/sign-in/second-factor");
    await other.close();

    await page.getByLabel("Name it").fill("Test laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByTestId("recovery-codes").waitFor();
    expect(await page.getByTestId("recovery-codes").locator("li").count()).toBe(10);
    await screenshot(page, "second-factor-recovery-codes");
    await page.getByRole("button", { name: "I have saved them, continue" }).click();
    await page.waitForURL(/\/admin\/dashboard/);
    await expect.poll(() => page.getByTestId("admin-greeting").textContent()).toContain("Sam Stockroom");
    expect(await sidebarStatus(page)).toBe(200);

    // Sign out, as the account menu does.
    const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    await page.request.post("/api/auth/signout", { form: { csrfToken, callbackUrl: "/" } });
    expect(await (await page.request.get("/api/auth/session")).json()).toBeNull();
    expect(await sidebarStatus(page)).toBe(401);

    // And in again with the passkey alone: no e-mail, no code.
    await page.goto("/sign-in?callbackUrl=%2Fadmin%2Fdashboard");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await page.waitForURL(/\/admin\/dashboard/);
    await expect.poll(() => page.getByTestId("admin-greeting").textContent()).toContain("Sam Stockroom");
    expect(await sidebarStatus(page)).toBe(200);

    // The security page lists it, used just now.
    await page.goto("/admin/security");
    await expect.poll(() => page.getByTestId("passkey-list").textContent()).toContain("Test laptop");
    await screenshot(page, "admin-security");
    await context.close();
  });

  it("gives the same e-mail link, without the factor, no admin page and no admin procedure", async () => {
    const context = await b!.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInByLink(page, staffEmail);
    await page.waitForURL(/\/sign-in\/second-factor/);
    // It has a passkey now: asked to confirm with it, not to add one.
    await page.getByRole("button", { name: "Use your passkey" }).waitFor();
    await screenshot(page, "second-factor-confirm-phone");
    for (const path of ["/admin/dashboard", "/admin/orders/status/all", "/admin/security"]) {
      await page.goto(path);
      expect(new URL(page.url()).pathname, path).toBe("/sign-in/second-factor");
    }
    expect(await sidebarStatus(page)).toBe(401);
    expect((await page.request.post("/api/trpc/admin.orders.transition", { data: { json: { orderNumber: "BC-2026-000001", to: "CANCELLED" } }, headers: { origin: baseUrl() } })).status()).toBe(401);
    expect((await page.request.get("/api/trpc/shared.account.profile")).status()).toBe(401);
    await context.close();
  });
});
