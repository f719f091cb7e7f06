import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { keepPdfPicture, pdfPagePng, pdfText } from "../helpers/pdf-pages";
import { screenshot } from "./browser";
import { products, stockOf } from "./checkout-steps";
import { withSignedInAdmin } from "./sign-in";

/**
 * Issue 28's counter sale, as staff at the counter: a sale entered on "Create order" with "Collected in the shop"
 * asks for no address and no shipping, and is saved shipped-and-collected, paid, its piece out of stock, with no
 * label offered; its invoice prints without an address. Taken a second time at a phone's width, where the form must
 * not scroll sideways.
 */

/** How far the page scrolls sideways, in px. */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A GET as the signed-in page makes it, asked once more when the server dropped a kept-alive connection. */
async function fetchAgainOnReset(page: Page, url: string) {
  try {
    return await page.request.get(url);
  } catch (error) {
    if (!String(error).includes("ECONNRESET")) throw error;
    return page.request.get(url);
  }
}

describe("a counter sale", () => {
  let page: Page;
  let orderNumber = "";

  withSignedInAdmin((opened) => (page = opened));

  it("is collected in the shop: no address, shipped and collected at once, with its invoice", async () => {
    const [product] = (await products()).slice(-2);
    const stockBefore = await stockOf(product!.id);

    await page.goto("/admin/orders/create");
    await page.getByRole("form", { name: "New order" }).waitFor();
    await page.getByText("Collected in the shop", { exact: true }).click();
    // The address gives way to the buyer, and no shipping is asked.
    await page.getByRole("heading", { name: "Buyer" }).waitFor();
    expect(await page.getByRole("heading", { name: "Ship to" }).count()).toBe(0);
    expect(await page.getByLabel("Street").count()).toBe(0);

    await page.getByPlaceholder("Add a product by name, brand or #id").fill(`#${product!.id}`);
    await page.getByRole("list", { name: "Products found" }).getByRole("listitem").filter({ hasText: `#${product!.id} ·` }).getByRole("button", { name: "Add" }).click();
    await page.getByLabel("First name").fill("Anna");
    await page.getByLabel("Last name").fill("de Vries");
    await page.getByText("On account", { exact: true }).click();

    const totals = page.getByTestId("order-totals");
    await expect.poll(() => totals.innerText(), { timeout: 15_000 }).toContain("Collected in the shop");
    expect(await totals.innerText()).toContain("no shipping");
    await expect.poll(() => page.getByText("Shipped and collected", { exact: true }).isVisible()).toBe(true);
    // Taken from the top: a full-page picture of a scrolled page shows the fixed sidebar halfway down.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "admin-counter-sale-form");

    await page.getByRole("button", { name: "Save counter sale" }).click();
    await page.waitForURL(/\/admin\/orders\/BC-\d{4}-\d{6,}$/, { timeout: 20_000 });
    orderNumber = page.url().split("/").at(-1)!;
    await page.getByRole("heading", { name: orderNumber, exact: true }).waitFor();

    // Shipped and collected, paid, and nothing left to ship: no label is offered.
    const standing = page.getByTestId("order-standing");
    await expect.poll(() => standing.innerText()).toMatch(/Payment: paid\s*Fulfilment: collected in the shop/);
    expect(await page.getByText(/^Collected in the shop on /).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Create label" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Packing slip" }).count()).toBe(0);
    expect(await stockOf(product!.id)).toBe(stockBefore - 1);
    await screenshot(page, "admin-counter-sale-order");

    // The invoice: made with one click and opened in a new tab (which headless Chromium, without a PDF viewer, takes
    // as a download), printed without an address.
    const printed = page.context().waitForEvent("request", { predicate: (request) => request.url().includes("/admin/orders/print/invoices"), timeout: 20_000 });
    const [tab] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Invoice" }).click()]);
    await expect.poll(() => page.getByText(/^Invoice \d{4}-\d+ made$/).isVisible(), { timeout: 20_000 }).toBe(true);
    const invoice = await fetchAgainOnReset(page, (await printed).url());
    expect(invoice.headers()["content-type"]).toBe("application/pdf");
    const body = await invoice.body();
    const text = await pdfText(body);
    expect(text).toContain("Anna de Vries");
    expect(text).toContain(orderNumber);
    expect(text).toContain("Collected in the shop");
    expect(text).toContain("Paid in full at the counter.");
    keepPdfPicture("counter-sale-invoice", await pdfPagePng(body, { dpi: 60 }));
    await tab.close();
  });

  it("fits a phone: the form and the order's page", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/admin/orders/create");
    await page.getByRole("form", { name: "New order" }).waitFor();
    await page.getByText("Collected in the shop", { exact: true }).click();
    await page.getByRole("heading", { name: "Buyer" }).waitFor();
    await page.getByLabel("First name").fill("Anna");
    await page.getByLabel("Last name").fill("de Vries");
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "admin-counter-sale-form-390");

    await page.goto(`/admin/orders/${orderNumber}`);
    await page.getByTestId("order-standing").waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, "admin-counter-sale-order-390");
  });
});
