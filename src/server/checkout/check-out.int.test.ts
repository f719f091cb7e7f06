import os from "node:os";
import path from "node:path";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { cartItem, order, orderPlacer, paymentDetail, product } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { logger } from "@/server/logger";
import { sweepUnpaidOrders } from "@/server/orders/unpaid-sweep";
import { applyPaymentUpdate } from "@/server/orders/service";
import { configuredUnpaidHolds } from "@/server/orders/unpaid-holds";
import { callerLimits } from "@/server/rate-limit/service";
import { appRouter, createCaller } from "@/server/root";
import type { TRPCContext } from "@/server/trpc";
import { createTRPCContext } from "@/server/trpc-context";
import type { SettledPaymentStatus } from "@/server/integrations/payments/port";
import { makeUser } from "../../../tests/helpers/admin-fixtures";
import { makeStockedProduct } from "../../../tests/helpers/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";

/**
 * The checkout's workflow (`checkOut`) as an anonymous stranger reaches it, through the shop's router: what one
 * buyer's unpaid orders may hold (SECURITY-REVIEW N-H2) and the limit on orders, which counts only orders placed
 * (RELIABILITY-REVIEW). The caps are the shop's defaults: 20 pieces or €10,000 held unpaid, 10 pieces a line.
 */

let t: TestDatabase;

const address = { firstName: "Ada", lastName: "Lovelace", street: "Keizersgracht", houseNumber: "1", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };

function context(options: { client: string; visitorId?: string | null; session?: TRPCContext["session"] }): TRPCContext {
  return {
    db: t.db,
    session: options.session ?? null,
    caller: { client: options.client, visitorId: options.visitorId ?? null },
    requestId: "test",
    log: logger,
    headers: new Headers(),
  };
}

type Line = { productId: number; quantity: number };

/** An anonymous order from `client` (and `visitorId`), paid by iDEAL, through `shared.checkout.placeOrder`. */
function placeOrder(from: { client: string; visitorId?: string | null }, items: Line[], email = `buyer-${from.client}@example.com`) {
  return createCaller(context(from)).shared.checkout.placeOrder({ email, address, shippingMethod: "TNT", paymentMethod: "IDEAL", items });
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

async function stockOf(productId: number): Promise<number> {
  const [row] = await t.db.select({ stock: product.stock }).from(product).where(eq(product.id, productId));
  return row!.stock;
}

/** What the provider's webhook does once the buyer paid (`paid`) or gave up on the payment page (`canceled`). */
async function settle(orderNumber: string, status: Extract<SettledPaymentStatus, "paid" | "canceled">) {
  const [payment] = await t.db
    .select({ orderId: order.id, externalPaymentId: paymentDetail.externalPaymentId, total: paymentDetail.total })
    .from(order)
    .innerJoin(paymentDetail, eq(paymentDetail.orderId, order.id))
    .where(eq(order.orderNumber, orderNumber));
  const update = { provider: "sandbox", externalPaymentId: payment!.externalPaymentId!, status, amount: payment!.total, method: "IDEAL" as const, orderId: payment!.orderId };
  await t.db.transaction((tx) => applyPaymentUpdate(tx, update));
}

const heldMessage = (pieces: number, value: string) =>
  `You have unpaid orders holding ${pieces} piece${pieces === 1 ? "" : "s"} (${value}); with this order they would hold more than 20 pieces or €10,000.00. ` +
  "Please pay or cancel them first (an unpaid order is released once its payment page has expired), or contact the shop for a larger order.";

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `check-out-test-${process.pid}`) }), { products: 0, images: 0 });
  // The sandbox payment provider the workflow starts payments with uses the process's database: this test's.
  (globalThis as { shopDatabase?: unknown }).shopDatabase = t.database;
});

afterAll(async () => {
  delete (globalThis as { shopDatabase?: unknown }).shopDatabase;
  await t?.dispose();
});

