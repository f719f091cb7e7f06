import type { BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { expectSignedInAs } from "./sign-in";

// "Continue with Google" on the embedded default: the shop's own stand-in for Google, clicked through like a
// customer would click through Google's account chooser.

const phone: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** From the sign-in page to the stand-in's account chooser. */
async function openGoogleChooser(page: Page): Promise<void> {
  await page.goto("/sign-in?callbackUrl=%2Faccount");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await page.waitForURL(/\/sandbox\/google\/authorize\?/);
  await page.getByRole("heading", { name: "Choose an account" }).waitFor();
}

async function session(page: Page): Promise<{ user?: { email?: string; name?: string | null } } | null> {
  return (await (await page.request.get("/api/auth/session")).json()) as { user?: { email?: string; name?: string | null } } | null;
}

describe("sign-in with Google through the sandbox's stand-in", () => {
  let b: BrowserSession | undefined;

  beforeAll(async () => {
    b = await openBrowser();
  });
  afterAll(async () => {
    await b?.close();
  });

  it("the demo customer is one click away on the chooser, and the customer lands back signed in", async () => {
    const page = await (await b!.newContext()).newPage();
    await openGoogleChooser(page);
    await screenshot(page, "google-stand-in-desktop");
    await page.getByRole("button", { name: /customer@example\.com/ }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expectSignedInAs(page, "customer@example.com");
  });

  it("a new customer types an address and a name, and gets an account with that name", async () => {
    const page = await (await b!.newContext(phone)).newPage();
    await openGoogleChooser(page);
    // The chooser fits a phone: nothing runs off the side.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "google-stand-in-phone");
    await page.getByLabel("E-mail address").fill("Greta.Google@Example.com");
    await page.getByLabel(/^Name/).fill("Greta Google");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/account");
    await expectSignedInAs(page, "greta.google@example.com");
    expect((await session(page))?.user?.name).toBe("Greta Google");
  });

  it("refuses the staff account: staff sign in with the e-mail link", async () => {
    const page = await (await b!.newContext()).newPage();
    await openGoogleChooser(page);
    // Staff are never offered.
    await expect.poll(() => page.getByRole("button", { name: /admin@example\.com/ }).count()).toBe(0);
    await page.getByLabel("E-mail address").fill("admin@example.com");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "Staff accounts sign in with the e-mail link" });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("admin@example.com");
    expect(new URL(page.url()).pathname).toBe("/sandbox/google/authorize");
    await screenshot(page, "google-stand-in-staff-refused");
    expect((await session(page))?.user).toBeUndefined();
  });
});
