import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";

const cardMakers = (page: Page) =>
  page.locator("[data-testid=product-card] .product-card-maker").evaluateAll((nodes) => nodes.map((node) => node.textContent?.trim()));

/**
 * Clicks a menu, sheet or drawer trigger until what it opens shows. A server-rendered button does nothing until the
 * page has hydrated, and on a loaded machine a journey can be faster than that.
 */
async function open(trigger: Locator, opened: Locator) {
  await expect
    .poll(async () => {
      if (!(await opened.isVisible())) await trigger.click();
      return opened.isVisible();
    }, { timeout: 20_000, interval: 500 })
    .toBe(true);
}

describe("storefront journeys", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser();
  });

  afterAll(async () => {
    await b?.close();
  });

  it("desktop: the Manufacturers menu leads to a brand's products", async () => {
    const page = await b.newPage();
    await page.goto("/");
    await open(page.getByRole("button", { name: "Manufacturers" }), page.getByRole("menuitem", { name: "Omega", exact: true }));
    await page.getByRole("menuitem", { name: "Omega", exact: true }).click();
    await page.waitForURL(/\/search\?manufacturer=\d+$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Omega");
    const makers = await cardMakers(page);
    expect(makers.length).toBeGreaterThan(0);
    expect(new Set(makers)).toEqual(new Set(["Omega"]));
    await screenshot(page, "storefront-desktop-manufacturer");
  });

  it("mobile at 390 px: the Categories & Manufacturers sheet navigates through nested accordions", async () => {
    const context = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/");
    const sheet = page.getByRole("dialog", { name: "Categories & Manufacturers" });
    await open(page.getByRole("button", { name: "Categories & Manufacturers" }), sheet);
    await sheet.getByRole("button", { name: "Manufacturers" }).click();
    await sheet.getByRole("button", { name: "Brands" }).click();
    await sheet.getByRole("link", { name: "Seiko", exact: true }).click();
    await page.waitForURL(/\/search\?manufacturer=\d+$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Seiko");
    expect(new Set(await cardMakers(page))).toEqual(new Set(["Seiko"]));
    await screenshot(page, "storefront-mobile-sheet");
    await context.close();
  });

  it("search drawer: results for a misspelling, a friendly empty state, and 'View all results'", async () => {
    const page = await b.newPage();
    await page.goto("/");
    const box = page.getByLabel("I am looking for...");
    await open(page.getByRole("button", { name: "Search" }), box);
    await box.fill("sieko");
    const results = page.getByRole("list", { name: "Search results" });
    await results.waitFor();
    const names = await results.getByRole("link").allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(8);
    expect(names.every((name) => /seiko/i.test(name))).toBe(true);

    await box.fill("qqxyzzq");
    await page.getByText('No products found for "qqxyzzq"').waitFor();

    await box.fill("omega");
    await page.getByRole("link", { name: /View all results/ }).click();
    await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("search") === "omega" && url.searchParams.get("sort") === "relevance:desc");
    expect(new Set(await cardMakers(page))).toEqual(new Set(["Omega"]));
  });

  it("/search: filters and sort live in the address and survive a reload", async () => {
    const page = await b.newPage();
    await page.goto("/search?search=watch");
    await page.getByRole("complementary", { name: "Filters" }).getByLabel(/In stock only/).click();
    await page.waitForURL((url) => url.searchParams.get("inStock") === "1");
    await page.getByLabel("Sort by").selectOption("price:asc");
    await page.waitForURL((url) => url.searchParams.get("sort") === "price:asc" && url.searchParams.get("inStock") === "1");
    const before = await page.getByTestId("result-count").textContent();

    await page.reload();
    expect(await page.getByRole("complementary", { name: "Filters" }).getByRole("checkbox", { name: /In stock only/ }).isChecked()).toBe(true);
    expect(await page.getByLabel("Sort by").inputValue()).toBe("price:asc");
    expect(await page.getByTestId("result-count").textContent()).toBe(before);
    const prices = await page.locator("[data-testid=product-card] .font-serif").allTextContents();
    const amounts = prices.map((text) => Number((/€([\d,]+\.\d{2})/.exec(text)?.[1] ?? "").replaceAll(",", "")));
    expect(amounts.length).toBeGreaterThan(1);
    expect([...amounts].sort((x, y) => x - y)).toEqual(amounts);
    const stock = await page.locator("[data-testid=product-card]").getByText("Sold out", { exact: true }).count();
    expect(stock).toBe(0);
  });

  it("mobile at 390 px: the Filters sheet filters the results and stays in the address", async () => {
    const context = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/search?search=watch");
    const sheet = page.getByRole("dialog", { name: "Filters" });
    await open(page.getByRole("button", { name: "Filters" }), sheet);
    await sheet.getByRole("checkbox", { name: /In stock only/ }).check();
    await page.waitForURL((url) => url.searchParams.get("inStock") === "1");
    await expect.poll(() => sheet.getByRole("checkbox", { name: /In stock only/ }).isChecked()).toBe(true);
    await screenshot(page, "storefront-mobile-filters");
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "hidden" });
    expect(await page.locator("[data-testid=product-card]").getByText("Sold out", { exact: true }).count()).toBe(0);
    await context.close();
  });

  it("product page: pictures through the image optimiser, attribute labels and the description", async () => {
    const page = await b.newPage();
    await page.goto("/search?search=omega");
    await page.locator("[data-testid=product-card] h3 a").first().click();
    await page.waitForURL(/\/product\/\d+$/);
    const picture = page.locator("main img").first();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await picture.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/_next\/image\?url=%2Fstorage%2Fproducts%2F\d+%2F1\.webp&w=(640|750|828|1080|1200)&q=75$/);
    const attributes = page.getByRole("definition");
    expect(await page.getByText("Item type", { exact: true }).count()).toBe(1);
    expect(await attributes.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^(Men's|Ladies|Unisex|Unknown)$/)]));
    await page.getByRole("heading", { name: "Description" }).waitFor();
    await page.getByRole("heading", { name: "Related pieces" }).waitFor();
    await screenshot(page, "storefront-product");
  });

  it("an unknown product shows the shop's not-found page, and a missing picture the placeholder", async () => {
    const page = await b.newPage();
    const response = await page.goto("/product/999999");
    expect(response?.status()).toBe(404);
    await page.getByText("This page has stopped ticking").waitFor();

    // Product 2's picture goes missing from storage: its page falls back to the shop's placeholder.
    rmSync(path.join(inject("serverDataDir"), "storage", "products", "2", "1.webp"), { force: true });
    await page.goto("/product/2");
    const picture = page.locator("main img").first();
    await expect.poll(() => picture.getAttribute("src")).toContain("no_image.jpg");
  });

  it("the settings panel switches to the dark theme, and the choice survives a reload", async () => {
    const page = await b.newPage();
    await page.goto("/");
    expect(await page.locator("html").getAttribute("class")).not.toContain("dark");
    await page.getByRole("button", { name: "Settings" }).click();
    await page.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect.poll(() => page.locator("html").getAttribute("class")).toContain("dark");
    await page.reload();
    expect(await page.locator("html").getAttribute("class")).toContain("dark");
    expect(await page.evaluate(() => localStorage.getItem("theme-mode"))).toBe("dark");
    await page.evaluate(() => localStorage.removeItem("theme-mode"));
  });

  it("the product page's server HTML, without JavaScript, has the name, the price and Product structured data", async () => {
    const search = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${encodeURIComponent(JSON.stringify({ json: { search: "omega" } }))}`);
    const body = (await search.json()) as { result: { data: { json: { products: { id: number; name: string }[] } } } };
    const first = body.result.data.json.products[0]!;
    const html = await (await fetch(`${baseUrl()}/product/${first.id}`)).text();
    const escaped = first.name.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;");
    expect(html).toContain(`<h1`);
    expect(html.includes(escaped) || html.includes(first.name)).toBe(true);
    expect(html).toMatch(/€[\d,]+\.\d{2}/);
    const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);
    const productData = jsonLd.find((data) => data["@type"] === "Product") as { name: string; offers: { priceCurrency: string; price: string; availability: string } };
    expect(productData.name).toBe(first.name);
    expect(productData.offers).toMatchObject({ priceCurrency: "EUR", price: expect.stringMatching(/^\d+\.\d{2}$/) });
    expect(productData.offers.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/);
  });
});
