import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, screenshotDir, type BrowserSession } from "./browser";

/** Where the visitor leaves each list: far enough down that the top is out of sight at 1280×900. */
const DOWN = 1200;

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Within a few pixels: a position restored to a fractional device pixel may round either way. */
async function expectScrolledTo(page: Page, y: number) {
  await expect.poll(async () => Math.abs((await scrollY(page)) - y)).toBeLessThanOrEqual(3);
}

/**
 * Opens a list, scrolls it down and opens the product under the pointer; back, forward and back again must show the
 * list where it was and the product at its top (SPEC section 2).
 */
async function leaveAndComeBack(page: Page, address: string, name: string) {
  await page.goto(address);
  // The shop layout has hydrated and keeps positions from here on.
  await expect.poll(() => page.evaluate(() => window.history.scrollRestoration)).toBe("manual");
  const room = await page.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight);
  expect(room).toBeGreaterThan(DOWN);
  await page.evaluate((y) => window.scrollTo(0, y), DOWN);
  await expectScrolledTo(page, DOWN);
  const listAddress = new URL(page.url());

  // A card in sight, so that clicking it does not scroll the list first.
  const product = await page.evaluate(() => {
    const inSight = [...document.querySelectorAll<HTMLAnchorElement>("[data-testid=product-card] a[href^='/product/']")].find((link) => {
      const box = link.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
    });
    return inSight?.getAttribute("href") ?? null;
  });
  expect(product).toMatch(/^\/product\/\d+$/);
  await page.locator(`[data-testid=product-card] a[href='${product}']`).first().click();
  await page.waitForURL((url) => url.pathname === product);
  await page.getByRole("heading", { level: 1 }).waitFor();
  await expectScrolledTo(page, 0);

  await page.goBack();
  expect(page.url()).toBe(listAddress.href);
  await expectScrolledTo(page, DOWN);
  // What the visitor sees, not the full page: a full-page picture resizes the window and scrolls it.
  await page.screenshot({ path: path.join(screenshotDir, `scroll-restoration-${name}-back.png`) });

  await page.goForward();
  await page.waitForURL((url) => url.pathname === product);
  await expectScrolledTo(page, 0);

  await page.goBack();
  expect(page.url()).toBe(listAddress.href);
  await expectScrolledTo(page, DOWN);
  // Kept under the address with its query, the way the visitor came: the key the tab's storage holds after a reload.
  await page.reload();
  await expectScrolledTo(page, DOWN);
  const saved = await page.evaluate(() => JSON.parse(window.sessionStorage.getItem("scroll-positions") ?? "{}") as Record<string, number>);
  expect(Math.abs((saved[listAddress.pathname + listAddress.search] ?? 0) - DOWN)).toBeLessThanOrEqual(3);
}

describe("scroll position on back and forward", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser();
  });

  afterAll(async () => {
    await b?.close();
  });

  it("search results: back to where the visitor was in the list", async () => {
    await leaveAndComeBack(await b.newPage(), "/search?search=watch", "search");
  });

  it("a category listing", async () => {
    const page = await b.newPage();
    await page.goto("/");
    const category = await page.locator("section[aria-labelledby=browse-categories] > ul > li > a").first().getAttribute("href");
    expect(category).toMatch(/^\/search\?category=\d+/);
    await leaveAndComeBack(page, category!, "category");
  });

  it("the home page", async () => {
    await leaveAndComeBack(await b.newPage(), "/", "home");
  });

  it("mobile at 390 px: search results", async () => {
    const context = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await leaveAndComeBack(await context.newPage(), "/search?search=watch", "search-mobile");
    await context.close();
  });
});