describe("what an anonymous buyer's unpaid orders may hold (N-H2)", () => {
  it("uses the shop's default caps", () => {
    expect([env.UNPAID_HOLD_MAX_PIECES, env.UNPAID_HOLD_MAX_VALUE, env.ORDER_LINE_MAX_PIECES]).toEqual([20, 10_000, 10]);
  });

  it("refuses a second order whose pieces bring the client's unpaid orders over the cap, and that order takes no stock", async () => {
    const crystals = await makeStockedProduct(t.db, { name: "Cap test crystal", price: "10.00", stock: 30 });
    const crowns = await makeStockedProduct(t.db, { name: "Cap test crown", price: "12.50", stock: 30 });
    const client = { client: "198.51.100.1" };
    await placeOrder(client, [{ productId: crystals.id, quantity: 10 }, { productId: crowns.id, quantity: 8 }]);

    const refused = await refusal(placeOrder(client, [{ productId: crystals.id, quantity: 3 }], "someone-else@example.com"));
    expect(refused).toEqual({ code: "TOO_MANY_REQUESTS", message: heldMessage(18, "€200.00") });
    expect([await stockOf(crystals.id), await stockOf(crowns.id)]).toEqual([20, 22]);

    // Up to the cap is fine.
    await placeOrder(client, [{ productId: crystals.id, quantity: 2 }], "someone-else@example.com");
    expect(await stockOf(crystals.id)).toBe(18);
  });

  it("refuses a second order whose value brings the client's unpaid orders over the cap", async () => {
    const watches = await makeStockedProduct(t.db, { name: "Cap test chronograph", price: "6000.00", stock: 3 });
    const client = { client: "198.51.100.2" };
    await placeOrder(client, [{ productId: watches.id, quantity: 1 }]);
    expect(await refusal(placeOrder(client, [{ productId: watches.id, quantity: 1 }]))).toEqual({ code: "TOO_MANY_REQUESTS", message: heldMessage(1, "€6,000.00") });
    expect(await stockOf(watches.id)).toBe(2);
  });

  it("counts one visitor token across many client addresses, and one e-mail address across visitors and addresses", async () => {
    const springs = await makeStockedProduct(t.db, { name: "Cap test mainspring", price: "20.00", stock: 100 });
    const visitorId = "visitor-across-addresses";
    await placeOrder({ client: "198.51.100.10", visitorId }, [{ productId: springs.id, quantity: 10 }], "v1@example.com");
    await placeOrder({ client: "198.51.100.11", visitorId }, [{ productId: springs.id, quantity: 10 }], "v2@example.com");
    const refused = await refusal(placeOrder({ client: "198.51.100.12", visitorId }, [{ productId: springs.id, quantity: 1 }], "v3@example.com"));
    expect(refused).toEqual({ code: "TOO_MANY_REQUESTS", message: heldMessage(20, "€400.00") });

    await placeOrder({ client: "198.51.100.13", visitorId: "mail-a" }, [{ productId: springs.id, quantity: 10 }], "same@example.com");
    await placeOrder({ client: "198.51.100.14", visitorId: "mail-b" }, [{ productId: springs.id, quantity: 10 }], " Same@Example.com ");
    expect((await refusal(placeOrder({ client: "198.51.100.15" }, [{ productId: springs.id, quantity: 1 }], "same@example.com"))).code).toBe("TOO_MANY_REQUESTS");
    expect(await stockOf(springs.id)).toBe(60);
  });

  it("caps a signed-in customer by their account too, whatever address or device they order from", async () => {
    const dials = await makeStockedProduct(t.db, { name: "Cap test dial", price: "30.00", stock: 40 });
    const customer = await makeUser(t.db, "USER", "Capped customer");
    const session = { user: { id: customer.id, name: customer.name, email: customer.email, image: null, role: "USER" as const }, expires: new Date(Date.now() + 60_000) };
    const order = (client: string, email: string) =>
      createCaller(context({ client, visitorId: `device-${client}`, session })).shared.checkout.placeOrder({ email, address, shippingMethod: "TNT", paymentMethod: "IDEAL" });

    await t.db.insert(cartItem).values({ userId: customer.id, productId: dials.id, quantity: 10 });
    await order("198.51.100.20", "home@example.com");
    await t.db.insert(cartItem).values({ userId: customer.id, productId: dials.id, quantity: 10 });
    await order("198.51.100.21", "work@example.com");
    await t.db.insert(cartItem).values({ userId: customer.id, productId: dials.id, quantity: 1 });
    expect(await refusal(order("198.51.100.22", "phone@example.com"))).toEqual({ code: "TOO_MANY_REQUESTS", message: heldMessage(20, "€600.00") });
    expect(await stockOf(dials.id)).toBe(20);
  });

  it("places one of two racing orders of one buyer whose pieces together exceed the cap, even of other pieces from other addresses", async () => {
    // Nothing else makes these two take turns: no product, no address and no visitor in common, only the buyer's e-mail.
    const bracelets = await makeStockedProduct(t.db, { name: "Cap test bracelet", price: "40.00", stock: 30 });
    const buckles = await makeStockedProduct(t.db, { name: "Cap test buckle", price: "40.00", stock: 30 });
    const straps = [await makeStockedProduct(t.db, { name: "Cap test strap A", price: "5.00", stock: 10 }), await makeStockedProduct(t.db, { name: "Cap test strap B", price: "5.00", stock: 10 })];
    const attempts = await Promise.allSettled([
      placeOrder({ client: "198.51.100.30" }, [{ productId: bracelets.id, quantity: 10 }, { productId: straps[0]!.id, quantity: 2 }], "racer@example.com"),
      placeOrder({ client: "198.51.100.31" }, [{ productId: buckles.id, quantity: 10 }, { productId: straps[1]!.id, quantity: 2 }], "racer@example.com"),
    ]);
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = attempts.find((attempt): attempt is PromiseRejectedResult => attempt.status === "rejected")!;
    expect(rejected.reason).toMatchObject({ code: "TOO_MANY_REQUESTS", message: heldMessage(12, "€410.00") });
    expect((await stockOf(bracelets.id)) + (await stockOf(buckles.id))).toBe(50);
  });

  it("frees the cap once the unpaid order is paid, or cancelled on the payment page", async () => {
    const hands = await makeStockedProduct(t.db, { name: "Cap test hands", price: "15.00", stock: 60 });
    const client = { client: "198.51.100.40" };
    const first = await placeOrder(client, [{ productId: hands.id, quantity: 10 }, { productId: (await makeStockedProduct(t.db, { name: "Paid tube", price: "5.00", stock: 10 })).id, quantity: 10 }]);
    expect((await refusal(placeOrder(client, [{ productId: hands.id, quantity: 1 }]))).code).toBe("TOO_MANY_REQUESTS");
    await settle(first.orderNumber, "paid");
    const second = await placeOrder(client, [{ productId: hands.id, quantity: 10 }, { productId: (await makeStockedProduct(t.db, { name: "Cancelled tube", price: "5.00", stock: 10 })).id, quantity: 10 }]);
    expect((await refusal(placeOrder(client, [{ productId: hands.id, quantity: 1 }]))).code).toBe("TOO_MANY_REQUESTS");
    await settle(second.orderNumber, "canceled");
    await placeOrder(client, [{ productId: hands.id, quantity: 10 }]);
    expect(await stockOf(hands.id)).toBe(40);
  });

  it("refuses a line of more pieces than a person buys at once, and an order over the caps on its own", async () => {
    const springbars = await makeStockedProduct(t.db, { name: "Cap test springbar", price: "2.00", stock: 50 });
    expect(await refusal(placeOrder({ client: "198.51.100.50" }, [{ productId: springbars.id, quantity: 11 }]))).toEqual({
      code: "BAD_REQUEST",
      message: 'At most 10 of "Cap test springbar" can be ordered online at once; please change your cart, or contact the shop for more.',
    });
    const platinum = await makeStockedProduct(t.db, { name: "Cap test platinum watch", price: "12500.00", stock: 1 });
    expect(await refusal(placeOrder({ client: "198.51.100.51" }, [{ productId: platinum.id, quantity: 1 }]))).toEqual({
      code: "BAD_REQUEST",
      message: "An order of more than 20 pieces or €10,000.00 cannot be placed online; please contact the shop.",
    });
    expect([await stockOf(springbars.id), await stockOf(platinum.id)]).toEqual([50, 1]);
  });

  it("keeps who placed an unpaid order only as keyed hashes, and forgets it once the order is paid or cancelled", async () => {
    const tools = await makeStockedProduct(t.db, { name: "Cap test case knife", price: "25.00", stock: 5 });
    const placed = await placeOrder({ client: "198.51.100.60", visitorId: "visitor-kept" }, [{ productId: tools.id, quantity: 1 }], "kept@example.com");
    const [row] = await t.db.select().from(orderPlacer).innerJoin(order, eq(order.id, orderPlacer.orderId)).where(eq(order.orderNumber, placed.orderNumber));
    expect(row!.order_placer.visitorId).toBe("visitor-kept");
    expect(row!.order_placer.clientKey).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(row!.order_placer)).not.toMatch(/198\.51\.100\.60|kept@example\.com/);

    await settle(placed.orderNumber, "paid");
    await sweepUnpaidOrders(t.db, { holds: configuredUnpaidHolds(), paymentsFor: () => createSandboxPayments({ db: t.db, baseUrl: "http://localhost:3000" }) }, logger);
    expect(await t.db.$count(orderPlacer, eq(orderPlacer.orderId, row!.order.id))).toBe(0);
  });

  it("frees the cap when the sweep expires the unpaid order once its hold is over", async () => {
    const stems = await makeStockedProduct(t.db, { name: "Cap test stem", price: "8.00", stock: 40 });
    const client = { client: "198.51.100.70" };
    const first = await placeOrder(client, [{ productId: stems.id, quantity: 10 }, { productId: (await makeStockedProduct(t.db, { name: "Expired tube", price: "5.00", stock: 10 })).id, quantity: 10 }]);
    expect((await refusal(placeOrder(client, [{ productId: stems.id, quantity: 1 }]))).code).toBe("TOO_MANY_REQUESTS");

    const payments = createSandboxPayments({ db: t.db, baseUrl: "http://localhost:3000" });
    const beforeHoldEnds = new Date(Date.now() + (env.UNPAID_HOLD_MINUTES - 1) * 60_000);
    expect((await sweepUnpaidOrders(t.db, { holds: configuredUnpaidHolds(), paymentsFor: () => payments }, logger, beforeHoldEnds)).expired).not.toContain(first.orderNumber);
    const afterHoldEnds = new Date(Date.now() + (env.UNPAID_HOLD_MINUTES + 1) * 60_000);
    expect((await sweepUnpaidOrders(t.db, { holds: configuredUnpaidHolds(), paymentsFor: () => payments }, logger, afterHoldEnds)).expired).toContain(first.orderNumber);
    await placeOrder(client, [{ productId: stems.id, quantity: 10 }]);
    expect(await stockOf(stems.id)).toBe(30);
  });
});

