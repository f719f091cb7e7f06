import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, chooseAndPlace, confirmation, fillAddress, openCheckout, outboxSubjects, products } from "./checkout-steps";
import { keepPdfPicture, pdfPagePng, pdfText } from "../helpers/pdf-pages";
import { signInAs } from "./sign-in";

/**
 * Acceptance point 1 of issue 12: a guest buys and pays on the sandbox page; staff find the order under Ready to
 * Ship, create a sandbox label, download it (a PDF whose first page renders, with the tracking number on it),
 * print the packing slip and mark the order shipped; the shipping e-mail with the tracking link is in the outbox, and
 * the customer's order page says it is on its way with the tracking number.
 */

/** The text of a PDF, and its first page as a picture (kept under test-results/pdf-pages). */
async function readPdf(name: string, body: Buffer): Promise<{ text: string; png: Buffer }> {
  const png = await pdfPagePng(body, { dpi: 60 });
  keepPdfPicture(`fulfilment-${name}`, png);
  return { text: await pdfText(body), png };
}

describe("fulfilment", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("a paid order is labelled, packed and shipped by staff, and the customer hears of it", async () => {
    // The guest buys one piece, to be sent tracked to Amsterdam, and pays.
    const shop = await b.newPage();
    const [product] = (await products()).slice(-1);
    await addFromProductPage(shop, product!);
    await openCheckout(shop);
    const email = `parcel-${Date.now()}@example.com`;
    await shop.getByLabel("E-mail address").fill(email);
    await fillAddress(shop, amsterdam);
    const total = await chooseAndPlace(shop, "TNT", "iDEAL", Number(product!.price));
    await shop.getByRole("button", { name: new RegExp(`^Pay `) }).click();
    const orderNumber = await confirmation(shop, "paid");
    const orderPage = shop.url();
    expect(total).toBeGreaterThan(0);

    // Staff find it under Ready to Ship.
    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");
    await admin.goto(`/admin/orders/status/paid_ready_to_ship?search=${encodeURIComponent(orderNumber)}`);
    const row = admin.getByRole("link", { name: orderNumber }).first();
    await row.waitFor({ timeout: 20_000 });
    await screenshot(admin, "admin-orders-ready-to-ship");
    await row.click();
    await admin.waitForURL(new RegExp(`/admin/orders/${orderNumber}$`));
    await admin.getByRole("heading", { name: orderNumber, exact: true }).waitFor();

    // A sandbox label: bought by a job, after which the page offers the download and shows the tracking number.
    await admin.getByRole("button", { name: "Create label" }).click();
    const download = admin.getByRole("link", { name: "Download label" });
    await download.waitFor({ timeout: 30_000 });
    const tracking = (await admin.getByText(/^3S[A-Z0-9]{9,}/).first().innerText()).trim();
    expect(tracking).toMatch(/^3S[A-Z0-9]+$/);
    await screenshot(admin, "admin-order-labelled");

    const label = await admin.request.get((await download.getAttribute("href"))!);
    expect(label.status()).toBe(200);
    expect(label.headers()["content-type"]).toBe("application/pdf");
    const labelPdf = await readPdf("label", await label.body());
    expect(labelPdf.png.subarray(1, 4).toString()).toBe("PNG");
    expect(labelPdf.text).toContain(tracking);
    expect(labelPdf.text).toContain("Prinsengracht");

    // The packing slip names the order and the piece.
    const slipLink = admin.getByRole("link", { name: "Packing slip" });
    const slip = await admin.request.get((await slipLink.getAttribute("href"))!);
    expect(slip.headers()["content-type"]).toBe("application/pdf");
    const slipPdf = await readPdf("packing-slip", await slip.body());
    expect(slipPdf.text).toContain(orderNumber);
    expect(slipPdf.text).toContain(product!.name.slice(0, 20));

    // Shipped: the status changes and the customer gets one e-mail with the tracking link.
    await admin.getByRole("button", { name: "Mark shipped" }).click();
    await admin.getByRole("button", { name: "Mark shipped" }).waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => admin.getByText("Shipped", { exact: true }).first().isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(admin, "admin-order-shipped");
    await expect.poll(() => outboxSubjects(shop, email), { timeout: 30_000 }).toContainEqual(`Your order ${orderNumber} is on its way`);
    const outbox = await b.newPage();
    await outbox.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
    // The e-mail's text body: the tracking number with the carrier's tracking link.
    const body = await outbox.locator("pre").filter({ hasText: `Your order ${orderNumber} is on its way` }).first().textContent();
    expect(body).toMatch(new RegExp(`https://\\S*${tracking}`));
    await outbox.close();

    // The customer's own page for the order says it is on its way, with the tracking number.
    await shop.goto(orderPage);
    await shop.getByRole("heading", { name: "Your order is on its way" }).waitFor();
    await shop.getByRole("link", { name: tracking }).waitFor();
    await screenshot(shop, "customer-order-shipped");
    await staffContext.close();
  });
});
