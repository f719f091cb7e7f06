import { expect } from "vitest";
import type { Page } from "playwright-core";

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

  let link: string | undefined;
  for (let attempt = 0; attempt < 20 && !link; attempt++) {
    const links = await outboxLinks(page, address);
    link = links.find((candidate) => !before.includes(candidate));
    if (!link) await page.waitForTimeout(250);
  }
  if (!link) throw new Error(`No new sign-in e-mail for ${address} in the outbox`);

  await page.goto(link);
  const session = (await (await page.request.get("/api/auth/session")).json()) as { user?: { email?: string } } | null;
  expect(session?.user?.email).toBe(address);
}

/** The sign-in links in the outbox for one address, newest first. */
async function outboxLinks(page: Page, address: string): Promise<string[]> {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto(`/dev/outbox?to=${encodeURIComponent(address)}`);
    return await outbox.locator('[data-testid="outbox-link"]').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
  } finally {
    await outbox.close();
  }
}
