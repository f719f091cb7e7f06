import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseUrl, screenshot } from "./browser";
import { withSignedInAdmin } from "./sign-in";

/**
 * Issue 30, acceptance 4: the owner's integrations page, opened from the sidebar's Settings, on the sandbox the
 * journeys run: every port in sandbox mode, the webhook addresses on the shop's address, and a Test connection
 * answered. (Live settings against the stand-ins: src/server/admin/integrations-live.int.test.ts.)
 */

describe("the integrations page", () => {
  let page: Page;
  withSignedInAdmin((opened) => (page = opened));

  it("opens from Settings in the sidebar and shows every port in sandbox mode", async () => {
    await page.goto("/admin/dashboard");
    const sidebar = page.getByRole("navigation", { name: "Admin" });
    // A group of one entry is a link of its own in the sidebar.
    await sidebar.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL("**/admin/settings/integrations");
    const ports = page.getByTestId("integration-port");
    await ports.first().waitFor();
    expect(await ports.count()).toBe(11);
    expect(await ports.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-mode")))).toEqual(Array(11).fill("sandbox"));
    const addresses = await page.getByTestId("webhook-address").locator(".font-mono").allTextContents();
    expect(addresses).toEqual([`${baseUrl()}/api/webhooks/mollie`, `${baseUrl()}/api/webhooks/paypal`, `${baseUrl()}/api/webhooks/ebay`]);
    // The signing key is made by the first signed call (a refund of an eBay order, eBay's fees): another journey may
    // have made one already on this shop.
    await expect.poll(() => page.getByTestId("ebay-tokens").textContent()).toMatch(/Signing key\s*(Ready|Not set up)/);
  });

  it("tests a port's connection and shows the answer", async () => {
    const postnl = page.locator('[data-testid="integration-port"][data-port="postnl"]');
    await postnl.getByRole("button", { name: "Test connection" }).click();
    const result = postnl.getByTestId("connection-test-result");
    await result.waitFor();
    expect(await result.getAttribute("data-outcome")).toBe("ok");
    expect(await result.textContent()).toContain("sandbox, nothing to check");
    await screenshot(page, "integrations-page-1280");
  });
});