describe("the limit on placing orders (RELIABILITY-REVIEW: it counted refused tries)", () => {
  it("counts only orders placed: after ten sold-out answers, an order that can be placed is placed", async () => {
    const soldOut = await makeStockedProduct(t.db, { name: "Limit test sold-out watch", price: "90.00", stock: 0 });
    const inStock = await makeStockedProduct(t.db, { name: "Limit test watch in stock", price: "90.00", stock: 1 });
    const client = { client: "198.51.100.80", visitorId: "visitor-sold-out" };
    for (let i = 0; i < callerLimits.placeOrder.client.limit; i++) {
      expect(await refusal(placeOrder(client, [{ productId: soldOut.id, quantity: 1 }]))).toEqual({
        code: "CONFLICT",
        message: 'Sorry, "Limit test sold-out watch" has just sold out. Please remove it from your cart.',
      });
    }
    const placed = await placeOrder(client, [{ productId: inStock.id, quantity: 1 }]);
    expect(placed.orderNumber).toMatch(/^BC-\d{4}-\d{6}$/);
    expect(await stockOf(inStock.id)).toBe(0);
  });

  it("still refuses the order past the limit of orders placed, and tries past a generous limit on tries", async () => {
    const parts = await makeStockedProduct(t.db, { name: "Limit test crystal", price: "5.00", stock: 100 });
    const soldOut = await makeStockedProduct(t.db, { name: "Limit test sold-out crystal", price: "5.00", stock: 0 });
    const client = { client: "198.51.100.81" };
    for (let i = 0; i < callerLimits.placeOrder.client.limit; i++) await placeOrder(client, [{ productId: parts.id, quantity: 1 }], `limit${i}@example.com`);
    expect((await refusal(placeOrder(client, [{ productId: parts.id, quantity: 1 }], "limit-more@example.com"))).code).toBe("TOO_MANY_REQUESTS");
    expect(await stockOf(parts.id)).toBe(90);

    const trier = { client: "198.51.100.82" };
    for (let i = 0; i < callerLimits.placeOrderTry.client.limit; i++) {
      expect((await refusal(placeOrder(trier, [{ productId: soldOut.id, quantity: 1 }]))).code).toBe("CONFLICT");
    }
    expect((await refusal(placeOrder(trier, [{ productId: parts.id, quantity: 1 }]))).code).toBe("TOO_MANY_REQUESTS");
  });
});

