import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLD_REPEAT_DELAY_MS, HOLD_REPEAT_EVERY_MS } from "@/lib/hold-repeat";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";
import { signInAs } from "./sign-in";

/**
 * Issue 27, SPEC sections 5 and 9 in a browser: every number field of the back office clamps to its min and max on
 * leaving it; a held plus on a cart line repeats after 500 ms, then every 35 ms, and the held steps reach the cart as
 * one change; a toast swiped 47 px stays (sonner alone dismisses from 45) and one swiped 60 px goes.
 */

type Card = { id: number; name: string; price: string; stock: number };

/** Types into a field and leaves it, the way staff do: the field then shows what it keeps. */
async function typeAndLeave(field: Locator, typed: string): Promise<string> {
  await field.fill(typed);
  await field.press("Tab");
  return field.inputValue();
}

/** A product with stock enough for a held plus to repeat a few times (the seeded shop keeps at most 10), from the API. */
async function roomyProduct(): Promise<Card> {
  for (let page = 1; page <= 10; page++) {
    const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page, orderBy: { createdAt: "desc" } } }));
    const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
    const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
    const product = body.result.data.json.products.find((p) => p.stock >= 8);
    if (product) return product;
  }
  throw new Error("no product with 8 or more in stock");
}

function storedQuantity(page: Page, productId: number): Promise<number> {
  return page.evaluate((id) => {
    const items = JSON.parse(window.localStorage.getItem("cartItems") ?? "[]") as { productId: number; quantity: number }[];
    return items.find((item) => item.productId === id)?.quantity ?? 0;
  }, productId);
}

