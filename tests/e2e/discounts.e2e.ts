import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, amountOf, euro, fillAddress, openCheckout, products } from "./checkout-steps";
import { signInAs } from "./sign-in";

/**
 * Acceptance point 4 of issue 13 in a browser: staff create a coupon in the admin with 15 typed as its percentage and
 * a limit of one order; the list shows it as -15%; at checkout it takes 15% off the items; once a paid order has used
 * it, the next customer is told it is not valid, as of any code that does not apply (SECURITY-REVIEW N-L4, N-L5).
 * Also looks at the shipping-cost pages on a desktop and a phone.
 */

/** Applies a code at checkout and resolves once the summary has answered. */
async function applyCode(page: Page, code: string) {
  await page.getByRole("textbox", { name: "Discount code" }).fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
}

describe("discounts and shipping costs in the back office", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("a coupon made in the admin takes 15% off at checkout, up to its usage limit", async () => {
    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");

    const code = `TAKE15${Date.now().toString(36).toUpperCase()}`;
    await admin.goto("/admin/discounts/create");
    const form = admin.getByRole("form", { name: "New discount" });
    await form.waitFor({ timeout: 20_000 });
    await form.getByRole("radio", { name: /^Coupon/ }).check();
    await form.getByRole("textbox", { name: "Code" }).fill(code);
    await form.getByLabel("Type of value").selectOption("PERCENT");
    await form.getByLabel("Percentage (%)").fill("15");
    await form.getByLabel("Usage limit (orders)").fill("1");
    await screenshot(admin, "admin-discount-create");
    await form.getByRole("button", { name: "Create discount" }).click();
    await admin.getByText(/Saved|created/i).first().waitFor({ timeout: 15_000 });

    await admin.goto("/admin/discounts/manage");
    const row = admin.getByRole("row").filter({ hasText: code });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain("-15%");
    await screenshot(admin, "admin-discounts-manage");
    await admin.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin, "admin-discounts-manage-phone");
    await admin.setViewportSize({ width: 1280, height: 900 });

    // A customer's cart: the code takes 15% off the items.
    const shop = await b.newPage();
    const [product] = (await products()).slice(-4, -3);
    await addFromProductPage(shop, product!);
    await openCheckout(shop);
    await applyCode(shop, code);
    await shop.getByText(`Discount: ${code} (-15%)`).waitFor({ timeout: 15_000 });
    const expected = Math.round(Number(product!.price) * 15) / 100;
    await expect.poll(async () => amountOf(await shop.getByTestId("checkout-discount").innerText()), { timeout: 15_000 }).toBeCloseTo(expected, 2);
    await screenshot(shop, "checkout-coupon-applied");

    // The order uses the coupon's one use once it is paid: an unpaid order holds none.
    await shop.getByLabel("E-mail address").fill(`coupon-${Date.now()}@example.com`);
    await fillAddress(shop, amsterdam);
    const shipping = shop.getByTestId("shipping-TNT");
    await shipping.waitFor();
    await shipping.getByRole("radio").check();
    await shop.getByRole("radio", { name: "iDEAL", exact: true }).check();
    await shop.getByRole("button", { name: /^Place order and pay/ }).click();
    await shop.waitForURL(/\/sandbox\/pay\//, { timeout: 20_000 });
    const paid = await shop.getByTestId("sandbox-amount").innerText();
    expect(paid).not.toBe(euro(Number(product!.price)));
    await shop.getByRole("button", { name: `Pay ${paid}` }).click();
    await shop.waitForURL(/\/checkout\/confirmation\/BC-/, { timeout: 20_000 });
    await shop.getByRole("heading", { name: "Thank you for your order" }).waitFor({ timeout: 15_000 });

    // The next customer is told it is not valid, as they would be of a code nobody ever made.
    const next = await b.newContext({ viewport: { width: 390, height: 844 } });
    const other = await next.newPage();
    await addFromProductPage(other, product!);
    await openCheckout(other);
    await applyCode(other, code);
    await other.getByTestId("coupon-error").waitFor({ timeout: 15_000 });
    expect(await other.getByTestId("coupon-error").innerText()).toBe(`The code ${code} is not valid.`);
    await screenshot(other, "checkout-coupon-used-up-phone");
    await next.close();

    // The list counts the use.
    await admin.goto("/admin/discounts/manage");
    await expect.poll(async () => admin.getByRole("row").filter({ hasText: code }).innerText(), { timeout: 15_000 }).toMatch(/1\s*\/\s*1|1 of 1/);
    await staffContext.close();
  });

  it("shows the shipping costs pages on a desktop and a phone", async () => {
    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");
    for (const [path, name] of [
      ["/admin/shippingSurcharge/manage", "shipping-surcharge-manage"],
      ["/admin/shippingSurcharge/create", "shipping-surcharge-create"],
      ["/admin/shippingSurcharge/countries", "shipping-countries"],
      ["/admin/shippingSurcharge/countries/US", "shipping-country-us"],
    ] as const) {
      await admin.setViewportSize({ width: 1280, height: 900 });
      await admin.goto(path);
      await admin.getByRole("main").waitFor();
      await admin.waitForLoadState("networkidle");
      await screenshot(admin, name);
      await admin.setViewportSize({ width: 390, height: 844 });
      await screenshot(admin, `${name}-phone`);
    }
    await staffContext.close();
  });
});
