import { describe, expect, it } from "vitest";
import { parseSeedArguments } from "./arguments";
import { demoProduct, planDemoOrders, type DemoProduct } from "./order-plan";
import { generateProduct } from "./products";

const now = new Date("2026-03-18T15:30:00Z");
const seed = 2004;
const products: DemoProduct[] = Array.from({ length: 300 }, (_, index) => demoProduct(generateProduct(index, { seed, now })));

describe("the demo's order plan", () => {
  const plan = planDemoOrders(products, { now, seed });

  it("is the same for the same seed and day", () => {
    const again = planDemoOrders(products, { now, seed });
    expect(again.orders.map((o) => [o.placedAt, o.items, o.externalPaymentId])).toEqual(plan.orders.map((o) => [o.placedAt, o.items, o.externalPaymentId]));
  });

  it("numbers orders in the order they were placed, each step after the one before and none after now", () => {
    expect(plan.orders.map((o) => o.number)).toEqual(plan.orders.map((_, index) => index + 1));
    const placed = plan.orders.map((o) => o.placedAt.getTime());
    expect(placed).toEqual([...placed].sort((a, b) => a - b));
    for (const o of plan.orders) {
      const steps = [o.placedAt, o.cancelled?.at, o.paidAt, o.postponedAt, o.packedAt, o.shippedAt].filter((at): at is Date => Boolean(at)).map((at) => at.getTime());
      expect(steps).toEqual([...steps].sort((a, b) => a - b));
      expect(steps.at(-1)!).toBeLessThanOrEqual(now.getTime());
      expect(o.cancelled && o.paidAt).toBeFalsy();
    }
  });

  it("sells only listed products on their channel, and counts every piece an order keeps as sold", () => {
    const byId = new Map(products.map((p) => [p.id, p]));
    const sold = new Map<number, number>();
    for (const o of plan.orders) {
      for (const item of o.items) {
        const p = byId.get(item.productId)!;
        expect(p.createdAt.getTime()).toBeLessThan(o.placedAt.getTime());
        expect(o.shop === "EBAY" ? p.ebay : p.webshop).toBe(true);
        if (!o.cancelled) sold.set(p.id, (sold.get(p.id) ?? 0) + item.quantity);
      }
    }
    expect(plan.sold).toEqual(sold);
  });

  it("lets a cancelled order hold only a piece the catalogue keeps, never one another cancelled order holds", () => {
    const held: { productId: number; from: number; until: number }[] = [];
    for (const o of plan.orders.filter((candidate) => candidate.cancelled)) {
      for (const item of o.items) {
        expect(products.find((p) => p.id === item.productId)!.stock).toBeGreaterThanOrEqual(item.quantity);
        const overlapping = held.filter((h) => h.productId === item.productId && h.until >= o.placedAt.getTime());
        expect(overlapping).toEqual([]);
        held.push({ productId: item.productId, from: o.placedAt.getTime(), until: o.cancelled!.at.getTime() });
      }
    }
    expect(held.length).toBeGreaterThan(0);
  });
});

describe("seed arguments", () => {
  it("read --orders for the benchmark's history", () => {
    expect(parseSeedArguments(["--products", "100000", "--orders=1_000_000"])).toMatchObject({ products: 100_000, orders: 1_000_000 });
    expect(() => parseSeedArguments(["--orders", "many"])).toThrow("--orders needs a whole number");
  });
});
