import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerLimits } from "@/server/rate-limit/service";
import { cartItem, order, product, rateLimit, sandboxPayment } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { countryFromPosition } from "@/server/maps/service";
import type { GeoPort } from "@/server/integrations/geo/port";
import { createCaller } from "@/server/root";
import type { TRPCContext } from "@/server/trpc";
import { logger } from "@/server/logger";
import { makeDiscount, makeStockedProduct } from "../helpers/factories";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { makeSession, makeUser } from "../helpers/admin-fixtures";

// What an anonymous stranger could do to the shop through its API, finding by finding (SECURITY-REVIEW.md), on a
// real database. The tRPC route is the one the shop serves (src/app/api/trpc/[trpc]/route.ts).

let t: TestDatabase;
let route: { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> };

const address = { firstName: "Ada", lastName: "Lovelace", street: "Keizersgracht", houseNumber: "1", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

function context(options: { client: string; visitorId?: string | null; headers?: Record<string, string>; session?: TRPCContext["session"] }): TRPCContext {
  return {
    db: t.db,
    session: options.session ?? null,
    caller: { client: options.client, visitorId: options.visitorId ?? null },
    requestId: "test",
    log: logger,
    headers: new Headers(options.headers),
  };
}

async function stockOf(productId: number): Promise<number> {
  const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId));
  return row!.stock;
}

async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  return { code: "OK", message: "" };
}

function trpcGet(procedure: string, input: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const query = new URLSearchParams({ input: JSON.stringify(superjson.serialize(input)) });
  return route.GET(new Request(`http://localhost:3000/api/trpc/${procedure}?${query}`, { headers }));
}

