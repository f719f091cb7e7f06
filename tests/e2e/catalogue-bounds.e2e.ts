import { readFileSync } from "node:fs";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { baseUrl } from "./browser";

/**
 * SECURITY-REVIEW N-M2 and N-L3: what anonymous visitors can make the shared catalogue cache keep. Only a catalogue
 * page's canonical address, for a thing that exists, is rendered and kept; anything else is a 404 or a redirect to
 * that address, and neither is stored. Redis's key count is that of the run's own Redis, which the journeys' shop
 * caches in (tests/e2e/global-setup.ts); on a machine without redis-server there is none, and that test says so.
 */

const redisUrl = inject("serverRedisUrl");

async function answer(path: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${baseUrl()}${path}`, { redirect: "manual" });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") };
}

async function firstProductId(): Promise<number> {
  const input = encodeURIComponent(JSON.stringify({ json: { orderBy: { createdAt: "desc" } } }));
  const body = (await (await fetch(`${baseUrl()}/api/trpc/shared.product.getMany?input=${input}`)).json()) as { result: { data: { json: { products: { id: number }[] } } } };
  return body.result.data.json.products[0]!.id;
}

describe("what visitors can make the catalogue cache keep", () => {
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1 }) : null;
  afterAll(async () => {
    await redis?.quit();
  });

  it.skipIf(!redis)("100 requests for made-up home pages, unknown products and other spellings of a product's id leave Redis's key count unchanged", async () => {
    const id = await firstProductId();
    // The layout's menus and the real pages, once: what every visitor shares.
    for (const path of ["/", `/product/${id}`, "/home/warm-up"]) await answer(path);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await redis!.dbsize();

    const made = [
      ...Array.from({ length: 60 }, (_, n) => `/home/x${n}-${Date.now()}`),
      ...Array.from({ length: 20 }, (_, n) => `/product/${900_000_000 + n}`),
      ...Array.from({ length: 20 }, (_, n) => `/product/${"0".repeat(n + 1)}${id}`),
    ];
    const statuses = new Set<number>();
    for (const path of made) statuses.add((await answer(path)).status);
    expect([...statuses].sort()).toEqual([308, 404]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await redis!.dbsize()).toBe(before);
  });

  it("sends another spelling of a product's id to its own address, and a search to the one its address amounts to", async () => {
    const id = await firstProductId();
    expect(await answer(`/product/0${id}`)).toEqual({ status: 308, location: `/product/${id}` });
    expect(await answer(`/product/${id}.0`)).toEqual({ status: 308, location: `/product/${id}` });
    expect((await answer("/product/not-an-id")).status).toBe(404);

    // The search box's own address is the canonical one: served, not redirected.
    expect((await answer("/search?search=omega&sort=relevance:desc")).status).toBe(200);
    expect(await answer("/search?search=omega&page=0")).toEqual({ status: 307, location: "/search?search=omega" });
    expect(await answer("/search?category=999999")).toEqual({ status: 307, location: "/search" });
    expect(await answer("/search?category=99999,99998&inStock=1")).toEqual({ status: 307, location: "/search?inStock=1" });
    // A page past the last: the first page's count says where the last is.
    const last = await answer("/search?search=omega&page=9999");
    expect(last.status).toBe(307);
    expect(last.location).toMatch(/^\/search\?search=omega(&page=\d+)?$/);
    expect((await answer(last.location!)).status).toBe(200);
  });

  it("answers a search the listing refuses (a NUL in the words) with 404, and logs no stack for it (SECURITY-REVIEW N-L3)", async () => {
    const log = inject("serverLogFile");
    const before = readFileSync(log, "utf8").length;
    for (let n = 0; n < 3; n++) expect((await answer(`/search?search=%00${n}`)).status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = readFileSync(log, "utf8").slice(before);
    expect(written).not.toMatch(/ZodError|Error:|\n\s+at /);
  });
});
