import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Response as PageResponse } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_STATUS_HEADER, nginxConfig } from "../../scripts/nginx-site.mjs";
import { freePort } from "../helpers/free-port";
import { baseUrl, openBrowser, type BrowserSession } from "./browser";
import { addFromProductPage, type Card } from "./checkout-steps";
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
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install -y nginx (.ci/run installs it where it can)`);
  const prefix = mkdtempSync(path.join(os.tmpdir(), "shop-edge-"));
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
    if (tries > 100 || nginx.exitCode !== null) throw new Error(`nginx did not answer on ${url}: ${readFileSync(path.join(prefix, "error.log"), "utf8")}`);
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

type Seen = { started: number; soldOut: boolean; status: string | null };

/** The product page through nginx as a visitor without cookies sees it. */
async function productThroughEdge(edge: Edge, productId: number): Promise<Seen> {
  const started = performance.now();
  const response = await fetch(`${edge.url}/product/${productId}`);
  const html = await response.text();
  expect(response.status).toBe(200);
  const soldOut = !html.includes("1 in stock");
  if (soldOut) expect(html).toContain("Sold out");
  return { started, soldOut, status: response.headers.get(CACHE_STATUS_HEADER) };
}

describe("the catalogue at the edge (nginx in front of the shop)", () => {
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
      for (let round = 0; round < 10 && !statuses.includes("HIT"); round++) {
        const response = await fetch(`${edge.url}${address}`);
        expect(response.status, address).toBe(200);
        expect(response.headers.get("cache-control"), address).toBe("public, s-maxage=1, stale-while-revalidate=86400");
        // The marker is nginx's alone.
        expect(response.headers.get("x-accel-expires"), address).toBeNull();
        statuses.push(response.headers.get(CACHE_STATUS_HEADER));
        await response.arrayBuffer();
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
    const seen: { url: string; status: string | null; response: PageResponse }[] = [];
    page.on("response", (response) => {
      if (response.url().startsWith(edge.url)) seen.push({ url: response.url(), status: response.headers()[CACHE_STATUS_HEADER.toLowerCase()] ?? null, response });
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
    expect(seen.filter((entry) => entry.status !== "BYPASS").map((entry) => `${entry.url} ${entry.status}`)).toEqual([]);
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

  it("shows a piece sold out within a second of the order, on a page asked for all the time and on a quiet one", async () => {
    const [busy, quiet] = await oneOffPieces(2);

    // Busy: a visitor asks for the page every 20 ms before, during and after the order.
    const seen: Seen[] = [];
    let stop = false;
    const asking = (async () => {
      while (!stop) {
        seen.push(await productThroughEdge(edge, busy!.id));
        await delay(20);
      }
    })();
    await delay(1_500);
    expect(seen.some((each) => each.status === "HIT"), "the busy page comes from nginx's copy").toBe(true);
    await buyLastPiece(busy!.id);
    const placed = performance.now();
    await delay(1_500);
    stop = true;
    await asking;
    const lateInStock = seen.filter((each) => !each.soldOut && each.started > placed).map((each) => Math.round(each.started - placed));
    expect(Math.max(0, ...lateInStock), "the last request that showed it in stock, ms after the order").toBeLessThanOrEqual(1_000);
    expect(seen.at(-1)?.soldOut).toBe(true);

    // Quiet: asked for, then nobody asks for a while; the first visitor after the order sees it sold out.
    for (let round = 0; round < 3; round++) expect((await productThroughEdge(edge, quiet!.id)).soldOut).toBe(false);
    await delay(2_500);
    await buyLastPiece(quiet!.id);
    const first = await productThroughEdge(edge, quiet!.id);
    expect([first.soldOut, first.status]).toEqual([true, "EXPIRED"]);
  });
});
