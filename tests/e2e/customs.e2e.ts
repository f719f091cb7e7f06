import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBrowser, screenshot, type BrowserSession } from "./browser";
import { addFromProductPage, chooseAndPlace, confirmation, fillAddress, openCheckout, type Card } from "./checkout-steps";
import { baseUrl } from "./browser";
import { keepPdfPicture, pdfPageCount, pdfPagePng, pdfText } from "../helpers/pdf-pages";
import { signInAs } from "./sign-in";

/**
 * Issue 30, acceptance 2: a guest in New York buys a watch worth more than €1,000 and pays; staff create its label,
 * which goes with UPS and carries a CN23 customs declaration on the page after it, with the piece's HS code, value
 * and country of origin. The declaration page is rendered to a picture (test-results/pdf-pages/customs-e2e-cn23.png).
 */

/** The demo catalogue's countries of origin, by the names the CN23 prints. */
const originNames = ["Netherlands", "Germany", "Switzerland", "Japan", "Philippines", "United States", "United Kingdom", "France", "Italy", "Belgium"];

/** A piece dearer than a CN22 takes (€1,000), in stock and without a discount: the dearest first. */
async function dearPiece(): Promise<Card> {
  const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page: 1, orderBy: { price: "desc" } } }));
  const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
  const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
  const piece = body.result.data.json.products.find((p) => !p.discount && Number(p.price) > 1000 && Number(p.price) < 5000);
  if (!piece) throw new Error("The demo catalogue has no piece between €1,000 and €5,000 in stock");
  return piece;
}

describe("customs", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("an order to the United States gets a label with a CN23 page carrying the HS code, value and origin", async () => {
    const piece = await dearPiece();
    const shop = await b.newPage();
    await addFromProductPage(shop, piece);
    await openCheckout(shop);
    const email = `new-york-${Date.now()}@example.com`;
    await shop.getByLabel("E-mail address").fill(email);
    await fillAddress(shop, { firstName: "Ada", lastName: "Byron", street: "Fifth Avenue", houseNumber: "1", postCode: "10001", city: "New York", country: "US" });
    await shop.getByLabel("State or province").selectOption("NY");
    await chooseAndPlace(shop, "TNT", "PayPal", Number(piece.price));
    await shop.getByRole("button", { name: /^Pay / }).click();
    const orderNumber = await confirmation(shop, "paid");

    const staffContext = await b.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const admin = await staffContext.newPage();
    await signInAs(admin, "admin@example.com");
    await admin.goto(`/admin/orders/${orderNumber}`);
    await admin.getByRole("heading", { name: orderNumber, exact: true }).waitFor({ timeout: 20_000 });
    await admin.getByRole("button", { name: "Create label" }).click();
    const download = admin.getByRole("link", { name: "Download label" });
    await download.waitFor({ timeout: 30_000 });
    await screenshot(admin, "admin-order-labelled-us");
    const tracking = (await admin.getByText(/^1Z[A-Z0-9]{9,}/).first().innerText()).trim();

    const label = await admin.request.get((await download.getAttribute("href"))!);
    expect(label.status()).toBe(200);
    const pdf = await label.body();
    expect(await pdfPageCount(pdf)).toBe(2);
    const [labelPage, declaration] = (await pdfText(pdf)).split("\f");
    expect(labelPage).toContain(tracking);

    // The CN23: the piece's line with its 6-digit HS code, the price paid and where it was made; the sender and the
    // addressee; sale of goods; the total; the date and the line to sign.
    expect(declaration).toContain("CUSTOMS DECLARATION CN23");
    const price = new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR" }).format(Number(piece.price));
    const line = declaration!.split("\n").find((text) => text.includes(price) && /\b\d{6}\b/.test(text));
    expect(line, declaration).toBeDefined();
    expect(line).toMatch(/\b9(101|102|108|110|111|113|114)\d{2}\b/);
    expect(originNames.some((name) => line!.includes(name)), line).toBe(true);
    for (const expected of ["Sale of goods", "Ada Byron", "New York", "UNITED STATES", "Prinsengracht", orderNumber, tracking, `${price} (EUR)`, "Sender's signature"]) {
      expect(declaration).toContain(expected);
    }
    keepPdfPicture("customs-e2e-cn23", await pdfPagePng(pdf, { dpi: 110, page: 2 }));
    keepPdfPicture("customs-e2e-label", await pdfPagePng(pdf, { dpi: 72, page: 1 }));
    await staffContext.close();
  });

  it("fills a new product's country of origin with its maker's, and staff may choose another", async () => {
    for (const width of [1280, 390]) {
      const staff = await b.newContext({ viewport: { width, height: 900 } });
      const admin = await staff.newPage();
      await signInAs(admin, "admin@example.com");
      await admin.goto("/admin/products/create");
      const maker = admin.locator("#field-manufacturerId");
      await maker.locator("option", { hasText: "Zenith" }).first().waitFor({ state: "attached", timeout: 20_000 });
      const country = admin.locator("#field-countryId");
      const chosenCountry = () => country.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");
      // Empty: the "—" choice, or none at all while the form holds no country.
      expect(["", "—"]).toContain(await chosenCountry());

      await maker.selectOption({ label: (await maker.locator("option", { hasText: "Zenith" }).first().textContent())! });
      await expect.poll(chosenCountry).toBe("Switzerland");
      await admin.getByText("Where it was made; customs declarations name it for parcels leaving the EU").waitFor();
      await country.scrollIntoViewIfNeeded();
      await screenshot(admin, `product-form-origin-${width}`);

      // A country staff chose stays when the maker changes.
      await country.selectOption({ label: "Italy" });
      await maker.selectOption({ label: (await maker.locator("option", { hasText: "Seiko" }).first().textContent())! });
      expect(await chosenCountry()).toBe("Italy");
      await staff.close();
    }
  });
});
