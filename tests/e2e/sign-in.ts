import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, inject } from "vitest";
import type { Locator, Page } from "playwright-core";
import { openBrowser, type BrowserSession } from "./browser";

/**
 * Signs `page`'s browser context in as `email` the way a customer does: asks for a sign-in link on the sign-in page,
 * reads the newest link sent to that address (see sentSignInLinks) and opens it. A new address gets a new customer
 * account. Resolves once the session is live.
 *
 * A member of staff then confirms with the demo code, and that session is kept for the run: a code is taken once per
 * half minute, so later journeys that only need the demo admin signed in start from its session (still checked to be
 * live) instead of waiting for the next code; `fresh` walks the pages all the same (the journeys about signing in
 * have helpers of their own).
 */
export async function signInAs(page: Page, email: string, { fresh = false }: { fresh?: boolean } = {}): Promise<void> {
  const address = email.trim().toLowerCase();
  if (!fresh && (await resumeStaffSession(page, address))) return;
  const before = await sentSignInLinks(page, address);

  await page.goto("/sign-in");
  await page.getByLabel("E-mail address").fill(address);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();

  await page.goto(await newSignInLink(page, address, before));
  const staff = new URL(page.url()).pathname === "/sign-in/second-factor";
  if (staff) await confirmWithDemoCode(page);
  await expectSignedInAs(page, address);
  if (staff) keepStaffSession(address, await page.context().cookies());
}

/**
 * The hooks of a journey through the back office: before its tests, a browser at 1280 px with the demo admin signed
 * in, handed to `opened` (its page, and the browser for other contexts); after them, the browser closed.
 */
export function withSignedInAdmin(opened: (page: Page, browser: BrowserSession) => void): void {
  let browser: BrowserSession | undefined;
  beforeAll(async () => {
    browser = await openBrowser({ viewport: { width: 1280, height: 900 } });
    const page = await browser.newPage();
    await signInAs(page, "admin@example.com");
    opened(page, browser);
  });
  afterAll(async () => {
    await browser?.close();
  });
}

type Cookies = Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>>;

const staffSessionFile = (address: string) => path.join(inject("serverDataDir"), "e2e-staff-sessions", `${address}.json`);

function keepStaffSession(address: string, cookies: Cookies): void {
  mkdirSync(path.dirname(staffSessionFile(address)), { recursive: true });
  writeFileSync(staffSessionFile(address), JSON.stringify(cookies));
}

/** Puts the kept session of `address` into `page`'s context; false (and no cookies added) when there is none live. */
async function resumeStaffSession(page: Page, address: string): Promise<boolean> {
  const file = staffSessionFile(address);
  if (!existsSync(file)) return false;
  const context = page.context();
  await context.addCookies(JSON.parse(readFileSync(file, "utf8")) as Cookies);
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user?: { email?: string } } | null;
  if (session?.user?.email === address) return true;
  // Signed out (or expired) since: forget it and sign in afresh.
  await context.clearCookies();
  rmSync(file, { force: true });
  return false;
}

/**
 * Confirms the demo admin's sign-in on the second factor's page with the demo code the sandbox offers (its secret is
 * published in the README). A code is taken once, so after two sign-ins in one half minute the page offers none for a
 * moment: it is asked again until it does.
 */
export async function confirmWithDemoCode(page: Page): Promise<void> {
  await page.getByRole("heading", { name: "Confirm it's you" }).waitFor();
  // A loop rather than expect.poll: sign-ins happen in hooks too, where expect.poll may not be called.
  for (const deadline = Date.now() + 75_000; new URL(page.url()).pathname === "/sign-in/second-factor"; ) {
    if (Date.now() > deadline) throw new Error("The demo admin's second factor was not confirmed within 75 s");
    // The card reads the sign-in's state first ("One moment…"), which takes seconds on a busy machine: look for the
    // demo code once it shows the code field, or a reload every two seconds could keep it from ever showing.
    await page.getByLabel("Code from your authenticator app").waitFor({ timeout: 30_000 }).catch(() => undefined);
    const button = page.getByRole("button", { name: "Use the demo code" });
    if (await button.isVisible()) {
      await button.click();
      await page.waitForURL((url) => url.pathname !== "/sign-in/second-factor", { timeout: 5_000 }).catch(() => undefined);
    } else {
      await page.waitForTimeout(2_000);
      await page.reload();
    }
  }
}