describe("SPEC details of number fields, spinners and toasts", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser();
  });
  afterAll(async () => {
    await b?.close();
  });

  it("clamps every back-office number field to its min and max on leaving it, and saves the clamped value", async () => {
    const context = await b.newContext();
    const admin = await context.newPage();
    await signInAs(admin, "admin@example.com");

    await admin.goto("/admin/discounts/create");
    const discount = admin.getByRole("form", { name: "New discount" });
    await discount.waitFor({ timeout: 20_000 });
    const code = `CLAMP${Date.now().toString(36).toUpperCase()}`;
    await discount.getByRole("radio", { name: /^Coupon/ }).check();
    await discount.getByRole("textbox", { name: "Code" }).fill(code);
    await discount.getByLabel("Type of value").selectOption("PERCENT");
    expect(await typeAndLeave(discount.getByLabel("Percentage (%)"), "150")).toBe("100");
    expect(await typeAndLeave(discount.getByLabel("Percentage (%)"), "7.5")).toBe("7.5");
    await discount.getByLabel("Type of value").selectOption("FIXED");
    expect(await typeAndLeave(discount.getByLabel("Amount (€)"), "-5")).toBe("0.01");
    expect(await typeAndLeave(discount.getByLabel("Minimum order value (€)"), "-3")).toBe("0.01");
    expect(await typeAndLeave(discount.getByLabel("Minimum order value (€)"), "")).toBe("");
    expect(await typeAndLeave(discount.getByLabel("Usage limit (orders)"), "0")).toBe("1");
    expect(await typeAndLeave(discount.getByLabel("Usage limit (orders)"), "5000000000")).toBe("999999999");
    await screenshot(admin, "spec-inputs-discount-clamped");
    await admin.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin, "spec-inputs-discount-clamped-phone");
    await admin.setViewportSize({ width: 1280, height: 900 });
    // The form saves what the fields show: -5 typed is saved as €0.01, which the schema accepts.
    await discount.getByRole("button", { name: "Create discount" }).click();
    await admin.getByText(/Saved|created/i).first().waitFor({ timeout: 15_000 });
    await admin.goto("/admin/discounts/manage");
    const row = admin.getByRole("row").filter({ hasText: code });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain("€0.01");

    await admin.goto("/admin/shippingSurcharge/create");
    const band = admin.getByRole("form", { name: "New surcharge band" });
    await band.waitFor({ timeout: 20_000 });
    expect(await typeAndLeave(band.getByLabel("From (€)"), "-1")).toBe("0");
    expect(await typeAndLeave(band.getByLabel("Up to (€)"), "123456789")).toBe("99999999.99");
    expect(await typeAndLeave(band.getByLabel("Surcharge (%)"), "150")).toBe("100");
    expect(await typeAndLeave(band.getByLabel("Surcharge (%)"), "0")).toBe("0");

    await admin.goto("/admin/shippingSurcharge/countries/US");
    const country = admin.getByRole("form", { name: "Shipping to United States" });
    await country.waitFor({ timeout: 20_000 });
    expect(await typeAndLeave(country.locator("#field-untrackedEtaDays"), "200")).toBe("90");
    expect(await typeAndLeave(country.locator("#field-tntEtaDays"), "0")).toBe("1");
    expect(await typeAndLeave(country.locator("#field-tntCost"), "-2")).toBe("0");
    expect(await typeAndLeave(country.getByLabel("Untracked up to in Alaska"), "-1")).toBe("0");
    expect(await typeAndLeave(country.getByLabel("Untracked up to in Alaska"), "25,50")).toBe("25,50");
    await screenshot(admin, "spec-inputs-country-clamped");
    await context.close();
  });

  it("repeats a held plus after 500 ms, then every 35 ms, up to the stock, and sends the held steps as one change", async () => {
    const product = await roomyProduct();
    const context = await b.newContext();
    const page = await context.newPage();
    await page.goto("/");
    await page.evaluate((p) => window.localStorage.setItem("cartItems", JSON.stringify([{ productId: p.id, name: p.name, price: p.price, quantity: 1 }])), product);
    await page.goto("/cart");
    const quantity = page.getByRole("spinbutton", { name: `Quantity of ${product.name}` });
    await expect.poll(() => quantity.inputValue().catch(() => ""), { timeout: 20_000 }).toBe("1");
    const plus = page.getByRole("button", { name: `One more ${product.name}`, exact: true });

    // The page samples the field every frame from the press on, so the pace is measured where it happens.
    await page.evaluate(() => {
      const samples: { at: number; value: number }[] = [];
      const field = document.querySelector<HTMLInputElement>('[data-testid="cart-line"] input[type="number"]')!;
      Object.assign(window, { holdSamples: samples });
      window.addEventListener(
        "pointerdown",
        () => {
          const pressed = performance.now();
          const sample = () => {
            if (!field.isConnected) return;
            samples.push({ at: performance.now() - pressed, value: Number(field.value) });
            requestAnimationFrame(sample);
          };
          sample();
        },
        { capture: true, once: true },
      );
    });
    await plus.hover();
    await page.mouse.down();
    // Held past the stock: the steps stop there, and the cart gets them all in one change without letting go.
    await expect.poll(() => storedQuantity(page, product.id), { timeout: 20_000 }).toBe(product.stock);
    await page.mouse.up();
    const samples = await page.evaluate(() => (window as unknown as { holdSamples: { at: number; value: number }[] }).holdSamples);
    const firstAt = (value: number) => samples.find((sample) => sample.value >= value)!.at;
    console.info("held plus, first moment each quantity showed (ms):", [...new Set(samples.map((sample) => sample.value))].map((value) => `${value}@${Math.round(firstAt(value))}`).join(" "));

    // The press steps at once, the second step waits 500 ms, and each after it 35 ms. The field may not show the last
    // step, the one that reaches the stock: the line turns busy in the same moment. Sampling once a frame (about
    // 17 ms) blurs each moment by up to a frame.
    expect(firstAt(2)).toBeLessThan(100);
    expect(firstAt(3)).toBeGreaterThanOrEqual(HOLD_REPEAT_DELAY_MS);
    expect(firstAt(3)).toBeLessThan(HOLD_REPEAT_DELAY_MS + 60);
    const lastShown = product.stock - 1;
    const pace = (firstAt(lastShown) - firstAt(3)) / (lastShown - 3);
    expect(pace).toBeGreaterThan(HOLD_REPEAT_EVERY_MS - 6);
    expect(pace).toBeLessThan(HOLD_REPEAT_EVERY_MS + 6);

    // The field shows what the cart holds once it has answered, and plus is off at the stock.
    await expect.poll(() => quantity.inputValue().catch(() => ""), { timeout: 20_000 }).toBe(String(product.stock));
    expect(await plus.isDisabled()).toBe(true);
    await page.getByText(`Product "${product.name}" added to cart`, { exact: true }).waitFor();
    await screenshot(page, "spec-inputs-cart-after-hold");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "spec-inputs-cart-after-hold-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // The keyboard still steps once per press.
    await page.getByRole("button", { name: `One fewer ${product.name}`, exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => storedQuantity(page, product.id), { timeout: 20_000 }).toBe(product.stock - 1);
    await expect.poll(() => quantity.inputValue().catch(() => ""), { timeout: 20_000 }).toBe(String(product.stock - 1));
    await context.close();
  });

  it("keeps a toast swiped up 47 px and dismisses one swiped up 60 px (SPEC threshold 50, sonner's own 45)", async () => {
    const product = await roomyProduct();
    const context = await b.newContext();
    // Before any of the shop's scripts: the distance each swipe measured on letting go, as sonner alone would read it.
    await context.addInitScript(() => {
      const swipes: string[] = [];
      Object.assign(window, { swipes });
      window.addEventListener(
        "pointerup",
        (event) => {
          const toast = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-sonner-toast]") : null;
          if (toast) swipes.push(toast.style.getPropertyValue("--swipe-amount-y"));
        },
        true,
      );
    });
    const page = await context.newPage();
    await page.goto("/");
    await page.evaluate((p) => window.localStorage.setItem("cartItems", JSON.stringify([{ productId: p.id, name: p.name, price: p.price, quantity: 1 }])), product);
    await page.goto("/cart");
    const quantity = page.getByRole("spinbutton", { name: `Quantity of ${product.name}` });
    await expect.poll(() => quantity.inputValue().catch(() => ""), { timeout: 20_000 }).toBe("1");
    await page.getByRole("button", { name: `One more ${product.name}`, exact: true }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: `Product "${product.name}" added to cart` });
    await toast.waitFor();

    /** Drags the toast up by `px`, slower than sonner's flick speed (0.11 px/ms), so only the distance counts. */
    async function swipeUp(px: number) {
      // Once it has slid in: a press on where it is still moving to would miss it.
      await expect.poll(() => toast.evaluate((element) => element.getAttribute("data-mounted") === "true" && element.getAnimations().length === 0)).toBe(true);
      const box = (await toast.getByText(`Product "${product.name}" added to cart`).boundingBox())!;
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x, y - px, { steps: 10 });
      // Holding still is what makes the swipe slow; the toast does not change while held, so there is nothing to wait on.
      await page.waitForTimeout(Math.ceil(px / 0.11) + 100);
      await page.mouse.up();
    }

    await swipeUp(47);
    await expect.poll(() => page.evaluate(() => (window as unknown as { swipes: string[] }).swipes)).toEqual(["-47px"]);
    await expect.poll(() => toast.getAttribute("data-swipe-out")).toBe("false");
    expect(await toast.getAttribute("data-removed")).toBe("false");
    await screenshot(page, "spec-inputs-toast-kept");
    await swipeUp(60);
    await toast.waitFor({ state: "detached" });
    await context.close();
  });
});