function trpcPost(procedures: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return route.POST(new Request(`http://localhost:3000/api/trpc/${procedures}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }));
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `security-test-${process.pid}`) }), { products: 0, images: 0 });
  // The served route and the sandbox payment provider use the process's database: this test's.
  (globalThis as { shopDatabase?: unknown }).shopDatabase = t.database;
  route = await import("@/app/api/trpc/[trpc]/route");
});

afterAll(async () => {
  delete (globalThis as { shopDatabase?: unknown }).shopDatabase;
  await t?.dispose();
});

describe("placing orders (H4, M1, L6)", () => {
  it("refuses the order past the client's limit, and that order takes no stock", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Limit test Seiko", price: "40.00", stock: 50 });
    const caller = createCaller(context({ client: "198.51.100.20" }));
    for (let i = 0; i < callerLimits.placeOrder.client.limit; i++) {
      await caller.shared.checkout.placeOrder({ email: `buyer${i}@example.com`, address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 1 }] });
    }
    const before = await stockOf(watch.id);
    const refused = await refusal(
      caller.shared.checkout.placeOrder({ email: "one-more@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 5 }] }),
    );
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.message).toMatch(/try again in \d+ minutes?/);
    expect(await stockOf(watch.id)).toBe(before);
    // Someone else is not held up by it.
    await createCaller(context({ client: "198.51.100.21" })).shared.checkout.placeOrder({ email: "other@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 1 }] });
  });

  it("limits one visitor token across client addresses", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Visitor limit Seiko", price: "40.00", stock: 50 });
    const visitorId = "visitor-limit-test";
    for (let i = 0; i < callerLimits.placeOrder.visitor.limit; i++) {
      await createCaller(context({ client: `198.51.100.${40 + i}`, visitorId })).shared.checkout.placeOrder({ email: "v@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 1 }] });
    }
    const refused = await refusal(
      createCaller(context({ client: "198.51.100.99", visitorId })).shared.checkout.placeOrder({ email: "v@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 1 }] }),
    );
    expect(refused.code).toBe("TOO_MANY_REQUESTS");
  });

  it("puts the configured address, never the request's Host, in the payment's return page and webhook", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Host header Seiko", price: "40.00", stock: 5 });
    const caller = createCaller(context({ client: "198.51.100.30", headers: { host: "evil.example", "x-forwarded-host": "127.0.0.1:1", "x-forwarded-proto": "https" } }));
    const placed = await caller.shared.checkout.placeOrder({ email: "host@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: watch.id, quantity: 1 }] });
    const shop = "http://localhost:3000";
    expect(placed.checkoutUrl.startsWith(`${shop}/sandbox/pay/`)).toBe(true);
    const [payment] = await t.db.select().from(sandboxPayment).where(eq(sandboxPayment.id, placed.checkoutUrl.split("/").at(-1)!));
    expect(payment?.webhookUrl.startsWith(`${shop}/api/webhooks/mollie?secret=`)).toBe(true);
    expect(payment?.redirectUrl.startsWith(`${shop}/checkout/confirmation/`)).toBe(true);
  });

  it("places one order when a customer's two requests race, and tells the other one it is already placed", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Double click Seiko", price: "40.00", stock: 5 });
    const customer = await makeUser(t.db, "USER", "Double clicker");
    await t.db.insert(cartItem).values({ userId: customer.id, productId: watch.id, quantity: 2 });
    const session = { user: { id: customer.id, name: customer.name, email: customer.email, image: null, role: "USER" as const }, expires: new Date(Date.now() + 60_000) };
    const input = { email: customer.email, address, shippingMethod: "TNT" as const, paymentMethod: "IDEAL" as const };
    const results = await Promise.allSettled([
      createCaller(context({ client: "198.51.100.31", session })).shared.checkout.placeOrder(input),
      createCaller(context({ client: "198.51.100.31", session })).shared.checkout.placeOrder(input),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as { code: string }).code).toBe("CONFLICT");
    expect(await t.db.$count(order, eq(order.userId, customer.id))).toBe(1);
    expect(await stockOf(watch.id)).toBe(3);
  });
});

describe("discount codes (M4)", () => {
  it("answers a code still to start like an unknown one", async () => {
    const future = new Date(Date.now() + 30 * 86_400_000);
    await makeDiscount(t.db, { name: "XMASPREVIEW", discountType: "COUPON", pricingType: "PERCENT", value: "0.2", startsAt: future });
    const watch = await makeStockedProduct(t.db, { name: "Coupon Seiko", price: "40.00", stock: 5 });
    const quote = (code: string) =>
      createCaller(context({ client: "198.51.100.60" })).shared.checkout.quote({ items: [{ productId: watch.id, quantity: 1 }], couponCode: code });
    expect((await quote("XMASPREVIEW")).cart.couponMessage).toBe("The code XMASPREVIEW is not valid.");
    expect((await quote("NOPE123")).cart.couponMessage).toBe("The code NOPE123 is not valid.");
  });

  it("refuses the client's next new code past the limit, while the same code may be quoted again and again", async () => {
    const watch = await makeStockedProduct(t.db, { name: "Coupon limit Seiko", price: "40.00", stock: 5 });
    const caller = createCaller(context({ client: "198.51.100.61" }));
    const quote = (code: string) => caller.shared.checkout.quote({ items: [{ productId: watch.id, quantity: 1 }], couponCode: code, countryCode: "NL" });
    for (let i = 0; i < callerLimits.couponCode.client.limit; i++) await quote(`GUESS${i}`);
    for (let i = 0; i < 5; i++) await quote("GUESS0");
    expect((await refusal(quote("GUESSMORE"))).code).toBe("TOO_MANY_REQUESTS");
    // The signed-in customers' coupon check counts the same way.
    const customer = await makeUser(t.db, "USER", "Coupon guesser");
    const session = { user: { id: customer.id, name: customer.name, email: customer.email, image: null, role: "USER" as const }, expires: new Date(Date.now() + 60_000) };
    expect((await refusal(createCaller(context({ client: "198.51.100.61", session })).shared.cart.discountValidate({ code: "ANOTHERGUESS" }))).code).toBe(
      "TOO_MANY_REQUESTS",
    );
  });
});

describe("IPv6 clients (N-L6)", () => {
  it("are counted by their /64: new codes from a new address of the same network each time still meet the limit", async () => {
    const watch = await makeStockedProduct(t.db, { name: "IPv6 limit Seiko", price: "40.00", stock: 5 });
    const quote = (code: string, host: number) =>
      trpcGet("shared.checkout.quote", { items: [{ productId: watch.id, quantity: 1 }], couponCode: code, countryCode: "NL" }, { "x-forwarded-for": `2001:db8:77:1::${host.toString(16)}` });
    for (let i = 0; i < callerLimits.couponCode.client.limit; i++) expect((await quote(`V6GUESS${i}`, i + 1)).status).toBe(200);
    expect((await quote("V6GUESSMORE", 0xbeef)).status).toBe(429);
    // Another network is another client.
    expect((await trpcGet("shared.checkout.quote", { items: [{ productId: watch.id, quantity: 1 }], couponCode: "V6OTHER", countryCode: "NL" }, { "x-forwarded-for": "2001:db8:77:2::1" })).status).toBe(200);
  });
});

describe("geocoding (M12)", () => {
  it("limits callers and asks the geocoding service once per position", async () => {
    const asked: string[] = [];
    const geo: GeoPort = {
      probe: async () => "unused",
      async countryCode(position) {
        asked.push(`${position.lat},${position.lng}`);
        return "nl";
      },
    };
    const caller = { client: "198.51.100.70", visitorId: null };
    const amsterdam = { lat: 52.37403, lng: 4.88969, accuracy: 20 };
    expect(await countryFromPosition(t.db, geo, amsterdam, caller)).toEqual({ countryCode: "NL" });
    expect(await countryFromPosition(t.db, geo, { ...amsterdam, lat: 52.37398 }, caller)).toEqual({ countryCode: "NL" });
    expect(asked).toHaveLength(1);
    for (let i = 2; i < callerLimits.geocode.client.limit; i++) await countryFromPosition(t.db, geo, { lat: 40 + i, lng: 4, accuracy: 20 }, caller);
    expect((await refusal(countryFromPosition(t.db, geo, amsterdam, caller))).code).toBe("TOO_MANY_REQUESTS");
  });
});

describe("the served API route (M2, M6, L2, L8)", () => {
  it("answers an id beyond the database's integers with 400, not a failed query", async () => {
    const response = await trpcGet("shared.pricing.quote", { items: [{ productId: 9_999_999_999, quantity: 1 }] });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain("BAD_REQUEST");
    expect(body).not.toMatch(/select|Failed query/i);
  });

  it("answers an internal failure with a generic message and the request id, keeping the SQL in the log", async () => {
    await t.db.execute(sql`alter table product_category rename to product_category_away`);
    try {
      const response = await trpcGet("shared.navbar.getNavbarData", {}, { "x-request-id": "req-probe-1" });
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(body).toContain("quote request req-probe-1");
      expect(body).not.toMatch(/select|Failed query|product_category/i);
    } finally {
      await t.db.execute(sql`alter table product_category_away rename to product_category`);
    }
  });

  it("refuses a body over 1 MB with 413 and a batch of more than 10 calls with 400", async () => {
    const big = JSON.stringify({ json: { token: "x".repeat(2 * 1024 * 1024) } });
    expect((await trpcPost("shared.token.manage", big)).status).toBe(413);
    const eleven = Array.from({ length: 11 }, () => "shared.token.manage").join(",");
    const batch = JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i, { json: {} }])));
    expect((await trpcPost(`${eleven}?batch=1`, batch)).status).toBe(400);
  });

  it("refuses a post from another site, even a same-site one on another port", async () => {
    const form = new FormData();
    form.set("folder", "products");
    const response = await route.POST(
      new Request("http://localhost:3000/api/trpc/admin.bucket.upload", { method: "POST", body: form, headers: { host: "localhost:3000", origin: "http://localhost:1234", "sec-fetch-site": "same-site" } }),
    );
    expect(response.status).toBe(403);
    const sameOrigin = await trpcPost("shared.token.manage", JSON.stringify({ json: {} }), { host: "localhost:3000", origin: "http://localhost:3000", "sec-fetch-site": "same-origin" });
    expect(sameOrigin.status).toBe(200);
  });

  it("marks personal answers private and never stored", async () => {
    const admin = await makeUser(t.db, "ADMIN");
    const token = await makeSession(t.db, admin.id);
    const sidebar = await trpcGet("admin.sidebar.getSidebarInformation", undefined, { cookie: `authjs.session-token=${token}` });
    expect(sidebar.status).toBe(200);
    expect(sidebar.headers.get("cache-control")).toBe("private, no-store");
    const navbar = await trpcGet("shared.navbar.getNavbarData", {});
    expect(navbar.headers.get("cache-control")).not.toBe("private, no-store");
  });
});

describe("rate-limit counters", () => {
  it("are pruned once their window is long over, and counted afresh", async () => {
    const { hitRateLimit, pruneRateLimits } = await import("@/server/rate-limit/service");
    const longAgo = new Date(Date.now() - 2 * 86_400_000);
    await hitRateLimit(t.db, "prune-test:old", { limit: 1, windowMs: 60_000 }, longAgo);
    await hitRateLimit(t.db, "prune-test:new", { limit: 1, windowMs: 60_000 }, new Date());
    expect(await pruneRateLimits(t.db)).toBeGreaterThanOrEqual(1);
    expect(await t.db.$count(rateLimit, eq(rateLimit.key, "prune-test:old"))).toBe(0);
    expect(await t.db.$count(rateLimit, eq(rateLimit.key, "prune-test:new"))).toBe(1);
  });
});

describe("amounts beyond what the shop can store (bad input found by tests/integration/bad-input.test.ts)", () => {
  it("refuses an order larger than a money column holds with 400, and takes no stock", async () => {
    const row = await makeStockedProduct(t.db, { name: "Priceless pocket watch", price: "9999999999.99", stock: 999 });
    const refused = await refusal(
      createCaller(context({ client: "198.51.100.80" })).shared.checkout.placeOrder({ email: "rich@example.com", address, shippingMethod: "TNT", paymentMethod: "IDEAL", items: [{ productId: row.id, quantity: 2 }] }),
    );
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.message).toContain("cannot be placed online");
    expect(await stockOf(row.id)).toBe(999);
  });
});