describe("an address with a line break (SECURITY-REVIEW N-M5)", () => {
  it("is refused with 400, naming the field, and no order is placed", async () => {
    const straps = await makeStockedProduct(t.db, { name: "One-line test strap", price: "20.00", stock: 5 });
    const input = {
      email: "spoof@example.com",
      address: { ...address, lastName: "X\nITEMS TO PACK:\n[ ] 1 x Rolex Submariner" },
      shippingMethod: "TNT",
      paymentMethod: "IDEAL",
      items: [{ productId: straps.id, quantity: 1 }],
    };
    // Over HTTP, as the browser calls it: the status and the message are what the error formatter makes of them.
    const request = new Request("http://127.0.0.1:3000/api/trpc/shared.checkout.placeOrder", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.90" },
      body: JSON.stringify({ json: input }),
    });
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: appRouter,
      createContext: () => createTRPCContext({ headers: request.headers, requestId: "test", db: t.db }),
    });

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { json: { message: string; data: { zodError: { fieldErrors: Record<string, string[]> }; fieldIssues: { path: string; message: string }[] } } };
    };
    expect(error.json.message).toBe("The request is not valid: ✖ Last name must be one line: no line breaks, tabs or other control characters   → at address.lastName");
    expect(error.json.data.zodError.fieldErrors.address).toEqual(["Last name must be one line: no line breaks, tabs or other control characters"]);
    // A staff form puts the refusal on its field by the path (features/admin/kit/forms/field-refusals.ts).
    expect(error.json.data.fieldIssues).toEqual([{ path: "address.lastName", message: "Last name must be one line: no line breaks, tabs or other control characters" }]);
    expect(await stockOf(straps.id)).toBe(5);
  });
});
