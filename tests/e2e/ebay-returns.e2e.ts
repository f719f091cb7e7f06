import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";
import { signInAs } from "./sign-in";

/**
 * Issue 30: a return asked on the sandbox marketplace's buyer pages reaches the order page, where staff accept it on
 * eBay, receive the piece back into stock and refund it through eBay; looked at on a desk and on a phone.
 */

type Card = { id: number; name: string; stock: number; discount: unknown };

async function oneOffPieces(): Promise<Card[]> {
  const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page: 2, orderBy: { createdAt: "asc" } } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
  return body.result.data.json.products.filter((product) => product.stock === 1 && !product.discount);
}

/** The listing id; null when the shop refused the piece before calling eBay (its eBay category would not take it). */
async function publish(admin: Page, product: Card): Promise<string | null> {
  await admin.goto(`/admin/ebay/manage-ads?search=BC-${product.id}`);
  const select = admin.getByRole("checkbox", { name: `Select ${product.name}` }).first();
  await select.waitFor({ timeout: 20_000 });
  await select.click();
  await admin.getByRole("toolbar", { name: "Selected products" }).getByRole("button", { name: "Publish", exact: true }).click();
  const outcome = admin.getByRole("status", { name: "What the action did" });
  await outcome.getByText(product.name).waitFor({ timeout: 30_000 });
  const said = await outcome.innerText();
  if (/1 refused/.test(said)) return null;
  return /\b(\d{12})\b/.exec(said)![1]!;
}

/** "Check for orders now" on the eBay page: orders, then buyers' returns and cancellations. */
async function checkEbayNow(admin: Page): Promise<void> {
  await admin.goto("/admin/ebay");
  const polled = admin.waitForResponse((response) => response.url().includes("admin.ebay.pollOrdersNow"), { timeout: 30_000 });
  await admin.getByRole("button", { name: "Check for orders now" }).click();
  expect((await polled).status()).toBe(200);
}

describe("a return from eBay", () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("is asked by the buyer, accepted, received back into stock and refunded through eBay from the order page", async () => {
    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");
    // The first one-off piece eBay's categories take.
    let listed: { piece: Card; listingId: string } | null = null;
    for (const candidate of await oneOffPieces()) {
      const listingId = await publish(admin, candidate);
      if (listingId) {
        listed = { piece: candidate, listingId };
        break;
      }
    }
    expect(listed, "a one-off piece in the demo catalogue that eBay takes").toBeTruthy();
    const { piece, listingId } = listed!;

    // The buyer buys it on the marketplace.
    const market = await b.newPage();
    await market.goto(`/sandbox/ebay/${listingId}`);
    const form = market.getByTestId("sandbox-buy-form");
    const buyer = `Returning Buyer ${Date.now()}`;
    await form.getByLabel("Name").fill(buyer);
    await form.getByLabel("Street and house number").fill("Keizersgracht 123");
    await form.getByLabel("Postal code").fill("1015 CJ");
    await form.getByLabel("City").fill("Amsterdam");
    await form.getByLabel("E-mail").fill(`ebay-return-${Date.now()}@example.com`);
    await form.getByRole("button", { name: "Buy it now" }).click();
    const marketplaceOrderId = await market.getByTestId("sandbox-order-id").innerText({ timeout: 20_000 });
    const orderPage = market.url();

    // Staff label and ship it; the tracking number goes to eBay.
    await checkEbayNow(admin);
    await admin.goto(`/admin/orders/status/all?shop=EBAY`);
    const row = admin.getByRole("row").filter({ hasText: buyer });
    await row.waitFor({ timeout: 20_000 });
    await row.getByRole("link", { name: /^BC-/ }).click();
    await admin.getByText(`eBay ${marketplaceOrderId}`).waitFor({ timeout: 20_000 });
    const adminOrderUrl = admin.url();
    await admin.getByRole("button", { name: "Create label" }).click();
    await admin.getByRole("link", { name: "Download label" }).waitFor({ timeout: 30_000 });
    await admin.getByRole("button", { name: "Mark shipped" }).click();
    await admin.getByRole("button", { name: "Mark shipped" }).waitFor({ state: "detached", timeout: 15_000 });

    // The buyer asks to return it, once eBay shows it shipped.
    await expect
      .poll(
        async () => {
          await market.goto(orderPage);
          return market.getByRole("button", { name: "Return this item" }).count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(1);
    await market.getByLabel("Why").selectOption("NOT_AS_DESCRIBED");
    await market.getByLabel("Message to the seller").fill("The strap is not the one in the pictures.");
    await market.getByRole("button", { name: "Return this item" }).click();
    await market.getByText("Your return request was sent to the seller.").waitFor({ timeout: 20_000 });
    await screenshot(market, "ebay-return-sandbox-buyer");

    // Staff see it on the order page, on a desk and on a phone.
    await checkEbayNow(admin);
    await admin.goto(adminOrderUrl);
    const card = admin.getByRole("listitem", { name: /^Return \d{10}$/ });
    await card.getByText("Waiting for your answer").waitFor({ timeout: 20_000 });
    expect(await card.innerText()).toContain("The strap is not the one in the pictures.");
    await card.scrollIntoViewIfNeeded();
    await screenshot(admin, "ebay-return-order-page-1280");
    const phone = await staffContext.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(adminOrderUrl);
    const phoneCard = phone.getByRole("listitem", { name: /^Return \d{10}$/ });
    await phoneCard.waitFor({ timeout: 20_000 });
    await phoneCard.scrollIntoViewIfNeeded();
    await screenshot(phone, "ebay-return-order-page-390");

    // Accepted on eBay, received back into stock, refunded through eBay.
    const confirmWith = async (label: string) => admin.getByRole("alertdialog").getByRole("button", { name: label }).click();
    await card.getByRole("button", { name: "Accept" }).click();
    await confirmWith("Accept return");
    await card.getByText("Accepted").first().waitFor({ timeout: 20_000 });
    await card.getByRole("button", { name: "Received" }).click();
    await confirmWith("Received");
    await card.getByText("Received", { exact: true }).first().waitFor({ timeout: 20_000 });
    await card.getByRole("button", { name: "Refund through eBay" }).click();
    await confirmWith("Refund");
    await card.getByText("Refunded", { exact: true }).waitFor({ timeout: 30_000 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(admin, "ebay-return-refunded-1280");
    await phone.reload();
    await phone.getByRole("listitem", { name: /^Return \d{10}$/ }).scrollIntoViewIfNeeded();
    await screenshot(phone, "ebay-return-refunded-390");

    // The piece is for sale again on the web shop.
    const product = await b.newPage();
    await product.goto(`/product/${piece.id}`);
    expect(await product.getByText("Sold out").count()).toBe(0);
  });
});
