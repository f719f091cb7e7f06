import type { Page } from "playwright-core";
import { expect } from "vitest";
import { baseUrl } from "./browser";

/** The storefront steps of a purchase, shared by the checkout and fulfilment journeys. */

export type Card = { id: number; name: string; price: string; stock: number; discount: { discountedPrice: string } | null };

/**
 * Products for these journeys: in stock, without a discount, taken oldest first so that they are not the newest
 * products the cart journeys shop from (the two files share one server and its stock).
 */
export async function products(): Promise<Card[]> {
  const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page: 1, orderBy: { createdAt: "asc" } } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
  return body.result.data.json.products.filter((p) => !p.discount && p.stock >= 2);
}

/** A product's stock as the shop reports it to a cart. */
export async function stockOf(productId: number): Promise<number> {
  const input = encodeURIComponent(JSON.stringify({ json: { items: [{ productId, quantity: 1 }] } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.pricing.quote?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { items: { stock: number }[] } } } };
  return body.result.data.json.items[0]!.stock;
}

export const euro = (amount: number) => new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR" }).format(amount);
export const amountOf = (text: string) => Number(text.replace(/[^0-9.]/g, ""));

/**
 * Adds one piece from the product page. A click on the server-rendered button before the page has hydrated does
 * nothing, so it is repeated until the cart's toast confirms the product went in.
 */
export async function addFromProductPage(page: Page, product: Card) {
  await page.goto(`/product/${product.id}`);
  const toast = page.getByText(`Product "${product.name}" added to cart`, { exact: true });
  const button = page.getByRole("main").getByRole("button", { name: "Add to cart", exact: true });
  await expect
    .poll(
      async () => {
        if (await toast.isVisible()) return true;
        await button.click({ timeout: 2_000 }).catch(() => undefined);
        return toast.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBe(true);
}

export type Address = { firstName: string; lastName: string; street: string; houseNumber: string; postCode: string; city: string; country: string };

export const amsterdam: Address = { firstName: "Anna", lastName: "de Vries", street: "Prinsengracht", houseNumber: "263", postCode: "1016 GV", city: "Amsterdam", country: "NL" };

export async function fillAddress(page: Page, address: Address) {
  await page.getByLabel("First name").fill(address.firstName);
  await page.getByLabel("Last name").fill(address.lastName);
  await page.getByLabel("Street").fill(address.street);
  await page.getByLabel("House number").fill(address.houseNumber);
  await page.getByLabel("Postcode").fill(address.postCode);
  await page.getByLabel("City").fill(address.city);
  await page.getByLabel("Country").selectOption(address.country);
}

/** Opens the checkout once it shows the order form (the cart is priced and the page has hydrated). */
export async function openCheckout(page: Page) {
  await page.goto("/checkout");
  await page.getByRole("heading", { name: "Your order" }).waitFor();
  await page.getByRole("button", { name: /^Place order and pay/ }).waitFor();
}

/** Chooses a shipping method and a payment method, checks the total, and places the order; resolves on the payment page. */
export async function chooseAndPlace(page: Page, method: "UNTRACKED" | "TNT", payment: string, itemsTotal: number) {
  const shipping = page.getByTestId(`shipping-${method}`);
  await shipping.waitFor();
  await shipping.getByRole("radio").check();
  const shippingCost = amountOf(await page.getByTestId("checkout-shipping").innerText());
  const surcharge = (await page.getByTestId("checkout-surcharge").count()) ? amountOf(await page.getByTestId("checkout-surcharge").innerText()) : 0;
  const total = itemsTotal + shippingCost + surcharge;
  await expect.poll(() => page.getByTestId("checkout-total").innerText()).toBe(euro(total));
  await page.getByRole("radio", { name: payment, exact: true }).check();
  await page.getByRole("button", { name: `Place order and pay ${euro(total)}` }).click();
  await page.waitForURL(/\/sandbox\/pay\//);
  expect(await page.getByTestId("sandbox-amount").innerText()).toBe(euro(total));
  return total;
}

/** The confirmation page the payment page returns to, with the order number from its address. */
export async function confirmation(page: Page, status: "paid" | "cancelled"): Promise<string> {
  await page.waitForURL(/\/checkout\/confirmation\/BC-/);
  const orderNumber = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const heading = status === "paid" ? "Thank you for your order" : "Your payment did not go through";
  await page.getByRole("heading", { name: heading }).waitFor({ timeout: 15_000 });
  return orderNumber;
}

/** The subjects of the e-mails sent to an address, read from the sandbox outbox. */
export async function outboxSubjects(page: Page, email: string): Promise<string[]> {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
    return await outbox.locator('[data-testid="outbox-message"] header p.font-medium').allInnerTexts();
  } finally {
    await outbox.close();
  }
}

