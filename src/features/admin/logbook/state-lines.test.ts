import { describe, expect, it } from "vitest";
import { stateLines, stateLineText } from "./state-lines";

const texts = (previous: Parameters<typeof stateLines>[0], next: Parameters<typeof stateLines>[1]) => stateLines(previous, next).map(stateLineText);

describe("a logbook entry's details as lines", () => {
  it("say what changed, money in euros: price: €10.00 → €12.00", () => {
    expect(texts({ price: "10.00", name: "Crown 4.5" }, { price: "12.00", name: "Crown 4.5" })).toEqual(["price: €10.00 → €12.00", "name: Crown 4.5"]);
  });

  it("read statuses, dates, yes/no, lists and nested fields, what changed first", () => {
    expect(
      texts(
        { status: "PAID_READY_TO_SHIP", soldAt: null, address: { city: "Utrecht", street: "Oudegracht" }, onWebshop: true },
        { status: "SHIPPED", soldAt: "2026-05-04T12:30:00.000Z", address: { city: "Utrecht", street: "Neude" }, onWebshop: false, tags: ["vip", "dealer"] },
      ),
    ).toEqual([
      "status: PAID_READY_TO_SHIP → SHIPPED",
      "soldAt: none → 4 May 2026, 14:30",
      "address.street: Oudegracht → Neude",
      "onWebshop: yes → no",
      "tags: vip, dealer",
      "address.city: Utrecht",
    ]);
  });

  it("list a created thing's fields, and a removed one's as going to none", () => {
    expect(texts(null, { shippingDay: "2026-12-28", tntCost: "8.95" })).toEqual(["shippingDay: 2026-12-28", "tntCost: €8.95"]);
    expect(texts({ closingDay: "2026-12-28" }, null)).toEqual(["closingDay: 2026-12-28 → none"]);
  });

  it("leave a discount's bare value alone: it may be a percentage", () => {
    expect(texts({ value: "10" }, { value: "15" })).toEqual(["value: 10 → 15"]);
  });
});
