import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import { findChromium, quietChromiumFlags } from "../../scripts/chromium.mjs";

/**
 * Chromium driven by playwright-core (ARCHITECTURE section 6), found by scripts/chromium.mjs: CHROMIUM_PATH, the
 * system's Chromium, or the one @sparticuz/chromium ships. Typical use in a journey:
 *
 *   let b: BrowserSession;
 *   beforeAll(async () => { b = await openBrowser(); });
 *   afterAll(() => b?.close());
 *   it("...", async () => { const page = await b.newPage(); await page.goto("/"); ... });
 *
 * Relative addresses in page.goto() resolve against the running shop (inject("baseUrl")).
 */

export const chromiumArgs = ["--headless", ...quietChromiumFlags];

export const screenshotDir = path.join(process.cwd(), "test-results", "screenshots");

export type BrowserSession = {
  browser: Browser;
  /** The first context, made by openBrowser(). */
  context: BrowserContext;
  /** A new page in the first context (which shares cookies and local storage with the others in it). */
  newPage: () => Promise<Page>;
  /** A separate context: another visitor, with cookies and storage of their own. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  close: () => Promise<void>;
};

export function baseUrl(): string {
  return inject("baseUrl");
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await findChromium(), headless: true, args: chromiumArgs });
}

/** Desktop-sized by default (the large breakpoint is 1024 px); pass `viewport` for the mobile layout. */
export async function openBrowser(options: BrowserContextOptions = {}): Promise<BrowserSession> {
  const browser = await launchBrowser();
  const newContext = (more: BrowserContextOptions = {}) =>
    browser.newContext({ baseURL: baseUrl(), viewport: { width: 1280, height: 900 }, locale: "en-GB", ...options, ...more });
  const context = await newContext();
  return {
    browser,
    context,
    newPage: () => context.newPage(),
    newContext,
    close: () => browser.close(),
  };
}

/** Saves a full-page PNG under test-results/screenshots/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name.replace(/[^\w.-]+/g, "-")}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
