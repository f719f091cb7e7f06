import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, chooseAndPlace, confirmation, euro, fillAddress, openCheckout, outboxSubjects, products, stockOf } from "./checkout-steps";
import { signInAs } from "./sign-in";

/**
 * Acceptance point 1 of issue 13: a paid and shipped order of two pieces; staff refund one piece as DAMAGED without
 * putting it back in stock and the shipping as LOST_IN_TRANSIT; the sandbox provider shows both refunds, the stock
 * is unchanged, the refunded piece cannot be refunded again, the refund e-mails are in the outbox and the customer's
 * order page shows both refunds.
 */

/** Labels and ships an order from its admin page, as staff do at the end of the day. */
async function labelAndShip(admin: Page) {
  await admin.getByRole("button", { name: "Create label" }).click();
  await admin.getByRole("link", { name: "Download label" }).waitFor({ timeout: 30_000 });
  await admin.getByRole("button", { name: "Mark shipped" }).click();
  await admin.getByRole("button", { name: "Mark shipped" }).waitFor({ state: "detached", timeout: 15_000 });
}

/**
 * What the demo shop charges for tracked shipping to the Netherlands on goods worth `goods` euro: the country's TNT
 * price and the insurance surcharge of the band the value falls in (the seed's figures: NL TNT €8.95; 0% up to
 * €100, 2% to €250, 3.5% to €500, 5% above; where two bands meet the higher applies), rounded half up to the cent.
 */
function trackedShippingToNl(goods: number): number {
  const rate = goods >= 500 ? 0.05 : goods >= 250 ? 0.035 : goods >= 100 ? 0.02 : 0;
  const cents = (amount: number) => Math.round(amount * 100 + 1e-6);
  return (cents(8.95) + Math.round(cents(goods) * rate + 1e-6)) / 100;
}

/** Opens the refund dialog, fills it and sends it; resolves once the dialog has closed, with the amount refunded. */
async function refund(admin: Page, what: string, reason: string, options: { comment: string; restock?: boolean; proposed: number }) {
  const panel = admin.getByRole("region", { name: "Refunds" });
  await panel.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: "Refund" });
  await dialog.waitFor();
  await dialog.getByLabel("What is refunded").selectOption({ label: what });
  await dialog.getByLabel("Reason").selectOption({ label: reason });
  if (options.restock !== undefined) expect(await dialog.getByLabel("Put back in stock").isChecked()).toBe(options.restock);
  await dialog.getByLabel("Comment").fill(options.comment);
  // The dialog proposes what the refund rules give back, to the cent, and the button says so.
  await expect.poll(() => dialog.getByLabel("Amount").inputValue()).toBe(options.proposed.toFixed(2));
  const amount = await dialog.getByLabel("Amount").inputValue();
  await dialog.getByRole("button", { name: `Refund ${euro(options.proposed)}` }).waitFor();
  await screenshot(admin, `refund-dialog-${what === "Shipping" ? "shipping" : "piece"}`);
  await dialog.getByRole("button", { name: /^Refund €/ }).click();
  await dialog.waitFor({ state: "detached", timeout: 20_000 });
  return Number(amount);
}

describe("refunds", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("staff refund a damaged piece and the lost shipping of a shipped order; the customer sees both", async () => {
    // A guest buys two pieces (two products, one each), tracked to Amsterdam, and pays.
    const shop = await b.newPage();
    const [first, second] = (await products()).slice(-3, -1);
    await addFromProductPage(shop, first!);
    await addFromProductPage(shop, second!);
    await openCheckout(shop);
    const email = `refund-${Date.now()}@example.com`;
    await shop.getByLabel("E-mail address").fill(email);
    await fillAddress(shop, amsterdam);
    const paidTotal = await chooseAndPlace(shop, "TNT", "iDEAL", Number(first!.price) + Number(second!.price));
    await shop.getByRole("button", { name: /^Pay / }).click();
    const paymentPage = shop.url();
    const orderNumber = await confirmation(shop, "paid");
    const orderPage = shop.url();
    const stockBefore = await stockOf(first!.id);

    // Staff ship it.
    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");
    await admin.goto(`/admin/orders/${orderNumber}`);
    await admin.getByRole("heading", { name: orderNumber, exact: true }).waitFor({ timeout: 20_000 });
    await labelAndShip(admin);

    // The first piece came back broken: refunded without going back in stock.
    // The whole line: what the customer paid for it (no discount on these products).
    const pieceAmount = await refund(admin, first!.name, "Damaged", { comment: "Crystal cracked in transit", restock: false, proposed: Number(first!.price) });
    expect(pieceAmount).toBe(Number(first!.price));
    const panel = admin.getByRole("region", { name: "Refunds" });
    const paidOut = panel.getByRole("list", { name: "Refunds of this order" }).getByText("Refunded", { exact: true });
    await expect.poll(() => paidOut.count(), { timeout: 20_000 }).toBe(1);

    // The parcel's shipping is refunded as lost in transit.
    // All of the shipping paid: the TNT price and the surcharge on the goods' value, as checkout charged them.
    const shippingPaid = trackedShippingToNl(Number(first!.price) + Number(second!.price));
    expect(paidTotal).toBeCloseTo(Number(first!.price) + Number(second!.price) + shippingPaid, 2);
    const shippingAmount = await refund(admin, "Shipping", "Lost in transit", { comment: "Tracking stopped in Utrecht", proposed: shippingPaid });
    expect(shippingAmount).toBe(shippingPaid);
    await expect.poll(() => paidOut.count(), { timeout: 20_000 }).toBe(2);
    await screenshot(admin, "admin-order-refunded");

    // The same piece cannot be refunded twice: its line is offered as fully refunded only.
    await panel.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = admin.getByRole("dialog", { name: "Refund" });
    const refundedLine = dialog.getByRole("option", { name: `${first!.name} — fully refunded` });
    expect(await refundedLine.isDisabled()).toBe(true);
    const orderItemId = Number((await refundedLine.getAttribute("value"))!.replace("item-", ""));
    await admin.keyboard.press("Escape");
    // The server refuses it too, whatever the browser sends.
    const again = await admin.request.post("/api/trpc/admin.refunds.create", {
      headers: { "content-type": "application/json" },
      data: { json: { orderNumber, kind: "PRODUCT", orderItemId, quantity: 1, amount: "1.00", reason: "OTHER", restock: false } },
    });
    expect(again.status()).toBeGreaterThanOrEqual(400);

    // Nothing went back on the shelf.
    expect(await stockOf(first!.id)).toBe(stockBefore);

    // The sandbox provider paid out both refunds.
    await shop.goto(paymentPage);
    await expect.poll(() => shop.getByTestId("sandbox-refund").count(), { timeout: 15_000 }).toBe(2);
    await screenshot(shop, "sandbox-payment-refunded");

    // The customer is told, and their order page shows both refunds.
    await expect.poll(async () => (await outboxSubjects(shop, email)).filter((subject) => /refund/i.test(subject)).length, { timeout: 30_000 }).toBe(2);
    await shop.goto(orderPage);
    const refunds = shop.getByRole("region", { name: "Refunds" }).or(shop.locator("section", { has: shop.getByRole("heading", { name: "Refunds" }) }));
    await refunds.first().waitFor({ timeout: 15_000 });
    await expect.poll(() => shop.getByText(/^Refunded on /).count()).toBe(2);
    await shop.getByText("Shipping", { exact: true }).first().waitFor();
    await screenshot(shop, "customer-order-refunded");
    await shop.setViewportSize({ width: 390, height: 844 });
    await screenshot(shop, "customer-order-refunded-phone");
    await staffContext.close();
  });
});
