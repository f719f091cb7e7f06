import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, type BrowserSession } from "./browser";
import { signInAs, withSignedInAdmin } from "./sign-in";

/**
 * Acceptance point 1 of issue 28, customers: staff find the demo customer in the customer list, open their page with
 * their orders and spend, go to one of the orders and back, tag them (logged on the page) and find them by the tag;
 * on a phone the list is cards and nothing scrolls sideways.
 */

/** The cells of the list's row for a customer, by column heading. */
async function rowOf(page: Page, name: string) {
  const row = page.locator("tbody tr", { has: page.getByRole("link", { name }) });
  await row.waitFor();
  const cells = await row.locator("td").allInnerTexts();
  return { orders: cells[2]!.trim(), spend: cells[3]!.split("\n")[0]!.trim() };
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe("customers", () => {
  let b: BrowserSession;
  let page: Page;
  const tag = `e2e-${Date.now().toString(36)}`;

  withSignedInAdmin((opened, browser) => {
    page = opened;
    b = browser;
  });

  it("finds a customer in the list and opens their page with their orders and spend", async () => {
    await page.goto("/admin/customers");
    await page.getByRole("searchbox", { name: "Search customers" }).fill("clara coll");
    await expect.poll(() => page.getByTestId("customer-count").textContent()).toBe("1 customer");
    const listed = await rowOf(page, "Clara Collector");
    expect(Number(listed.orders)).toBeGreaterThan(0);
    expect(listed.spend).toMatch(/^€[\d,]+\.\d\d$/);
    await screenshot(page, "customers-list");

    await page.getByRole("link", { name: "Clara Collector" }).click();
    await page.getByRole("heading", { name: /Clara Collector/ }).waitFor();
    // The page reads the same rule as the list: the spend and the number of orders agree.
    await expect.poll(() => page.getByTestId("customer-spend").textContent()).toBe(listed.spend);
    const orders = page.getByRole("list", { name: "Their orders" }).getByRole("link");
    expect(await orders.count()).toBeGreaterThanOrEqual(Number(listed.orders));
    await screenshot(page, "customer-page");

    const orderNumber = (await orders.first().textContent())!;
    await orders.first().click();
    await page.waitForURL(`**/admin/orders/${orderNumber}`);
    await page.getByRole("link", { name: "Customer page" }).click();
    await page.getByRole("heading", { name: /Clara Collector/ }).waitFor();
  });

  it("tags the customer, logs it on their page, and finds them by the tag", async () => {
    await page.getByPlaceholder("Add a tag").fill(tag);
    await page.getByPlaceholder("Add a tag").press("Enter");
    await page.getByRole("button", { name: "Save note and tags" }).click();
    const logbook = page.getByRole("list", { name: "Logbook about the customer" });
    await logbook.getByText("Staff changed the tags of customer customer@example.com").first().waitFor();

    await page.goto(`/admin/customers?search=${tag}`);
    await expect.poll(() => page.getByTestId("customer-count").textContent()).toBe("1 customer");
    await page.getByRole("link", { name: "Clara Collector" }).waitFor();
  });

  it("erases a customer's data on their request after asking in a dialog, which signs them out", async () => {
    const email = `erase-me-${Date.now().toString(36)}@example.com`;
    const customer = await (await b.newContext()).newPage();
    await signInAs(customer, email);

    await page.goto(`/admin/customers?search=${email}`);
    await page.getByRole("link", { name: email }).click();
    await page.getByRole("button", { name: "Erase…" }).click();
    const dialog = page.getByRole("dialog", { name: `Erase the data of ${email}?` });
    await dialog.getByText("Stays, for the books (7 years):").waitFor();
    await screenshot(page, "customer-erase-dialog");
    await dialog.getByRole("button", { name: "Erase their data" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("heading", { name: /Erased customer/ }).waitFor();
    await page.getByRole("list", { name: "Logbook about the customer" }).getByText(/^Staff erased the personal data of customer/).waitFor();

    // Their session is gone with the data: the shop no longer knows them.
    const session = (await (await customer.request.get("/api/auth/session")).json()) as { user?: unknown } | null;
    expect(session?.user).toBeUndefined();
  });

  it("shows the list as cards on a phone, without sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/admin/customers?search=clara");
    await page.getByRole("list", { name: "Customers" }).getByRole("link", { name: /Clara Collector/ }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.getByRole("list", { name: "Customers" }).getByRole("link", { name: /Clara Collector/ }).click();
    await page.getByRole("heading", { name: /Clara Collector/ }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});
