import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, chooseAndPlace, confirmation, fillAddress, openCheckout, products } from "./checkout-steps";
import { dutchPublicHoliday } from "../../src/lib/dutch-holidays";
import { signInAs } from "./sign-in";

/**
 * Issue 28's smaller defects as people meet them: a collector with an en-US browser starts the checkout on the
 * Netherlands and reads "Tracked parcel"; staff close the shop on a day from the shipping calendar, find it in the
 * logbook as readable lines, and click the notification of the paid order through to the order's page.
 */

/** A day about `days` ahead (YYYY-MM-DD) that is no public holiday, far enough that it cannot become "today" during the run. */
function dayAhead(days: number): string {
  for (let ahead = days; ; ahead++) {
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + ahead * 86_400_000));
    if (!dutchPublicHoliday(day)) return day;
  }
}

async function waitForStoredCountry(page: Page, code: string) {
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("countryCode"))).toBe(code);
}

describe("back office, the smaller defects", () => {
  let b: BrowserSession;
  let orderNumber = "";

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("starts an en-US browser's checkout on the Netherlands, and calls the tracked method a tracked parcel", async () => {
    const context = await b.newContext({ locale: "en-US" });
    const shop = await context.newPage();
    const [product] = (await products()).slice(-2);
    await addFromProductPage(shop, product!);
    await openCheckout(shop);
    // The checkout (a page rendered per visitor) read "en-US" from the browser and kept it as its guess of the
    // country; the form, opened again, still starts on the Netherlands.
    await waitForStoredCountry(shop, "US");
    await shop.reload();
    await shop.getByRole("button", { name: /^Place order and pay/ }).waitFor();
    await expect.poll(() => shop.getByLabel("Country").inputValue()).toBe("NL");
    await shop.getByLabel("E-mail address").fill(`small-${Date.now()}@example.com`);
    await fillAddress(shop, amsterdam);
    await shop.getByTestId("shipping-TNT").getByText("Tracked parcel").waitFor();
    await chooseAndPlace(shop, "TNT", "iDEAL", Number(product!.price));
    await shop.getByRole("button", { name: /^Pay / }).click();
    orderNumber = await confirmation(shop, "paid");
    await context.close();
  });

  it("closes the shop on a day from the shipping calendar, and the logbook says so in words", async () => {
    const admin = await b.newPage();
    await signInAs(admin, "admin@example.com");
    const day = dayAhead(9);
    await admin.goto(`/admin/orders/shipping-calendar?month=${day.slice(0, 7)}`);
    const card = admin.getByRole("region", { name: "Closing days" });
    const close = card.getByRole("button", { name: "Close the shop that day" });
    // What is typed before the page has hydrated never reaches the form's state: type again until the form has it.
    await expect
      .poll(async () => {
        await card.getByRole("textbox", { name: "Day" }).fill(day);
        await card.getByLabel("Reason").fill("Stock-taking");
        return close.isEnabled();
      }, { timeout: 20_000, interval: 500 })
      .toBe(true);
    await close.click();
    await admin.getByText("Closing day added").waitFor();
    await card.getByText("Stock-taking").waitFor();
    // The day is closed on the month's grid, and cannot be made a shipping day.
    const cell = admin.getByRole("button", { name: /closed: Stock-taking/ });
    await cell.waitFor();
    expect(await cell.isDisabled()).toBe(true);

    await admin.goto(`/admin/logbook/level/info?search=${encodeURIComponent(`the shop is closed on ${day}`)}`);
    await admin.getByTestId("logbook-row").first().click();
    await admin.getByText("What changed").waitFor();
    await admin.getByText(day, { exact: true }).first().waitFor();
    await admin.getByText("Stock-taking", { exact: true }).first().waitFor();

    // Opened again, for the journeys after this one.
    await admin.goto(`/admin/orders/shipping-calendar?month=${day.slice(0, 7)}`);
    await admin.getByRole("button", { name: /^Open again on / }).first().click();
    await admin.getByText("Closing day removed").waitFor();
    await admin.close();
  });

  it("opens the order from its notification", async () => {
    const admin = await b.newPage();
    await admin.goto("/admin/dashboard");
    await admin.getByRole("button", { name: /^Notifications/ }).click();
    const notification = admin.getByRole("menuitem", { name: new RegExp(`Order ${orderNumber} is paid`) });
    await notification.click();
    await admin.waitForURL(new RegExp(`/admin/orders/${orderNumber}$`));
    await admin.getByRole("heading", { name: orderNumber, exact: true }).waitFor();
    await admin.close();
  });
});