/** Resolves once `page`'s context has a live session for `email`. */
export async function expectSignedInAs(page: Page, email: string): Promise<void> {
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user?: { email?: string } } | null;
  expect(session?.user?.email).toBe(email.trim().toLowerCase());
}

/**
 * The sign-in link sent to `email` after the links in `before` (read with sentSignInLinks() before asking for one):
 * the e-mail is sent while the request is handled, but the sources are polled a little to be safe.
 */
export async function newSignInLink(page: Page, email: string, before: string[]): Promise<string> {
  const address = email.trim().toLowerCase();
  for (let attempt = 0; attempt < 20; attempt++) {
    const link = (await sentSignInLinks(page, address)).find((candidate) => !before.includes(candidate));
    if (link) return link;
    await page.waitForTimeout(250);
  }
  throw new Error(`No new sign-in e-mail for ${address} in the outbox or the server log`);
}

/**
 * The sign-in links sent to an address: a customer's from the sandbox outbox, as a developer would read them there;
 * a staff account's from the server log, the only place the shop shows them (the outbox never does).
 */
export async function sentSignInLinks(page: Page, email: string): Promise<string[]> {
  return [...(await outboxLinks(page, email)), ...serverLogLinks(email)];
}

/** The links of the sandbox e-mails to `email` that the server logged, newest first. */
export function serverLogLinks(email: string): string[] {
  const address = email.trim().toLowerCase();
  const links: string[] = [];
  for (const line of readFileSync(inject("serverLogFile"), "utf8").split("\n")) {
    if (!line.includes('"MAIL_SANDBOX"')) continue;
    try {
      const entry = JSON.parse(line) as { to?: string; links?: string[] };
      if (entry.to === address) links.unshift(...(entry.links ?? []));
    } catch {
      // Not a whole log line (still being written).
    }
  }
  return links;
}

/** The sign-in links in the outbox for one address, newest first (read in a page of its own, `page` stays put). */
export async function outboxLinks(page: Page, email: string): Promise<string[]> {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto(`/dev/outbox?to=${encodeURIComponent(email.trim().toLowerCase())}`);
    return await outbox.locator('[data-testid="outbox-link"]').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
  } finally {
    await outbox.close();
  }
}

/**
 * Clicks a trigger until what it opens shows. A server-rendered button does nothing until the page has hydrated
 * (and the account button stays disabled while the session loads), and a journey can be faster than that.
 */
export async function openWith(trigger: Locator, opened: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if (!(await opened.isVisible())) await trigger.click({ timeout: 2_000 }).catch(() => undefined);
        return opened.isVisible();
      },
      { timeout: 20_000, interval: 500 },
    )
    .toBe(true);
}

/** The navbar's account button for visitors (the one shown at the page's width), and the login dialog it opens. */
export function loginDialog(page: Page): { trigger: Locator; signIn: Locator; checkEmail: Locator } {
  return {
    trigger: page.getByRole("button", { name: "Sign in", exact: true }),
    signIn: page.getByRole("dialog", { name: "Sign in", exact: true }),
    checkEmail: page.getByRole("dialog", { name: "Check your email", exact: true }),
  };
}

/**
 * Asks for a sign-in link through the navbar's login dialog and waits for 'Check your email'. Returns the outbox's
 * links to that address from before, for newSignInLink().
 */
export async function requestLinkFromLoginDialog(page: Page, email: string): Promise<string[]> {
  const address = email.trim().toLowerCase();
  const before = await sentSignInLinks(page, address);
  const dialog = loginDialog(page);
  await openWith(dialog.trigger, dialog.signIn);
  await dialog.signIn.getByLabel("E-mail address").fill(address);
  await dialog.signIn.getByRole("button", { name: "Email me a sign-in link" }).click();
  await dialog.checkEmail.waitFor();
  return before;
}

/** Signs in through the navbar's login dialog and the link from the outbox; `page` ends where the link returns to. */
export async function signInWithLoginDialog(page: Page, email: string): Promise<void> {
  const before = await requestLinkFromLoginDialog(page, email);
  await page.goto(await newSignInLink(page, email, before));
  await expectSignedInAs(page, email);
}
