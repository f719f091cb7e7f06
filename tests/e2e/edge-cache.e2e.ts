import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Response as PageResponse } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_STATUS_HEADER, nginxConfig } from "../../scripts/nginx-site.mjs";
import { freePort } from "../helpers/free-port";
import { baseUrl, openBrowser, type BrowserSession } from "./browser";
import { addFromProductPage, stockOf, type Card } from "./checkout-steps";
import { signInAs } from "./sign-in";

/**
 * The catalogue at the edge (issue 29): nginx, configured as the README and `start:two-instances` configure it
 * (scripts/nginx-site.mjs), in front of the journeys' shop. It serves catalogue pages from its cache, never keeps or
 * serves anything personal, and a piece sold out shows sold out through it within a second of the order.
 */

const NGINX = "/usr/sbin/nginx";

type Edge = { url: string; cacheDir: string; stop: () => Promise<void> };

/** nginx on a free port in front of the journeys' shop, from a folder of its own. */
async function startEdge(): Promise<Edge> {
  const prefix = mkdtempSync(path.join(os.tmpdir(), "shop-edge-"));
  // nginx's workers (nobody, when started as root) reach their cache and temp folders through it.
  chmodSync(prefix, 0o711);
  mkdirSync(path.join(prefix, "temp"));
  const port = await freePort();
  const upstream = new URL(baseUrl());
  writeFileSync(path.join(prefix, "nginx.conf"), nginxConfig({ prefix, listen: `127.0.0.1:${port}`, upstreams: [`127.0.0.1:${upstream.port}`] }));
  const nginx: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", path.join(prefix, "error.log")], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => nginx.once("exit", () => resolve()));
  // "localhost", as the shop's own address: the browser sends its cookies for the shop to nginx too.
  const url = `http://localhost:${port}`;
  for (let tries = 0; ; tries++) {
    const answered = await fetch(`${url}/api/health`).then((response) => response.status, () => 0);
    if (answered === 200) break;
    if (tries > 100 || nginx.exitCode !== null) {
      nginx.kill("SIGTERM");
      throw new Error(`nginx did not answer on ${url}: ${readFileSync(path.join(prefix, "error.log"), "utf8").slice(-2_000)}`);
    }
    await delay(100);
  }
  return {
    url,
    cacheDir: path.join(prefix, "cache"),
    stop: async () => {
      nginx.kill("SIGQUIT");
      await Promise.race([exited, delay(5_000)]);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every file nginx keeps in its cache, as text. */
function cachedFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, "latin1"));
}

/** One-off pieces (one in stock, no discount), dearest first: the catalogue-cache journey takes the cheapest. */
async function oneOffPieces(count: number): Promise<Card[]> {
  const found: Card[] = [];
  for (let page = 1; page <= 6 && found.length < count; page++) {
    const input = encodeURIComponent(JSON.stringify({ json: { inStock: true, page, orderBy: { price: "desc" } } }));
    const body = (await (await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`)).json()) as { result: { data: { json: { products: Card[] } } } };
    found.push(...body.result.data.json.products.filter((product) => product.stock === 1 && !product.discount));
  }
  if (found.length < count) throw new Error(`fewer than ${count} one-off pieces in the demo catalogue`);
  return found.slice(0, count);
}

/** One tRPC mutation straight to the shop, as the shop's pages send it (batched, superjson without special types). */
async function mutate<T>(procedure: string, input: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${baseUrl()}/api/trpc/${procedure}?batch=1`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ 0: { json: input } }),
  });
  const [reply] = (await response.json()) as [{ result?: { data: { json: T } }; error?: unknown }];
  if (!reply?.result) throw new Error(`${procedure}: ${JSON.stringify(reply?.error)}`);
  return reply.result.data.json;
}

