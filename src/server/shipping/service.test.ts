import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { surchargeBandFor, type SurchargeBand } from "@/lib/surcharge";
import { estimatedDeliveryDate, isFutureShipment, nextShippingDay, shippingOptionsFor, shopDateAndHour } from "./service";

/**
 * The shipping rules without a database: the calendar and the options they make (the surcharge itself is
 * lib/surcharge.test.ts). The seeded settings are checked through the service in service.int.test.ts.
 */

const band = (minPrice: string, maxPrice: string, percentage: string): SurchargeBand => ({
  minPrice: new Decimal(minPrice),
  maxPrice: new Decimal(maxPrice),
  percentage: new Decimal(percentage),
});

// The seed's bands, given out of order: the choice must not depend on how the table returns them.
const bands = [band("250.00", "500.00", "0.035"), band("0.00", "100.00", "0"), band("500.00", "99999999.99", "0.05"), band("100.00", "250.00", "0.02")];

describe("shipping days", () => {
  const calendar = ["2026-03-09", "2026-03-04", "2026-03-06"]; // Monday, Wednesday, Friday, unsorted

  it("reads the date and hour on Amsterdam time", () => {
    expect(shopDateAndHour(new Date("2026-03-04T23:30:00Z"))).toEqual({ date: "2026-03-05", hour: 0 }); // CET
    expect(shopDateAndHour(new Date("2026-07-01T22:30:00Z"))).toEqual({ date: "2026-07-02", hour: 0 }); // CEST
  });

  it("ships today before the cut-off on a shipping day, otherwise on the next one", () => {
    expect(nextShippingDay(calendar, new Date("2026-03-04T09:00:00Z"))).toBe("2026-03-04"); // 10:00 Wednesday
    expect(nextShippingDay(calendar, new Date("2026-03-04T12:59:00Z"))).toBe("2026-03-04"); // 13:59
    expect(nextShippingDay(calendar, new Date("2026-03-04T13:00:00Z"))).toBe("2026-03-06"); // 14:00 is past it
    expect(nextShippingDay(calendar, new Date("2026-03-05T09:00:00Z"))).toBe("2026-03-06"); // Thursday
    expect(nextShippingDay(calendar, new Date("2026-03-06T15:00:00Z"))).toBe("2026-03-09"); // Friday afternoon
  });

  it("has no shipping day when the calendar has none left, and takes another cut-off when given", () => {
    expect(nextShippingDay(calendar, new Date("2026-03-09T14:00:00Z"))).toBeNull();
    expect(nextShippingDay([], new Date("2026-03-04T09:00:00Z"))).toBeNull();
    expect(nextShippingDay(calendar, new Date("2026-03-04T09:00:00Z"), 10)).toBe("2026-03-06");
  });

  it("promises arrival after the delivery days, moving a Sunday to the Monday", () => {
    expect(estimatedDeliveryDate("2026-03-04", 1)).toBe("2026-03-05");
    expect(estimatedDeliveryDate("2026-03-06", 1)).toBe("2026-03-07"); // Saturday is kept
    expect(estimatedDeliveryDate("2026-03-06", 2)).toBe("2026-03-09"); // Sunday becomes Monday
    expect(estimatedDeliveryDate("2026-03-27", 3)).toBe("2026-03-30"); // across the clock change
  });

  it("calls an order a future shipment only when it leaves after the next shipping day", () => {
    expect(isFutureShipment("2026-03-04", "2026-03-04")).toBe(false);
    expect(isFutureShipment("2026-03-06", "2026-03-04")).toBe(true);
    expect(isFutureShipment("2026-03-06", null)).toBe(false);
  });
});

describe("shipping options", () => {
  const netherlands = {
    countryName: "Netherlands",
    regionName: null,
    untrackedCost: new Decimal("4.50"),
    tntCost: new Decimal("8.95"),
    untrackedEtaDays: 2,
    tntEtaDays: 1,
    maxOrderUntracked: new Decimal("100.00"),
  };

  it("adds the surcharge to both methods and dates them from the shipping day", () => {
    const value = new Decimal("100.00");
    const [untracked, tnt] = shippingOptionsFor(netherlands, value, surchargeBandFor(bands, value), "2026-03-06");
    expect(untracked).toMatchObject({ method: "UNTRACKED", available: true, unavailableReason: null, estimatedDeliveryDate: "2026-03-09" });
    expect([untracked!.baseCost, untracked!.surcharge, untracked!.cost].map((amount) => amount.toFixed(2))).toEqual(["4.50", "2.00", "6.50"]);
    expect(tnt).toMatchObject({ method: "TNT", available: true, estimatedDeliveryDate: "2026-03-07" });
    expect(tnt!.cost.toFixed(2)).toBe("10.95");
  });

  it("refuses untracked above the destination's limit, naming the region where there is one, and leaves dates open without a shipping day", () => {
    const value = new Decimal("100.01");
    const [untracked, tnt] = shippingOptionsFor({ ...netherlands, regionName: "Friesland" }, value, null, null);
    expect(untracked).toMatchObject({
      available: false,
      unavailableReason: "Untracked post to Friesland is only possible for orders up to €100.00; please choose a tracked parcel.",
      estimatedDeliveryDate: null,
    });
    expect(tnt).toMatchObject({ available: true, unavailableReason: null, estimatedDeliveryDate: null });
  });
});
