import { describe, expect, it } from "vitest";
import { deliveryMethods } from "@/lib/enums";
import { chooseShipment, estimateParcel, HEAVY_PARCEL_GRAMS, LETTERBOX_MAX_GRAMS, type ShipmentFacts } from "./shipment-rules";

const nl = { countryCode: "NL", eu: true };
const germany = { countryCode: "DE", eu: true };
const usa = { countryCode: "US", eu: false };
const facts = (overrides: Partial<ShipmentFacts>): ShipmentFacts => ({ ...nl, method: "TNT", weightGrams: 450, fitsLetterbox: false, ...overrides });
const choose = (overrides: Partial<ShipmentFacts>) => {
  const choice = chooseShipment(facts(overrides));
  return `${choice.carrier} ${choice.product}`;
};

describe("choosing the carrier and product", () => {
  it("sends a boxed watch in the Netherlands as a PostNL standard parcel, tracked or not", () => {
    expect(choose({ method: "TNT" })).toBe("POSTNL 3085");
    expect(choose({ method: "UNTRACKED" })).toBe("POSTNL 3085");
  });

  it("sends small light parts at home untracked through the letterbox, and tracked as a parcel", () => {
    expect(choose({ method: "UNTRACKED", fitsLetterbox: true, weightGrams: 140 })).toBe("POSTNL 2928");
    expect(choose({ method: "UNTRACKED", fitsLetterbox: true, weightGrams: LETTERBOX_MAX_GRAMS })).toBe("POSTNL 2928");
    expect(choose({ method: "UNTRACKED", fitsLetterbox: true, weightGrams: LETTERBOX_MAX_GRAMS + 1 })).toBe("POSTNL 3085");
    expect(choose({ method: "TNT", fitsLetterbox: true, weightGrams: 140 })).toBe("POSTNL 3085");
  });

  it("never uses the Dutch letterbox parcel abroad", () => {
    expect(choose({ ...germany, method: "UNTRACKED", fitsLetterbox: true, weightGrams: 140 })).toBe("POSTNL 4907");
    expect(choose({ ...usa, method: "UNTRACKED", fitsLetterbox: true, weightGrams: 140 })).toBe("POSTNL 4945");
  });

  it("sends EU parcels with PostNL's EU parcel, whichever method was paid for", () => {
    for (const method of deliveryMethods) expect(choose({ ...germany, method })).toBe("POSTNL 4907");
  });

  it("sends tracked parcels outside the EU with UPS, untracked ones with PostNL", () => {
    expect(choose({ ...usa, method: "TNT" })).toBe("UPS 65");
    expect(choose({ ...usa, method: "UNTRACKED" })).toBe("POSTNL 4945");
  });

  it("sends parcels heavier than PostNL takes with UPS: Standard within the EU, Saver beyond", () => {
    expect(choose({ weightGrams: HEAVY_PARCEL_GRAMS })).toBe("POSTNL 3085");
    expect(choose({ weightGrams: HEAVY_PARCEL_GRAMS + 1 })).toBe("UPS 11");
    expect(choose({ ...germany, method: "UNTRACKED", weightGrams: HEAVY_PARCEL_GRAMS + 1 })).toBe("UPS 11");
    expect(choose({ ...usa, method: "UNTRACKED", weightGrams: HEAVY_PARCEL_GRAMS + 1 })).toBe("UPS 65");
  });

  it("reads the country code in any case", () => {
    expect(choose({ countryCode: "nl", method: "UNTRACKED", fitsLetterbox: true, weightGrams: 100 })).toBe("POSTNL 2928");
  });

  // Every destination, method and parcel, with the carrier and product the table in shipment-rules.ts gives it:
  // a letterbox-sized packet of parts, a boxed watch and a parcel over PostNL's 20 kg.
  it("chooses the carrier and product for every destination, method and parcel", () => {
    const parcels = { letterbox: { weightGrams: 100, fitsLetterbox: true }, boxed: { weightGrams: 2_000, fitsLetterbox: false }, heavy: { weightGrams: 25_000, fitsLetterbox: false } };
    const expected = {
      NL: { UNTRACKED: { letterbox: "POSTNL 2928", boxed: "POSTNL 3085", heavy: "UPS 11" }, TNT: { letterbox: "POSTNL 3085", boxed: "POSTNL 3085", heavy: "UPS 11" } },
      DE: { UNTRACKED: { letterbox: "POSTNL 4907", boxed: "POSTNL 4907", heavy: "UPS 11" }, TNT: { letterbox: "POSTNL 4907", boxed: "POSTNL 4907", heavy: "UPS 11" } },
      US: { UNTRACKED: { letterbox: "POSTNL 4945", boxed: "POSTNL 4945", heavy: "UPS 65" }, TNT: { letterbox: "UPS 65", boxed: "UPS 65", heavy: "UPS 65" } },
    } as const;
    for (const destination of [nl, germany, usa]) {
      for (const method of deliveryMethods) {
        for (const [parcel, size] of Object.entries(parcels) as [keyof typeof parcels, (typeof parcels)[keyof typeof parcels]][]) {
          const chosen = choose({ ...destination, method, ...size });
          expect(chosen, `${parcel} ${method} to ${destination.countryCode}`).toBe(expected[destination.countryCode as keyof typeof expected][method][parcel]);
        }
      }
    }
  });
});

describe("estimating a parcel", () => {
  it("weighs the packed lines and the packaging", () => {
    expect(estimateParcel([{ itemType: "WRISTWATCH", quantity: 1 }])).toEqual({ weightGrams: 450, fitsLetterbox: false });
    expect(estimateParcel([{ itemType: "CROWN", quantity: 2 }, { itemType: "MOVEMENT", quantity: 1 }])).toEqual({ weightGrams: 200, fitsLetterbox: true });
  });

  it("does not put a watch, a tool case or an unknown item through a letterbox", () => {
    for (const itemType of ["POCKET_WATCH", "CASING_CLAMP", "UNKNOWN"] as const) {
      expect(estimateParcel([{ itemType: "CRYSTAL", quantity: 1 }, { itemType, quantity: 1 }]).fitsLetterbox).toBe(false);
    }
  });
});