/** A guest buys the one piece of `productId`; resolves when the shop answered that the order is placed (it has committed). */
async function buyLastPiece(productId: number): Promise<void> {
  // A buyer of its own, as nginx would name it, so that the journeys' own orders leave this one within the limits.
  const buyer = { "x-forwarded-for": `198.51.100.${(productId % 250) + 1}` };
  const token = await mutate<string>("shared.token.manage", {}, buyer);
  await mutate(
    "shared.checkout.placeOrder",
    {
      email: `edge-buyer-${productId}@example.com`,
      address: { firstName: "Ada", lastName: "Buyer", street: "Keizersgracht", houseNumber: "1", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" },
      shippingMethod: "TNT",
      paymentMethod: "IDEAL",
      items: [{ productId, quantity: 1 }],
    },
    { ...buyer, "x-token": token },
  );
}

type Seen = { started: number; took: number; soldOut: boolean; status: string | null };

/** The product page as a visitor without cookies sees it, through nginx or from the shop itself. */
async function productThroughEdge(from: string, productId: number): Promise<Seen> {
  const started = performance.now();
  const response = await fetch(`${from}/product/${productId}`);
  const html = await response.text();
  expect(response.status).toBe(200);
  // The page's own offer (its schema.org data): the related pieces' cards below it say "in stock" of themselves.
  const availability = /"availability":"https:\/\/schema\.org\/(InStock|OutOfStock)"/.exec(html)?.[1];
  expect(availability, `/product/${productId} says whether it is in stock`).toBeDefined();
  const soldOut = availability === "OutOfStock";
  return { started, took: performance.now() - started, soldOut, status: response.headers.get(CACHE_STATUS_HEADER) };
}

// nginx is the one thing these journeys need that npm does not install: without it they are skipped, and say so
// (.ci/run installs Debian's nginx where it can, so CI runs them).
const nginxInstalled = existsSync(NGINX);
if (!nginxInstalled) console.warn(`Skipping the edge-cache journeys: ${NGINX} is missing (apt-get install -y nginx).`);

describe.skipIf(!nginxInstalled)("the catalogue at the edge (nginx in front of the shop)", () => {
  let edge: Edge;
  let b: BrowserSession;

  beforeAll(async () => {
    edge = await startEdge();
    b = await openBrowser({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await b?.close();
    await edge?.stop();
  });

  it("serves catalogue pages from its cache to visitors without a session, and personal pages never", async () => {
    for (const address of ["/", "/search?category=1", "/search?search=omega"]) {
      const statuses: (string | null)[] = [];
      // A copy sent early in a second is kept only to be served while another request refreshes it: ask for a while.
      for (let round = 0; round < 100 && !statuses.includes("HIT"); round++) {
        const response = await fetch(`${edge.url}${address}`);
        expect(response.status, address).toBe(200);
        expect(response.headers.get("cache-control"), address).toBe("public, s-maxage=1, stale-while-revalidate=86400");
        // The marker is nginx's alone.
        expect(response.headers.get("x-accel-expires"), address).toBeNull();
        statuses.push(response.headers.get(CACHE_STATUS_HEADER));
        await response.arrayBuffer();
        await delay(30);
      }
      expect(statuses, address).toContain("HIT");
    }
    for (const address of ["/cart", "/checkout", "/sign-in", "/account"]) {
      for (let round = 0; round < 3; round++) {
        const response = await fetch(`${edge.url}${address}`, { redirect: "manual" });
        expect(response.headers.get("cache-control"), address).toMatch(/private|no-store/);
        expect(response.headers.get(CACHE_STATUS_HEADER), address).toBe("MISS");
        await response.arrayBuffer();
      }
    }
  });

  it("never serves or keeps what a signed-in customer's session shows: their name, their e-mail address, their cart", async () => {
    const email = `edge-customer-${Date.now()}@example.com`;
    const name = `Edgar Cachefree ${Date.now().toString(36)}`;
    const context = await b.newContext({ baseURL: edge.url });
    const page = await context.newPage();
    // Routed, the browser's own HTTP cache is off: every response below is one nginx sent now.
    await page.route("**/*", (route) => route.continue());
    const seen: { url: string; method: string; status: string | null; response: PageResponse }[] = [];
    page.on("response", (response) => {
      if (response.url().startsWith(edge.url)) seen.push({ url: response.url(), method: response.request().method(), status: response.headers()[CACHE_STATUS_HEADER.toLowerCase()] ?? null, response });
    });

    await signInAs(page, email);
    const saved = await page.request.post("/api/trpc/shared.account.updateProfile?batch=1", { data: { 0: { json: { name } } } });
    expect(saved.status()).toBe(200);
    const [piece] = await oneOffPieces(3).then((pieces) => pieces.slice(2));
    await addFromProductPage(page, piece!);
    const sessionCookie = (await context.cookies()).find((cookie) => cookie.name.endsWith("authjs.session-token"));
    expect(sessionCookie, "the customer has a session").toBeTruthy();

    const visited = ["/", `/product/${piece!.id}`, "/search?category=1", "/cart", "/account", "/checkout"];
    seen.length = 0;
    for (const address of visited) {
      await page.goto(address);
      await page.waitForLoadState("networkidle");
    }
    await page.goto("/account");
    await page.getByRole("heading", { name }).waitFor();
    await page.goto("/cart");
    await page.getByText(piece!.name).first().waitFor();

    // Everything the customer got through nginx came from an instance, none of it from nginx's copy.
    expect(seen.length).toBeGreaterThan(10);
    // A POST (the cart merged after signing in may land here) never meets the cache at all: nginx caches GET and HEAD
    // only, and names no cache status for it.
    const fromTheCache = (entry: (typeof seen)[number]) => entry.status !== "BYPASS" && !(entry.method === "POST" && entry.status === null);
    expect(seen.filter(fromTheCache).map((entry) => `${entry.method} ${entry.url} ${entry.status}`)).toEqual([]);
    const bodies = await Promise.all(seen.map((entry) => entry.response.text().catch(() => "")));
    expect(bodies.some((body) => body.includes(name)), "the customer was shown their name").toBe(true);

    // Another visitor, without cookies, asks for every address the customer's browser asked for, twice (the second
    // time from nginx's copy where it keeps one), and nothing of the customer's is in any answer or in the cache.
    const personal = [name, email, sessionCookie!.value];
    for (const round of [1, 2]) {
      for (const { url } of seen) {
        const answer = await (await fetch(url, { redirect: "manual" })).text();
        for (const secret of personal) expect(answer.includes(secret), `${url} (round ${round}) holds the customer's ${secret}`).toBe(false);
      }
    }
    const kept = cachedFiles(edge.cacheDir);
    expect(kept.length, "nginx keeps the catalogue pages the other visitor asked for").toBeGreaterThan(0);
    for (const file of kept) for (const secret of personal) expect(file.includes(secret)).toBe(false);
    await context.close();
  });

  it("shows a piece sold out through nginx on the first request after the order to a page nobody asked for a while", async () => {
    const [quiet] = await oneOffPieces(2).then((pieces) => pieces.slice(1));
    for (let round = 0; round < 3; round++) expect((await productThroughEdge(edge.url, quiet!.id)).soldOut).toBe(false);
    // Longer than any copy nginx keeps: the copy is expired, and with a refresh in the background this request would
    // get it, however old.
    await delay(2_500);
    await buyLastPiece(quiet!.id);
    expect(await stockOf(quiet!.id), "the order took the piece").toBe(0);
    const first = await productThroughEdge(edge.url, quiet!.id);
    expect([first.soldOut, first.status]).toEqual([true, "EXPIRED"]);
  });

  it("shows a piece sold out through nginx within a second of the order, on a page asked for all the time", async () => {
    const [busy] = await oneOffPieces(1);
    // A visitor asks for the page every 20 ms through nginx, another straight from the shop, before, during and after the order.
    const seen = { edge: [] as Seen[], shop: [] as Seen[] };
    let stop = false;
    const ask = async (from: string, into: Seen[]) => {
      while (!stop) {
        into.push(await productThroughEdge(from, busy!.id));
        await delay(20);
      }
    };
    const asking = Promise.all([ask(edge.url, seen.edge), ask(baseUrl(), seen.shop)]);
    await delay(1_500);
    expect(seen.edge.some((each) => each.status === "HIT"), "the busy page comes from nginx's copy").toBe(true);
    await buyLastPiece(busy!.id);
    const placed = performance.now();
    for (let waited = 0; waited < 10_000 && !(seen.edge.at(-1)?.soldOut && seen.shop.at(-1)?.soldOut); waited += 100) await delay(100);
    await delay(500);
    stop = true;
    await asking;
    /** When the last request that still showed the piece in stock began, in ms after the order was answered. */
    const lastInStock = (list: Seen[]) => Math.max(0, ...list.filter((each) => !each.soldOut && each.started > placed).map((each) => Math.round(each.started - placed)));
    const timeline = seen.edge
      .filter((each) => each.started > placed - 100)
      .map((each) => `${Math.round(each.started - placed)} ms ${each.soldOut ? "sold out" : "in stock"} ${each.status} (${Math.round(each.took)} ms)`);
    const shop = lastInStock(seen.shop);
    console.log(`sold out from the shop itself after ${shop} ms, through nginx after ${lastInStock(seen.edge)} ms`);
    expect(seen.edge.at(-1)?.soldOut).toBe(true);
    expect(shop, "the shop itself shows it sold out on the next request").toBe(0);
    expect(lastInStock(seen.edge), `in stock through nginx, ms after the order:\n${timeline.join("\n")}`).toBeLessThanOrEqual(1_000);
  });
});
