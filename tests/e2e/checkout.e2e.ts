import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, chooseAndPlace, confirmation, euro, fillAddress, openCheckout, outboxSubjects, products, stockOf, type Card } from "./checkout-steps";
import { signInAs } from "./sign-in";

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
