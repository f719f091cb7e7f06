import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, amountOf, euro, fillAddress, openCheckout, products } from "./checkout-steps";
import { signInAs } from "./sign-in";

/**
 * Acceptance point 4 of issue 13 in a browser: staff create a coupon in the admin with 15 typed as its percentage and
 * a limit of one order; the list shows it as -15%; at checkout it takes 15% off the items; once a paid order has used
 * it, the next customer is told it is not valid, as of any code that does not apply (SECURITY-REVIEW N-L4, N-L5).
 * Also looks at the shipping-cost pages on a desktop and a phone, each showing the seeded shop's bands and countries.
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

  it("shows the shipping costs pages on a desktop and a phone, with the shop's bands and countries", async () => {
    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");
    /** Each page as staff see it once loaded (`shown`, the seeded demo shop's figures), then on a phone. */
    const visit = async (path: string, name: string, shown: () => Promise<void>) => {
      await admin.setViewportSize({ width: 1280, height: 900 });
      await admin.goto(path);
      await shown();
      await screenshot(admin, name);
      await admin.setViewportSize({ width: 390, height: 844 });
      await screenshot(admin, `${name}-phone`);
    };
    const value = (locator: Locator) => expect.poll(() => locator.inputValue());

    // The four seeded bands, each with what it charges at its two ends.
    const bands: [from: string, upTo: string, percent: string, example: string][] = [
      ["0.00", "100.00", "0", "No surcharge"],
      ["100.00", "250.00", "2", "€2.00 on €100.00 to €5.00 on €250.00"],
      ["250.00", "500.00", "3.5", "€8.75 on €250.00 to €17.50 on €500.00"],
      ["500.00", "999999.99", "5", "€25.00 on €500.00 to €50,000.00 on €999,999.99"],
    ];
    await visit("/admin/shippingSurcharge/manage", "shipping-surcharge-manage", async () => {
      const form = admin.getByRole("form", { name: "Surcharge bands" });
      await value(form.getByLabel("From, band 4")).toBe("500.00");
      expect(await form.getByRole("textbox", { name: /^From, band / }).count()).toBe(bands.length);
      for (const [index, [from, upTo, percent, example]] of bands.entries()) {
        await value(form.getByLabel(`From, band ${index + 1}`)).toBe(from);
        await value(form.getByLabel(`Up to, band ${index + 1}`)).toBe(upTo);
        await value(form.getByLabel(`Surcharge, band ${index + 1}`)).toBe(percent);
        const row = form.getByRole("row").filter({ has: admin.getByLabel(`From, band ${index + 1}`) });
        expect(await row.innerText()).toContain(example);
      }
      expect(await form.innerText()).toContain("Orders above €999,999.99 pay no surcharge.");
    });

    // A new band starts where the highest ends; the bands it must join are listed beside it.
    await visit("/admin/shippingSurcharge/create", "shipping-surcharge-create", async () => {
      await value(admin.locator("#field-minPrice")).toBe("999999.99");
      const current = admin.locator('[aria-label="Current bands"]').getByRole("listitem");
      await expect.poll(async () => (await current.allInnerTexts()).map((text) => text.replace(/\s+/g, " "))).toEqual(
        bands.map(([from, upTo, percent]) => `${euro(Number(from))}–${euro(Number(upTo))} ${percent}%`),
      );
    });

    // Every country the shop knows, 27 of them shipped to; a row says what each method costs and takes.
    await visit("/admin/shippingSurcharge/countries", "shipping-countries", async () => {
      await admin.getByText("27 of 29 countries shipped to.").waitFor();
      const row = (country: string) => admin.getByRole("row").filter({ has: admin.getByRole("link", { name: country, exact: true }) });
      expect(await row("Netherlands").innerText()).toMatch(/€4\.50\s+2 days\s+€8\.95\s+1 day\s+€100\.00/);
      expect(await row("United States").innerText()).toMatch(/€9\.50\s+10 days\s+€34\.95\s+5 days\s+€50\.00\s+51 of 53 served/);
      expect(await row("Brazil").innerText()).toContain("not shipped to");
    });

    // One country's form: its figures, and its states with the remote ones' lower untracked limit.
    await visit("/admin/shippingSurcharge/countries/US", "shipping-country-us", async () => {
      const form = admin.getByRole("form", { name: "Shipping to United States" });
      await value(form.locator("#field-untrackedCost")).toBe("9.50");
      await value(form.locator("#field-untrackedEtaDays")).toBe("10");
      await value(form.locator("#field-maxOrderUntracked")).toBe("50.00");
      await value(form.locator("#field-tntCost")).toBe("34.95");
      await value(form.locator("#field-tntEtaDays")).toBe("5");
      await form.getByText(/^51 of 53 served\./).waitFor();
      await value(form.getByLabel("Untracked up to in Alaska")).toBe("25.00");
      await value(form.getByLabel("Untracked up to in Texas")).toBe("");
      expect(await form.getByLabel("Ship to Texas").isChecked()).toBe(true);
      expect(await form.getByLabel("Ship to Puerto Rico").isChecked()).toBe(false);
    });
    await staffContext.close();
  });
});
