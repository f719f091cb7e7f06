import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { withSignedInAdmin } from "./sign-in";

/**
 * Issue 28, products as staff work, in Chromium at 1280 px: a product made from the "Sapphire crystal" template is
 * a draft, refused publication while its {size} placeholders are left, published with its opening stock once they
 * are filled in; a bulk price change on three products; the size and the "#id" found on the storefront and in the
 * back office.
 */

/** The table's prices, top to bottom, in euro (the selection box is the first column, the price the fifth). */
async function listedPrices(page: Page): Promise<number[]> {
  const texts = await page.locator("tbody tr td:nth-child(5)").allInnerTexts();
  return texts.map((text) => Number(text.replace(/[^0-9.]/g, "")));
}

describe("products as staff work", () => {
  let page: Page;
  const size = "31.5";
  const name = `Sapphire crystal ${size} mm ${Date.now().toString(36)}`;
  let productId = 0;

  withSignedInAdmin((opened) => (page = opened));

  it("creates a draft from a template with opening stock, refuses to publish it until the placeholders are filled", async () => {
    await page.goto("/admin/products/create");
    await page.getByLabel("Template").selectOption({ label: "Sapphire crystal" });
    await page.waitForURL(/\/admin\/products\/create\?template=\d+$/);
    await expect.poll(() => page.locator("#field-name").inputValue()).toBe("Sapphire crystal {size} mm");
    await page.locator("#field-opening-kind").selectOption("correction");
    await page.locator("#field-opening-quantity").fill("12");
    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL(/\/admin\/products\/edit\?id=\d+/);
    productId = Number(new URL(page.url()).searchParams.get("id"));
    await expect.poll(() => page.getByTestId("product-status").textContent()).toBe("Draft");
    await page.getByText("12 in stock").waitFor();

    await page.getByRole("button", { name: "Publish…" }).click();
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByText("Fill in the placeholders before publishing: {size} in Name; {size} in Dimensions.").first().waitFor();
    await expect.poll(() => page.locator("#field-name-note").textContent()).toBe("Fill in {size} before publishing");
    await page.keyboard.press("Escape");
    expect(await page.getByTestId("product-status").textContent()).toBe("Draft");

    // Filled in, the form is saved and the product published in one go.
    await page.locator("#field-name").fill(name);
    await page.locator("#field-dimensions").fill(`${size} mm diameter, 1.0 mm high`);
    await page.getByRole("button", { name: "Publish…" }).click();
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect.poll(() => page.getByTestId("product-status").textContent()).toBe("On the shop");
    await expect.poll(() => page.locator("#field-name-note").count()).toBe(0);
  });

  it("finds the size and the #id on the storefront", async () => {
    await page.goto(`/search?search=${encodeURIComponent(`sapphire crystal ${size}`)}`);
    await page.locator(`[data-testid=product-card] a[href="/product/${productId}"]`).first().waitFor();
    await page.goto(`/search?search=${encodeURIComponent(`#${productId}`)}`);
    await page.locator(`[data-testid=product-card] a[href="/product/${productId}"]`).first().waitFor();
    expect(await page.locator("[data-testid=product-card]").count()).toBe(1);
  });

  it("finds it in the back office by '31,5', by #id, and first by its id", async () => {
    const search = page.getByRole("searchbox", { name: "Search products" });
    await page.goto("/admin/products?sort=name.asc");
    await search.fill("sapphire crystal 31,5");
    await expect.poll(() => page.locator("tbody tr td:nth-child(4) a").allInnerTexts()).toContain(name);
    await search.fill(`#${productId}`);
    await expect.poll(() => page.locator("tbody tr td:nth-child(4) a").allInnerTexts()).toEqual([name]);
    await search.fill(String(productId));
    await expect.poll(() => page.locator("tbody tr td:nth-child(3)").first().textContent()).toBe(`#${productId}`);
  });

  it("changes the price of three products at once, and back", async () => {
    await page.goto("/admin/products?search=crystal&sort=id.desc");
    await expect.poll(() => listedPrices(page).then((prices) => prices.length)).toBeGreaterThanOrEqual(3);
    const before = (await listedPrices(page)).slice(0, 3);
    for (const row of await page.locator("tbody tr").all().then((rows) => rows.slice(0, 3))) await row.getByRole("checkbox").click();
    await page.getByRole("toolbar", { name: "Selected products" }).getByText("3 selected").waitFor();

    const change = async (direction: "up" | "down") => {
      await page.getByRole("button", { name: "Price…" }).click();
      await page.locator("#bulk-price-direction").selectOption(direction);
      await page.locator("#bulk-price-by").selectOption("amount");
      await page.locator("#bulk-price-value").fill("1.00");
      await page.getByRole("button", { name: "Change prices" }).click();
      await page.getByText("Prices of 3 products changed").first().waitFor();
    };
    await change("up");
    await expect.poll(() => listedPrices(page).then((prices) => prices.slice(0, 3))).toEqual(before.map((price) => Math.round((price + 1) * 100) / 100));
    for (const row of await page.locator("tbody tr").all().then((rows) => rows.slice(0, 3))) await row.getByRole("checkbox").click();
    await change("down");
    await expect.poll(() => listedPrices(page).then((prices) => prices.slice(0, 3))).toEqual(before);
  });
});
