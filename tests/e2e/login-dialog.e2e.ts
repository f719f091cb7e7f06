import type { BrowserContextOptions, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { loginDialog, openWith } from "./sign-in";

const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const phoneContext: BrowserContextOptions = { viewport: phone, isMobile: true, hasTouch: true };

type Box = { x: number; y: number; width: number; height: number };

/** The box of an open dialog once its opening animation has finished (two reads a moment apart agree). */
async function settledBox(dialog: Locator): Promise<Box> {
  let last = "";
  let box: Box | null = null;
  await expect
    .poll(
      async () => {
        box = await dialog.boundingBox();
        const now = JSON.stringify(box);
        const settled = box !== null && now === last;
        last = now;
        return settled;
      },
      { timeout: 10_000, interval: 250 },
    )
    .toBe(true);
  return box!;
}

/** A side sheet: against the right edge, the full height of the viewport. */
function expectSideSheet(box: Box, viewport: { width: number; height: number }) {
  expect(Math.round(box.x + box.width)).toBe(viewport.width);
  expect(Math.round(box.y)).toBe(0);
  expect(Math.round(box.height)).toBe(viewport.height);
}

async function openCart(page: Page): Promise<Locator> {
  const drawer = page.getByRole("dialog", { name: "Cart", exact: true });
  await openWith(page.getByRole("button", { name: /^Cart(,|$)/ }), drawer);
  return drawer;
}

describe("login dialog and cart drawer: centred on large screens, side sheets below", () => {
  let b: BrowserSession | undefined;

  beforeAll(async () => {
    b = await openBrowser();
  });
  afterAll(async () => {
    await b?.close();
  });

  it("desktop: the login dialog is centred, checks the address, and the cart drawer slides in from the right", async () => {
    const context = await b!.newContext({ viewport: desktop });
    const page = await context.newPage();
    await page.goto("/");
    const { trigger, signIn } = loginDialog(page);
    await openWith(trigger, signIn);
    const box = await settledBox(signIn);
    expect(Math.abs(box.x + box.width / 2 - desktop.width / 2)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y + box.height / 2 - desktop.height / 2)).toBeLessThanOrEqual(1);
    expect(box.height).toBeLessThan(desktop.height);
    expect(await signIn.getByText("Keep your cart on every device and follow your orders.").isVisible()).toBe(true);

    await signIn.getByLabel("E-mail address").fill("not-an-address");
    await signIn.getByRole("button", { name: "Email me a sign-in link" }).click();
    await signIn.getByText("Enter a valid e-mail address, like name@example.com", { exact: true }).waitFor();
    expect(await signIn.getByLabel("E-mail address").getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "login-dialog-1280");

    await page.keyboard.press("Escape");
    await signIn.waitFor({ state: "hidden" });
    const drawer = await openCart(page);
    expectSideSheet(await settledBox(drawer), desktop);
    await screenshot(page, "cart-drawer-1280");
    await context.close();
  });

  it("mobile at 390 px: the login dialog and the cart drawer open as side sheets from the bottom bar", async () => {
    const context = await b!.newContext(phoneContext);
    const page = await context.newPage();
    await page.goto("/search?inStock=1");
    const { trigger, signIn, checkEmail } = loginDialog(page);
    // The desktop navbar's account button is hidden at this width: this is the bottom bar's.
    expect(await trigger.count()).toBe(1);
    await openWith(trigger, signIn);
    expectSideSheet(await settledBox(signIn), phone);
    await screenshot(page, "login-dialog-390");

    const email = `phone-${Date.now()}@example.com`;
    await signIn.getByLabel("E-mail address").fill(email);
    await signIn.getByRole("button", { name: "Email me a sign-in link" }).click();
    await checkEmail.getByTestId("link-sent").waitFor();
    expect(await checkEmail.getByText(email, { exact: true }).isVisible()).toBe(true);
    expectSideSheet(await settledBox(checkEmail), phone);
    await screenshot(page, "login-dialog-sent-390");
    await page.keyboard.press("Escape");
    await checkEmail.waitFor({ state: "hidden" });

    // A piece in the cart, so that the drawer shows a line and its totals.
    const add = page.getByRole("button", { name: /^Add .+ to cart$/ }).first();
    await expect
      .poll(
        async () => {
          if (!(await page.evaluate(() => window.localStorage.getItem("cartItems")))) await add.click({ timeout: 2_000 }).catch(() => undefined);
          return page.evaluate(() => window.localStorage.getItem("cartItems"));
        },
        { timeout: 20_000, interval: 500 },
      )
      .not.toBeNull();
    const drawer = await openCart(page);
    await drawer.getByTestId("cart-line").first().waitFor();
    await drawer.getByTestId("cart-total").waitFor();
    expectSideSheet(await settledBox(drawer), phone);
    // The drawer leaves a strip of the page showing (88 % of the width).
    expect((await settledBox(drawer)).width).toBeLessThan(phone.width);
    await screenshot(page, "cart-drawer-390");
    await context.close();
  });
});
