import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { itemTypes, type Caliber, type ItemType } from "@/lib/enums";
import { customsFormOf, needsCustomsDeclaration, netGramsOf, specialTerritoryOf, tariffOf } from "./customs";

const hs = (itemType: ItemType, text = "", caliber: Caliber = "UNKNOWN") => tariffOf({ itemType, caliber, text })?.hsCode;

describe("the tariff code of a piece", () => {
  it("puts wrist-watches under 9102 by winding, and under 9101 with a case of precious metal or clad with it", () => {
    expect(hs("AUTOMATIC", "Seiko 5 SNK809")).toBe("910221");
    expect(hs("HANDWINDER", "Zenith 2531")).toBe("910229");
    expect(hs("QUARTZ_ELECTRONIC_KINETIC", "Seiko Kinetic")).toBe("910211");
    expect(hs("WRISTWATCH", "Omega Seamaster", "AUTOMATIC")).toBe("910221");
    expect(hs("CHRONOGRAPH", "Valjoux 7733 chronograph", "CHRONOGRAPH")).toBe("910229");
    expect(hs("DIVERS_WATCH", "Citizen diver", "QUARTZ_ELECTRONIC_KINETIC")).toBe("910211");
    expect(hs("AUTOMATIC", "Omega Constellation 18k solid gold case")).toBe("910121");
    expect(hs("HANDWINDER", "Longines 14K rolled gold")).toBe("910129");
  });

  it("reads a plated case, or gold parts on a steel case, as base metal", () => {
    expect(hs("AUTOMATIC", "Seiko 5 gold-plated")).toBe("910221");
    expect(hs("AUTOMATIC", "Rolex Datejust steel case, 18k white gold bezel")).toBe("910221");
    expect(hs("CASE", "Case, 20 microns gold plated")).toBe("911120");
    expect(hs("CASE", "Solid gold case 750")).toBe("911110");
  });

  it("puts pocket watches and stopwatches under the same headings' other subheadings", () => {
    expect(hs("POCKET_WATCH", "Zenith pocket watch")).toBe("910299");
    expect(hs("POCKET_WATCH", "Longines hunter, 18k gold")).toBe("910199");
    expect(hs("STOPWATCH", "Heuer stopwatch")).toBe("910299");
    expect(hs("STOPWATCH", "Quartz stopwatch", "QUARTZ_ELECTRONIC_KINETIC")).toBe("910291");
  });

  it("puts complete movements under 9108 by winding and incomplete ones under 9110", () => {
    expect(hs("MOVEMENT", "ETA 2824-2", "AUTOMATIC")).toBe("910820");
    expect(hs("MOVEMENT", "Unitas 6497", "HANDWIND")).toBe("910890");
    expect(hs("MOVEMENT", "ETA 955.112", "QUARTZ_ELECTRONIC_KINETIC")).toBe("910811");
    expect(hs("MOVEMENT", "AS 1130 incomplete, for parts", "HANDWIND")).toBe("911012");
    expect(hs("MOVEMENT", "Felsa 4007N missing balance", "AUTOMATIC")).toBe("911012");
  });

  it("puts cases under 9111, straps and bracelets under 9113 and other parts under 9114", () => {
    expect(hs("CASE_BACK")).toBe("911190");
    expect(hs("BEZEL")).toBe("911190");
    expect(hs("BRACELET", "Steel bracelet 20 mm")).toBe("911320");
    expect(hs("BRACELET", "Solid gold bracelet 18k")).toBe("911310");
    expect(hs("SPRINGBAR")).toBe("911320");
    expect(hs("LEATHER_STRAP")).toBe("911390");
    expect(hs("OTHER_STRAP", "NATO strap")).toBe("911390");
    expect(hs("DIAL")).toBe("911430");
    expect(hs("MAIN_PLATE")).toBe("911440");
    expect(hs("BRIDGE")).toBe("911440");
    expect(hs("SPRING")).toBe("911410");
    for (const part of ["CROWN", "STEM", "HANDS_SET", "BALANCE_WHEEL", "ROTOR", "GEARS_AND_WHEELS", "MOVEMENT_PART", "SCREWS", "GASKET"] as const) expect(hs(part)).toBe("911490");
  });

  it("puts what chapter 91 excludes under its own heading: glasses, cells, tools, polish", () => {
    expect(hs("CRYSTAL")).toBe("701590");
    expect(hs("BATTERY")).toBe("850640");
    expect(hs("TWEEZERS")).toBe("820320");
    expect(hs("CASING_CLAMP")).toBe("820570");
    expect(hs("POLISHING_POWDER")).toBe("340590");
  });

  it("gives every classified item type a 6-digit code with a description, and an unclassified piece none", () => {
    for (const itemType of itemTypes.filter((type) => type !== "UNKNOWN")) {
      const tariff = tariffOf({ itemType, caliber: "UNKNOWN", text: "" });
      expect(tariff?.hsCode, itemType).toMatch(/^\d{6}$/);
      expect(tariff?.goods, itemType).toBeTruthy();
      expect(netGramsOf(itemType), itemType).toBeGreaterThan(0);
    }
    expect(tariffOf({ itemType: "UNKNOWN", caliber: "AUTOMATIC", text: "Seiko" })).toBeNull();
  });
});

describe("when a parcel needs a declaration, and which", () => {
  it("declares parcels outside the EU and to the EU's special territories, not to the rest of the EU", () => {
    expect(needsCustomsDeclaration({ countryCode: "US", postCode: "10001", eu: false })).toBe(true);
    expect(needsCustomsDeclaration({ countryCode: "CH", postCode: "8001", eu: false })).toBe(true);
    expect(needsCustomsDeclaration({ countryCode: "DE", postCode: "10117", eu: true })).toBe(false);
    expect(needsCustomsDeclaration({ countryCode: "ES", postCode: "28001", eu: true })).toBe(false);
    expect(needsCustomsDeclaration({ countryCode: "ES", postCode: "35001", eu: true })).toBe(true);
    expect(specialTerritoryOf({ countryCode: "es", postCode: "38 001" })).toBe("Canary Islands");
    expect(specialTerritoryOf({ countryCode: "FI", postCode: "22100" })).toBe("Åland");
    expect(specialTerritoryOf({ countryCode: "DE", postCode: "78266" })).toBe("Büsingen am Hochrhein");
    expect(specialTerritoryOf({ countryCode: "FR", postCode: "97400" })).toBe("French overseas territories");
    expect(specialTerritoryOf({ countryCode: "FR", postCode: "75001" })).toBeNull();
  });

  it("uses a CN22 up to €1,000 and a CN23 above", () => {
    expect(customsFormOf(new Decimal("1000.00"))).toBe("CN22");
    expect(customsFormOf(new Decimal("1000.01"))).toBe("CN23");
  });
});
