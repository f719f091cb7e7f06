import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { countries, regions } from "@/server/setup/seed/reference-data";
import {
  estimatedDeliveryDate,
  getNextShippingDay,
  getShippingOptions,
  isFutureShipmentNow,
  listShippingCountries,
  nextShippingDay,
  quoteShipping,
} from "@/server/shipping/service";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";

/**
 * The shipping rules over the seeded settings: every active destination, every surcharge band, untracked refused
 * above the destination's limit, and the calendar's dates. The expected figures are written out here, not derived
 * from the service's own helpers.
 */

// Wednesday 4 March 2026, 10:00 in Amsterdam (CET, UTC+1): before the 14:00 cut-off on a shipping day.
const wednesdayMorning = new Date("2026-03-04T09:00:00Z");
const wednesdayAfternoon = new Date("2026-03-04T13:30:00Z"); // 14:30 in Amsterdam
const tuesday = new Date("2026-03-03T09:00:00Z");

// The seed fills the calendar with Mondays, Wednesdays and Fridays for eight weeks from `now`.
const t = seededDatabaseForFile({ now: wednesdayMorning });

// The seeded surcharge bands, each with order values in it and the surcharge they pay ([order value, surcharge]);
// where two bands meet the higher one applies.
const surchargesByBand: Record<string, [value: string, surcharge: string][]> = {
  "0–100, none": [["0.00", "0.00"], ["45.00", "0.00"], ["99.99", "0.00"]],
  "100–250, 2%": [["100.00", "2.00"], ["180.25", "3.61"]], // 3.605 rounds half up
  "250–500, 3.5%": [["250.00", "8.75"], ["499.99", "17.50"]],
  "above 500, 5%": [["500.00", "25.00"], ["1234.56", "61.73"]],
};
const bandCases = Object.entries(surchargesByBand).flatMap(([band, cases]) => cases.map(([value, surcharge]) => ({ band, value, surcharge })));

// A region for each country that has them; remote regions have their own, lower untracked limit.
const regionFor: Record<string, { code: string; limit: string }> = { US: { code: "NY", limit: "50.00" }, CA: { code: "ON", limit: "50.00" }, AU: { code: "NSW", limit: "50.00" } };
const active = countries.filter((c) => c.active);

describe("shipping options for every active country and surcharge band", () => {
  for (const destination of active) {
    it(`${destination.code} (${destination.name})`, async () => {
      const region = regionFor[destination.code];
      for (const { band, value, surcharge } of bandCases) {
        const result = await getShippingOptions(t.db, { countryCode: destination.code, regionCode: region?.code, orderValue: value }, wednesdayMorning);
        const [untracked, tnt] = result.options;
        const limit = new Decimal(region?.limit ?? destination.maxOrderUntracked);
        const label = `${destination.code} at €${value} (${band})`;

        expect(untracked!.method, label).toBe("UNTRACKED");
        expect(untracked!.surcharge.toFixed(2), label).toBe(surcharge);
        expect(untracked!.cost.toFixed(2), label).toBe(new Decimal(destination.untrackedCost).plus(surcharge).toFixed(2));
        expect(untracked!.available, label).toBe(new Decimal(value).lessThanOrEqualTo(limit));
        expect(untracked!.etaDays).toBe(destination.untrackedEtaDays);

        expect(tnt!.method).toBe("TNT");
        expect(tnt!.available, label).toBe(true);
        expect(tnt!.cost.toFixed(2), label).toBe(new Decimal(destination.tntCost).plus(surcharge).toFixed(2));
        expect(result.estimatedShippingDate).toBe("2026-03-04");
      }
    });
  }
});

