import { expect } from "vitest";
import type { Locator, Page } from "playwright-core";

/**
 * Signs `page`'s browser context in as `email` the way a customer does: asks for a sign-in link on the sign-in page,
 * reads the newest link sent to that address from the sandbox outbox (/dev/outbox) and opens it. A new address
 * gets a new customer account. Resolves once the session is live.
 */
export async function signInAs(page: Page, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const before = await outboxLinks(page, address);

  await page.goto("/sign-in");
  await page.getByLabel("E-mail address").fill(address);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();

  await page.goto(await newSignInLink(page, address, before));
  await expectSignedInAs(page, address);
}

/** Resolves once `page`'s context has a live session for `email`. */
export async function expectSignedInAs(page: Page, email: string): Promise<void> {
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user?: { email?: string } } | null;
  expect(session?.user?.email).toBe(email.trim().toLowerCase());
}

/**
 * The sign-in link that reached `email`'s outbox after the links in `before` (read with outboxLinks() before asking
 * for one): the e-mail is sent while the request is handled, but the outbox is polled a little to be safe.
 */
export async function newSignInLink(page: Page, email: string, before: string[]): Promise<string> {
  const address = email.trim().toLowerCase();
  for (let attempt = 0; attempt < 20; attempt++) {
    const link = (await outboxLinks(page, address)).find((candidate) => !before.includes(candidate));
    if (link) return link;
    await page.waitForTimeout(250);
  }
  throw new Error(`No new sign-in e-mail for ${address} in the outbox`);
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
  const before = await outboxLinks(page, address);
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
