import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";

/**
 * Debian's Chromium driven by playwright-core (ARCHITECTURE section 6). Typical use in a journey:
 *
 *   let b: BrowserSession;
 *   beforeAll(async () => { b = await openBrowser(); });
 *   afterAll(() => b?.close());
 *   it("...", async () => { const page = await b.newPage(); await page.goto("/"); ... });
 *
 * Relative addresses in page.goto() resolve against the running shop (inject("baseUrl")).
 */

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Without the background-networking flags Chromium keeps dialling out, which this machine's closed network refuses. */
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

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
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
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
