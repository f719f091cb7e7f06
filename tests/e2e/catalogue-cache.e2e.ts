import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, openBrowser, type BrowserSession } from "./browser";
import { addFromProductPage, amsterdam, chooseAndPlace, fillAddress, openCheckout, type Card } from "./checkout-steps";

/**
 * Catalogue pages come from Next's cache (issue 16). A piece's last unit sold through the checkout: its page, its
 * card in a category listing and in the search results say "Sold out" on the very next request after the order
 * commits, though each of those pages was served from the cache just before.
 */

/** One-off pieces (one in stock, no discount), cheapest first: the other journeys take theirs oldest or newest first. */
async function oneOffPiece(): Promise<Card> {
  for (let page = 1; page <= 6; page++) {
    const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page, orderBy: { price: "asc" } } }));
    const response = await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`);
    const body = (await response.json()) as { result: { data: { json: { products: Card[] } } } };
    const piece = body.result.data.json.products.find((product) => product.stock === 1 && !product.discount);
    if (piece) return piece;
  }
  throw new Error("no one-off piece in the demo catalogue");
}

async function visit(path: string): Promise<{ html: string; cache: string | null; cacheControl: string | null }> {
  const response = await fetch(`${baseUrl()}${path}`);
  expect(response.status, path).toBe(200);
  return { html: await response.text(), cache: response.headers.get("x-nextjs-cache"), cacheControl: response.headers.get("cache-control") };
}

/** What the card of a product says on a listing: "Add to cart" or "Sold out"; null when it is not listed. */
function cardOf(html: string, productId: number): "Add to cart" | "Sold out" | null {
  const card = html.split('data-testid="product-card"').find((part, index) => index > 0 && part.includes(`href="/product/${productId}"`));
  if (!card) return null;
  const end = card.indexOf("</article>");
  const text = end >= 0 ? card.slice(0, end) : card;
  return text.includes("Sold out") ? "Sold out" : text.includes("Add to cart") ? "Add to cart" : null;
}

describe("catalogue pages from cache", () => {
  let b: BrowserSession;

  beforeAll(async () => {
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
  });

  it("catalogue pages carry the SPEC's cache header and personal pages stay private", async () => {
    for (const path of ["/", "/search?search=omega", "/search?category=1"]) {
      expect((await visit(path)).cacheControl, path).toBe("public, s-maxage=1, stale-while-revalidate=86400");
    }
    for (const path of ["/checkout", "/cart", "/sign-in"]) {
      const response = await fetch(`${baseUrl()}${path}`);
      expect(response.headers.get("cache-control"), path).toMatch(/private.*no-store/);
    }
  });

  it("a piece's last unit sold through the checkout is sold out on its page, its listing card and in search on the next request", async () => {
    const piece = await oneOffPiece();
    const productPath = `/product/${piece.id}`;
    const product = await visit(productPath);
    expect(product.html).toContain("1 in stock");
    const categoryId = /href="\/search\?category=(\d+)"/.exec(product.html)?.[1];
    expect(categoryId, "the product page links its category").toBeTruthy();
    const listingPath = `/search?category=${categoryId}&priceMin=${piece.price}&priceMax=${piece.price}`;
    const searchPath = `/search?search=${encodeURIComponent(piece.name)}`;

    // Each page is rendered once and then served from the cache.
    for (const path of [productPath, listingPath, searchPath]) await visit(path);
    for (const path of [productPath, listingPath, searchPath]) {
      const cached = await visit(path);
      expect(cached.cache, `${path} from the cache`).toMatch(/HIT|STALE/);
      if (path !== productPath) expect(cardOf(cached.html, piece.id), path).toBe("Add to cart");
    }

    const page = await b.newPage();
    await addFromProductPage(page, piece);
    await openCheckout(page);
    await page.getByLabel("E-mail address").fill(`cache-${Date.now()}@example.com`);
    await fillAddress(page, amsterdam);
    // Resolves on the payment page: the order, and with it the stock booking, has committed.
    await chooseAndPlace(page, "TNT", "iDEAL", Number(piece.price));

    const soldPage = await visit(productPath);
    expect(soldPage.html).not.toContain("1 in stock");
    expect(soldPage.html).toContain("Sold out");
    expect(cardOf((await visit(listingPath)).html, piece.id), "category listing").toBe("Sold out");
    expect(cardOf((await visit(searchPath)).html, piece.id), "search results").toBe("Sold out");
  });
});
