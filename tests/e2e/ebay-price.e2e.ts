import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, type BrowserSession } from "./browser";
import { withSignedInAdmin } from "./sign-in";

/**
 * Issue 30, the eBay price per channel: staff set the shop-wide markup and "end at 0" on /admin/ebay, fix one
 * product's eBay price in its form, and the offers table shows the shop price with eBay's beside it. Screenshots at
 * 1280 and 390 px.
 */

describe("the eBay price beside the shop price", () => {
  let admin: Page;
  let browser: BrowserSession;
  withSignedInAdmin((page, opened) => {
    admin = page;
    browser = opened;
  });

  it("saves the listing rules, fixes a product's eBay price and shows both prices in the offers table", async () => {
    await admin.goto("/admin/ebay");
    const rules = admin.getByRole("form", { name: "Listing rules" });
    await rules.waitFor({ timeout: 30_000 });
    await rules.getByLabel("Markup on the shop price").fill("10");
    await rules.getByLabel(/End the listing/).check();
    await rules.getByRole("button", { name: "Save listing rules" }).click();
    await admin.getByText("eBay settings saved").waitFor({ timeout: 20_000 });
    await screenshot(admin, "ebay-price-settings-1280");

    // The newest product: its form shows the eBay price the markup gives, until staff fix one.
    await admin.goto("/admin/ebay/manage-ads");
    const firstRow = admin.getByRole("row").nth(1);
    await firstRow.waitFor({ timeout: 30_000 });
    const productLink = firstRow.getByRole("link").first();
    const href = await productLink.getAttribute("href");
    expect(href).toMatch(/\/admin\/products\/edit\?id=\d+/);
    await admin.goto(href!);
    const ebayPrice = admin.getByLabel("eBay price (€)");
    await ebayPrice.waitFor({ timeout: 30_000 });
    const price = Number((await admin.locator("#field-price").inputValue()).replace(",", "."));
    await expect.poll(() => ebayPrice.getAttribute("placeholder")).toBe((Math.round(price * 110) / 100).toFixed(2));
    await ebayPrice.fill("123.45");
    await admin.getByRole("button", { name: "Save changes" }).click();
    await admin.getByText("Saved", { exact: true }).first().waitFor({ timeout: 20_000 });
    await screenshot(admin, "ebay-price-product-form-1280");

    await admin.goto("/admin/ebay/manage-ads");
    await admin.locator("p:visible", { hasText: "eBay €123.45" }).first().waitFor({ timeout: 30_000 });
    await screenshot(admin, "ebay-price-offers-1280");

    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await admin.context().storageState() })).newPage();
    await phone.goto("/admin/ebay");
    await phone.getByRole("form", { name: "Listing rules" }).waitFor({ timeout: 30_000 });
    await screenshot(phone, "ebay-price-settings-390");
    await phone.goto("/admin/ebay/manage-ads");
    await phone.locator("p:visible", { hasText: "eBay €123.45" }).first().waitFor({ timeout: 30_000 });
    await screenshot(phone, "ebay-price-offers-390");
    await phone.goto(href!);
    await phone.getByLabel("eBay price (€)").waitFor({ timeout: 30_000 });
    await screenshot(phone, "ebay-price-product-form-390");

    // Back to the shop's defaults for the journeys after this one.
    await admin.goto(href!);
    await admin.getByLabel("eBay price (€)").fill("");
    await admin.getByRole("button", { name: "Save changes" }).click();
    await admin.getByText("Saved", { exact: true }).first().waitFor({ timeout: 20_000 });
    await admin.goto("/admin/ebay");
    await rules.getByLabel("Markup on the shop price").fill("0");
    await rules.getByLabel(/Keep it at 0/).check();
    await rules.getByRole("button", { name: "Save listing rules" }).click();
    await admin.getByText("eBay settings saved").first().waitFor({ timeout: 20_000 });
  });
});