describe("untracked limits", () => {
  it("allows untracked up to and including the limit, and refuses it above with a clear message", async () => {
    const atLimit = await quoteShipping(t.db, { countryCode: "nl", orderValue: "100.00", method: "UNTRACKED" }, wednesdayMorning);
    expect(atLimit.cost.toFixed(2)).toBe("6.50"); // €4.50 postage + 2% of €100.00
    await expect(quoteShipping(t.db, { countryCode: "NL", orderValue: "100.01", method: "UNTRACKED" }, wednesdayMorning)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Untracked post to Netherlands is only possible for orders up to €100.00; please choose a tracked parcel.",
    });
    const tracked = await quoteShipping(t.db, { countryCode: "NL", orderValue: "100.01", method: "TNT" }, wednesdayMorning);
    expect(tracked).toMatchObject({ method: "TNT", countryCode: "NL", regionCode: null, estimatedShippingDate: "2026-03-04", estimatedDeliveryDate: "2026-03-05" });
    expect(tracked.cost.toFixed(2)).toBe("10.95"); // €8.95 + 2% of €100.01 (2.0002 → 2.00)
  });

  it("uses a remote region's own lower limit", async () => {
    const remote = regions.filter((r) => r.maxOrderUntracked !== null);
    expect(remote.length).toBeGreaterThan(0);
    for (const region of remote) {
      const result = await getShippingOptions(t.db, { countryCode: region.countryCode, regionCode: region.code, orderValue: "30.00" }, wednesdayMorning);
      expect(result.maxOrderUntracked.toFixed(2)).toBe(region.maxOrderUntracked);
      expect(result.options[0]!.unavailableReason).toBe(`Untracked post to ${region.name} is only possible for orders up to €25.00; please choose a tracked parcel.`);
    }
  });

  it("refuses destinations the shop does not serve, and asks for a state where the country has them", async () => {
    const options = (countryCode: string, regionCode?: string) => getShippingOptions(t.db, { countryCode, regionCode, orderValue: "20.00" }, wednesdayMorning);
    await expect(options("BR")).rejects.toMatchObject({ code: "BAD_REQUEST", message: "We do not ship to Brazil at the moment" });
    await expect(options("XX")).rejects.toMatchObject({ message: "We do not know the country code XX" });
    await expect(options("US")).rejects.toMatchObject({ message: "Please choose a state or province in United States" });
    await expect(options("US", "PR")).rejects.toMatchObject({ message: "We do not ship to Puerto Rico at the moment" });
    await expect(options("US", "ZZ")).rejects.toMatchObject({ message: "ZZ is not a state or province of United States" });
    await expect(getShippingOptions(t.db, { countryCode: "NL", orderValue: "-1" })).rejects.toThrow();
    // A region code for a country without regions changes nothing.
    expect((await options("DE", "BY")).regionCode).toBeNull();
  });
});

describe("shipping and delivery dates", () => {
  it("ships today before the 14:00 cut-off on a shipping day, on the next shipping day after it or on other days", async () => {
    expect(await getNextShippingDay(t.db, wednesdayMorning)).toBe("2026-03-04");
    expect(await getNextShippingDay(t.db, wednesdayAfternoon)).toBe("2026-03-06");
    expect(await getNextShippingDay(t.db, tuesday)).toBe("2026-03-04");
    // The cut-off is in Amsterdam time: 13:30 UTC is 14:30 there in winter, 12:30 UTC still 13:30.
    expect(nextShippingDay(["2026-03-04", "2026-03-06"], new Date("2026-03-04T12:30:00Z"))).toBe("2026-03-04");
    // In summer (CEST, UTC+2) 12:30 UTC is already past the cut-off.
    expect(nextShippingDay(["2026-07-01", "2026-07-03"], new Date("2026-07-01T12:30:00Z"))).toBe("2026-07-03");
    expect(nextShippingDay([], wednesdayMorning)).toBeNull();
  });

  it("adds the method's delivery days to the shipping day, never promising a Sunday", async () => {
    const afternoon = await getShippingOptions(t.db, { countryCode: "NL", orderValue: "40.00" }, wednesdayAfternoon);
    expect(afternoon.estimatedShippingDate).toBe("2026-03-06"); // Friday
    expect(afternoon.options.map((o) => [o.method, o.estimatedDeliveryDate])).toEqual([
      ["UNTRACKED", "2026-03-09"], // Friday + 2 is Sunday, promised for Monday
      ["TNT", "2026-03-07"], // Friday + 1 is Saturday
    ]);
    expect(estimatedDeliveryDate("2026-03-04", 10)).toBe("2026-03-14");
  });

  it("tells a future shipment from one that goes out on the next shipping day", async () => {
    expect(await isFutureShipmentNow(t.db, "2026-03-04", wednesdayMorning)).toBe(false);
    expect(await isFutureShipmentNow(t.db, "2026-03-06", wednesdayMorning)).toBe(true);
    expect(await isFutureShipmentNow(t.db, "2026-03-06", wednesdayAfternoon)).toBe(false);
  });
});

describe("shipping countries", () => {
  it("lists the active countries by name with their active states or provinces", async () => {
    const list = await listShippingCountries(t.db);
    expect(list.map((c) => c.code).sort()).toEqual(active.map((c) => c.code).sort());
    expect(list[0]!.name <= list[1]!.name).toBe(true);
    const us = list.find((c) => c.code === "US")!;
    expect(us.regions.map((r) => r.code)).toContain("NY");
    expect(us.regions.map((r) => r.code)).not.toContain("PR");
    expect(list.find((c) => c.code === "NL")).toMatchObject({ name: "Netherlands", phoneCode: "+31", eu: true, regions: [] });
  });
});
