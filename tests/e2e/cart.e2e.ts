import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";
import { signInAs } from "./sign-in";

type Card = { id: number; name: string; price: string; stock: number; discount: { discountedPrice: string } | null };

/** Products in stock without a discount, from the shop's own API, so that expected totals are plain sums. */
async function plainProducts(count: number): Promise<Card[]> {
  const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page: 1, orderBy: { createdAt: "desc" } } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
  const products = body.result.data.json.products.filter((p) => !p.discount && p.stock >= 3).slice(0, count);
  expect(products).toHaveLength(count);
  return products;
}

const euro = (amount: number) => new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR" }).format(amount);

async function cartLines(page: Page): Promise<{ id: number; quantity: string }[]> {
  const lines = page.getByTestId("cart-line");
  await lines.first().waitFor();
  return lines.evaluateAll((items) =>
    items.map((item) => ({
      id: Number(item.getAttribute("data-product-id")),
      quantity: (item.querySelector('input[type="number"]') as HTMLInputElement | null)?.value ?? "",
    })),
  );
}

describe("cart: a visitor's cart follows them into their account", () => {
  let b: BrowserSession | undefined;
  let products: Card[];

  beforeAll(async () => {
    b = await openBrowser();
    products = await plainProducts(2);
  });
  afterAll(async () => {
    await b?.close();
  });

  it("merges the anonymous cart on sign-in by e-mail link and shows the same cart in a new browser after signing in again", async () => {
    const email = `merge-${Date.now()}@example.com`;
    const [first, second] = products as [Card, Card];
    const page = await b!.newPage();
    await page.goto("/");
    // The home page's cards have no add-to-cart button yet in this branch (the storefront adds it): the visitor's
    // cart is put in local storage the way useAddToCart keeps it, with a tampered price the server must ignore.
    await page.evaluate(
      ([a, c]) =>
        window.localStorage.setItem(
          "cartItems",
          JSON.stringify([
            { productId: a!.id, name: a!.name, price: "0.01", quantity: 1 },
            { productId: c!.id, name: c!.name, price: c!.price, quantity: 2 },
          ]),
        ),
      [first, second],
    );

    await page.goto("/cart");
    expect(await cartLines(page)).toEqual([
      { id: first.id, quantity: "1" },
      { id: second.id, quantity: "2" },
    ]);
    const expected = euro(Number(first.price) + 2 * Number(second.price));
    await expect.poll(() => page.getByTestId("cart-total").textContent()).toBe(expected);
    await screenshot(page, "cart-page-visitor");

    await signInAs(page, email);
    await page.goto("/cart");
    expect(await cartLines(page)).toEqual([
      { id: first.id, quantity: "1" },
      { id: second.id, quantity: "2" },
    ]);
    await expect.poll(() => page.getByTestId("cart-total").textContent()).toBe(expected);
    // Merged into the server cart, the local copy is emptied.
    expect(await page.evaluate(() => window.localStorage.getItem("cartItems"))).toBeNull();

    const other = await b!.newContext();
    const elsewhere = await other.newPage();
    await signInAs(elsewhere, email);
    await elsewhere.goto("/cart");
    expect(await cartLines(elsewhere)).toEqual([
      { id: first.id, quantity: "1" },
      { id: second.id, quantity: "2" },
    ]);
    await expect.poll(() => elsewhere.getByTestId("cart-total").textContent()).toBe(expected);
    await other.close();
  });

  it("applies a valid coupon to the total, explains an invalid or expired one, and restores the total on removal", async () => {
    const [first, second] = products as [Card, Card];
    const page = await b!.newPage();
    await page.goto("/");
    await page.evaluate(() => window.localStorage.clear());
    await page.context().clearCookies();
    await page.evaluate(
      ([a, c]) =>
        window.localStorage.setItem(
          "cartItems",
          JSON.stringify([
            { productId: a!.id, name: a!.name, price: a!.price, quantity: 1 },
            { productId: c!.id, name: c!.name, price: c!.price, quantity: 1 },
          ]),
        ),
      [first, second],
    );
    await signInAs(page, `coupon-${Date.now()}@example.com`);
    await page.goto("/cart");
    await cartLines(page);
    const subtotal = Number(first.price) + Number(second.price);
    const total = page.getByTestId("cart-total");
    await expect.poll(() => total.textContent()).toBe(euro(subtotal));

    const code = page.getByLabel("Discount code");
    await code.fill("NOPE");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.getByTestId("coupon-error").textContent()).toBe("The code NOPE is not valid.");

    await code.fill("summer24");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.getByTestId("coupon-error").textContent()).toBe("The code SUMMER24 has expired.");
    expect(await total.textContent()).toBe(euro(subtotal));

    await code.fill("WELCOME10");
    await page.getByRole("button", { name: "Apply" }).click();
    // 10% off: the discounted subtotal is rounded half up to cents, the discount is the difference.
    const subtotalCents = Math.round(subtotal * 100);
    const discountedCents = Math.round((subtotalCents * 9) / 10);
    const discount = (subtotalCents - discountedCents) / 100;
    await expect.poll(() => total.textContent()).toBe(euro(discountedCents / 100));
    expect(await page.getByTestId("cart-discount").textContent()).toBe(`−${euro(discount)}`);
    await screenshot(page, "cart-page-coupon");

    await page.getByRole("button", { name: "Remove code WELCOME10" }).click();
    await expect.poll(() => total.textContent()).toBe(euro(subtotal));
    expect(await page.getByTestId("cart-discount").textContent()).toBe(euro(0));
  });
});
