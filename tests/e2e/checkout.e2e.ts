import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";
import { signInAs } from "./sign-in";

type Card = { id: number; name: string; price: string; stock: number; discount: { discountedPrice: string } | null };

/**
 * Products for these journeys: in stock, without a discount, taken oldest first so that they are not the newest
 * products the cart journeys shop from (the two files share one server and its stock).
 */
async function products(): Promise<Card[]> {
  const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page: 1, orderBy: { createdAt: "asc" } } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
  return body.result.data.json.products.filter((p) => !p.discount && p.stock >= 2);
}

/** A product's stock as the shop reports it to a cart. */
async function stockOf(productId: number): Promise<number> {
  const input = encodeURIComponent(JSON.stringify({ json: { items: [{ productId, quantity: 1 }] } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.pricing.quote?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { items: { stock: number }[] } } } };
  return body.result.data.json.items[0]!.stock;
}

const euro = (amount: number) => new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR" }).format(amount);
const amountOf = (text: string) => Number(text.replace(/[^0-9.]/g, ""));

/**
 * Adds one piece from the product page. A click on the server-rendered button before the page has hydrated does
 * nothing, so it is repeated until the cart's toast confirms the product went in.
 */
async function addFromProductPage(page: Page, product: Card) {
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

type Address = { firstName: string; lastName: string; street: string; houseNumber: string; postCode: string; city: string; country: string };

const amsterdam: Address = { firstName: "Anna", lastName: "de Vries", street: "Prinsengracht", houseNumber: "263", postCode: "1016 GV", city: "Amsterdam", country: "NL" };

async function fillAddress(page: Page, address: Address) {
  await page.getByLabel("First name").fill(address.firstName);
  await page.getByLabel("Last name").fill(address.lastName);
  await page.getByLabel("Street").fill(address.street);
  await page.getByLabel("House number").fill(address.houseNumber);
  await page.getByLabel("Postcode").fill(address.postCode);
  await page.getByLabel("City").fill(address.city);
  await page.getByLabel("Country").selectOption(address.country);
}

/** Opens the checkout once it shows the order form (the cart is priced and the page has hydrated). */
async function openCheckout(page: Page) {
  await page.goto("/checkout");
  await page.getByRole("heading", { name: "Your order" }).waitFor();
  await page.getByRole("button", { name: /^Place order and pay/ }).waitFor();
}

/** Chooses a shipping method and a payment method, checks the total, and places the order; resolves on the payment page. */
async function chooseAndPlace(page: Page, method: "UNTRACKED" | "TNT", payment: string, itemsTotal: number) {
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
async function confirmation(page: Page, status: "paid" | "cancelled"): Promise<string> {
  await page.waitForURL(/\/checkout\/confirmation\/BC-/);
  const orderNumber = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const heading = status === "paid" ? "Thank you for your order" : "Your payment did not go through";
  await page.getByRole("heading", { name: heading }).waitFor({ timeout: 15_000 });
  return orderNumber;
}

/** The subjects of the e-mails sent to an address, read from the sandbox outbox. */
async function outboxSubjects(page: Page, email: string): Promise<string[]> {
  const outbox = await page.context().newPage();
  try {
    await outbox.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
    return await outbox.locator('[data-testid="outbox-message"] header p.font-medium').allInnerTexts();
  } finally {
    await outbox.close();
  }
}

describe("checkout", () => {
  let b: BrowserSession;
  let shelf: Card[];

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
    shelf = await products();
    expect(shelf.length).toBeGreaterThanOrEqual(5);
  });
  afterAll(async () => {
    await b?.close();
  });

  it("a guest buys two products: the form keeps what was typed on an error, pays on the sandbox page, and gets the confirmation e-mail", async () => {
    const page = await b.newPage();
    const [first, second] = [shelf[0]!, shelf[1]!];
    const [firstStock, secondStock] = [await stockOf(first.id), await stockOf(second.id)];
    await addFromProductPage(page, first);
    await addFromProductPage(page, second);
    await openCheckout(page);
    expect(await page.getByTestId("checkout-shipping").innerText()).toBe("Select a shipping method");

    // Nothing filled in and a bad e-mail address: each field says what is wrong, and what was typed stays.
    await page.getByLabel("E-mail address").fill("anna@");
    await page.getByLabel("First name").fill("Anna");
    await page.getByLabel("Country").selectOption("");
    await page.getByRole("button", { name: /^Place order and pay/ }).click();
    await page.getByText("Enter a valid e-mail address").waitFor();
    await page.getByText("Last name is required").waitFor();
    expect(await page.locator("#checkout-address-countryCode-error").innerText()).toBe("Choose a country");
    await page.getByText("Choose a shipping method").waitFor();
    await page.getByText("Choose a payment method").waitFor();
    expect(await page.getByLabel("First name").inputValue()).toBe("Anna");
    expect(page.url()).toMatch(/\/checkout$/);
    await screenshot(page, "checkout-errors");

    const email = `guest-${Date.now()}@example.com`;
    await page.getByLabel("E-mail address").fill(email);
    await fillAddress(page, amsterdam);
    await screenshot(page, "checkout-guest");
    const total = await chooseAndPlace(page, "TNT", "iDEAL", Number(first.price) + Number(second.price));

    await page.getByRole("button", { name: `Pay ${euro(total)}` }).click();
    const orderNumber = await confirmation(page, "paid");
    expect(orderNumber).toMatch(/^BC-\d{4}-\d{6,}$/);
    await page.getByText(first.name).first().waitFor();
    await page.getByText(second.name).first().waitFor();
    await screenshot(page, "checkout-confirmation");

    await expect.poll(() => outboxSubjects(page, email)).toContainEqual(expect.stringContaining(`Your order ${orderNumber}`));
    expect(await stockOf(first.id)).toBe(firstStock - 1);
    expect(await stockOf(second.id)).toBe(secondStock - 1);
    // The order took the pieces: the guest's cart is empty again.
    expect(await page.evaluate(() => window.localStorage.getItem("cartItems"))).toBeNull();
  });

  it("a signed-in customer buys two products, keeps the new address, and finds the order in the order history", async () => {
    const context = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      const email = `collector-${Date.now()}@example.com`;
      await signInAs(page, email);
      const [first, second] = [shelf[2]!, shelf[3]!];
      await addFromProductPage(page, first);
      await addFromProductPage(page, second);
      await openCheckout(page);
      await expect.poll(() => page.getByLabel("E-mail address").inputValue()).toBe(email);

      await fillAddress(page, { ...amsterdam, firstName: "Pieter", lastName: "Jansen", street: "Keizersgracht", houseNumber: "12" });
      await page.getByLabel("Save this address in my address book").check();
      await screenshot(page, "checkout-signed-in-phone");
      const itemsTotal = Number(first.price) + Number(second.price);
      const method = (await page.getByTestId("shipping-UNTRACKED").getByRole("radio").isDisabled()) ? "TNT" : "UNTRACKED";
      const total = await chooseAndPlace(page, method, "PayPal", itemsTotal);

      await page.getByRole("button", { name: `Pay ${euro(total)}` }).click();
      const orderNumber = await confirmation(page, "paid");
      await expect.poll(() => outboxSubjects(page, email)).toContainEqual(expect.stringContaining(`Your order ${orderNumber}`));

      await page.getByRole("link", { name: "See it in your orders" }).click();
      await page.getByRole("heading", { name: `Order ${orderNumber}` }).waitFor();
      await screenshot(page, "account-order-phone");
      await page.goto("/account/orders");
      const row = page.getByRole("link", { name: new RegExp(orderNumber) });
      await row.waitFor();
      expect(await row.innerText()).toMatch(/Paid/);
      await page.goto("/account/addresses");
      await page.getByText("Keizersgracht 12").waitFor();

      // The next checkout starts from the saved address.
      await addFromProductPage(page, shelf[4]!);
      await openCheckout(page);
      await page.getByTestId("saved-address").first().waitFor();
      expect(await page.getByTestId("saved-address").first().getByRole("radio").isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("a failed payment leaves the order cancelled and the stock as it was, and the pieces go back in the cart", async () => {
    const context = await b.newContext();
    const page = await context.newPage();
    try {
      const product = shelf[5] ?? shelf[4]!;
      const before = await stockOf(product.id);
      await addFromProductPage(page, product);
      await openCheckout(page);
      await page.getByLabel("E-mail address").fill(`unlucky-${Date.now()}@example.com`);
      await fillAddress(page, amsterdam);
      await chooseAndPlace(page, "TNT", "Credit card", Number(product.price));
      expect(await stockOf(product.id)).toBe(before - 1);

      await page.getByRole("button", { name: "Fail payment" }).click();
      await confirmation(page, "cancelled");
      expect(await page.getByTestId("order-confirmation").getAttribute("data-status")).toBe("CANCELLED");
      expect(await stockOf(product.id)).toBe(before);
      await screenshot(page, "checkout-payment-failed");

      await page.getByRole("button", { name: "Put these back in my cart" }).click();
      await page.waitForURL(/\/cart$/);
      await page.getByRole("main").getByText(product.name).first().waitFor();
    } finally {
      await context.close();
    }
  });
});
