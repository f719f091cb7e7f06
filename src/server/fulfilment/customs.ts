import { Decimal } from "decimal.js";
import type { Caliber, ItemType } from "@/lib/enums";

/*
 * What a parcel leaving the EU tells customs about each piece (PROVIDERS §12): its tariff code (HS, 6 digits) from
 * the piece's item type, its country of origin, its value in euro and its net weight; and when a parcel needs a
 * declaration at all, and which form (CN22 or CN23). Pure rules: `customs-declaration.ts` reads an order into them,
 * the label's declaration pages print them and the carriers send them in their customs fields.
 */

/** What a customs declaration says the parcel is: always a sale to the buyer, never a gift or a sample. */
export const CUSTOMS_CATEGORY = "Sale of goods";

/** Up to this value a parcel travels with a CN22; above it with a CN23 (PROVIDERS §12). */
export const CN22_MAX_VALUE = new Decimal("1000.00");

/** The form a parcel of this total value (euro) travels with. */
export const customsFormOf = (total: Decimal): "CN22" | "CN23" => (total.lessThanOrEqualTo(CN22_MAX_VALUE) ? "CN22" : "CN23");

/**
 * EU territories where EU VAT and customs rules do not apply to goods, by postcode (Directive 2006/112 art. 6, the
 * Union Customs Code art. 4): a parcel from the Netherlands to one of them is an export and needs a declaration,
 * though the country is a member state. Only the countries the shop ships to are named; the French overseas
 * departments and collectivities are all under 97/98.
 */
const specialTerritories: Record<string, { name: string; postCode: RegExp }[]> = {
  ES: [
    { name: "Canary Islands", postCode: /^(35|38)\d{3}$/ },
    { name: "Ceuta", postCode: /^51\d{3}$/ },
    { name: "Melilla", postCode: /^52\d{3}$/ },
  ],
  FI: [{ name: "Åland", postCode: /^(AX-?)?22\d{3}$/ }],
  GR: [{ name: "Mount Athos", postCode: /^630\s?86$/ }],
  DE: [
    { name: "Heligoland", postCode: /^27498$/ },
    { name: "Büsingen am Hochrhein", postCode: /^78266$/ },
  ],
  IT: [
    { name: "Livigno", postCode: /^23041$/ },
    { name: "Campione d'Italia", postCode: /^22061$/ },
  ],
  FR: [{ name: "French overseas territories", postCode: /^9[78]\d{3}$/ }],
};

/** The special territory an address in a member state lies in, or null. */
export function specialTerritoryOf(address: { countryCode: string; postCode: string }): string | null {
  const postCode = address.postCode.replace(/\s+/g, "").toUpperCase();
  return specialTerritories[address.countryCode.toUpperCase()]?.find((territory) => territory.postCode.test(postCode))?.name ?? null;
}

/**
 * Whether a parcel to this address needs a customs declaration: outside the EU (the country table's `eu`), or in one
 * of the EU's special territories above.
 */
export function needsCustomsDeclaration(destination: { countryCode: string; postCode: string; eu: boolean }): boolean {
  return !destination.eu || specialTerritoryOf(destination) !== null;
}

/** A piece as customs classify it. `text` is its name and description, read for a precious-metal case or an incomplete movement. */
export type CustomsPiece = { itemType: ItemType; caliber: Caliber; text: string };

/** A tariff code and the goods' description that goes with it on the form ("Wrist-watch, automatic"). */
export type Tariff = { hsCode: string; goods: string };

/**
 * A case or bracelet of precious metal, or of metal clad with it (rolled gold, gold-filled), is 9101 / 9111.10 /
 * 9113.10; a plated or gold-coloured one is base metal (HS chapter 71 note 7: plating is not cladding).
 */
const preciousMetal = /\b(solid (gold|silver|platinum)|platinum|sterling|rolled gold|gold[- ]filled|(9|14|18|22) ?(k|kt|ct|carat)\b|(gold|silver) case)/i;
// Plated is not clad; a steel case with gold parts (a bicolour bezel, a gold crown) is a steel case.
const notPrecious = /\b(plated|plaque|gold[- ]tone|silver[- ]tone|gold[- ]colou?red|steel)\b/i;
const isPrecious = (text: string) => preciousMetal.test(text) && !notPrecious.test(text);

/** A movement missing parts is 9110 (incomplete), not 9108. */
const incomplete = /\b(incomplete|missing|partial|not complete|without (balance|mainspring|wheels?))\b/i;

type Winding = "automatic" | "manual" | "quartz";

/** How a watch or movement is driven: its item type says it for a watch sold by kind, its caliber otherwise. */
function windingOf(piece: CustomsPiece): Winding {
  if (piece.itemType === "AUTOMATIC" || piece.caliber === "AUTOMATIC") return "automatic";
  if (piece.itemType === "QUARTZ_ELECTRONIC_KINETIC" || piece.caliber === "QUARTZ_ELECTRONIC_KINETIC") return "quartz";
  // Hand-wound, chronographs (mechanical unless said otherwise) and what nobody classified: the "other" subheading.
  return "manual";
}

const wristWatchTypes: readonly ItemType[] = ["WRISTWATCH", "AUTOMATIC", "HANDWINDER", "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH", "DIVERS_WATCH"];
const caseParts: readonly ItemType[] = ["CASE_BACK", "BEZEL", "BEZEL_INSERT", "PROTECTOR", "PUSHER", "TUBE"];
const metalStrapParts: readonly ItemType[] = ["BRACELET", "BRACELET_LINKS", "BUCKLE_CLASP_CLIP", "SPRINGBAR"];

/**
 * The tariff of a piece. Watches and their parts are chapter 91 (PROVIDERS §12): wrist and pocket watches 9101 with a
 * precious-metal case, 9102 otherwise, by winding (automatic .21, other mechanical .29, quartz with hands .11;
 * pocket watches and stopwatches .99 / .91); movements 9108 complete (.20 automatic, .90 hand-wound, .11 quartz) and
 * 9110.12 incomplete; cases 9111 (.10 precious, .20 base metal, .90 case parts); straps and bracelets 9113 (.10
 * precious, .20 base metal, .90 leather and other); dials 9114.30, plates and bridges 9114.40, springs 9114.10, other
 * parts 9114.90. What chapter 91 excludes goes where the tariff puts it: watch glasses 7015.90, silver-oxide button
 * cells 8506.40, tweezers 8203.20, case clamps (a vice) 8205.70, polishing powder 3405.90, protective stickers 3919.90.
 * An unclassified piece has no tariff: null, and the label waits until staff classify it.
 */
export function tariffOf(piece: CustomsPiece): Tariff | null {
  const precious = isPrecious(piece.text);
  const watchHeading = precious ? "9101" : "9102";
  const winding = windingOf(piece);
  if (wristWatchTypes.includes(piece.itemType)) {
    const sub = { automatic: "21", manual: "29", quartz: "11" }[winding];
    return { hsCode: `${watchHeading}${sub}`, goods: `Wrist-watch, ${winding === "manual" ? "mechanical" : winding}${precious ? ", precious-metal case" : ""}` };
  }
  switch (piece.itemType) {
    case "POCKET_WATCH":
    case "STOPWATCH": {
      const goods = piece.itemType === "POCKET_WATCH" ? "Pocket watch" : "Stopwatch";
      return { hsCode: `${watchHeading}${winding === "quartz" ? "91" : "99"}`, goods: `${goods}${precious ? ", precious-metal case" : ""}` };
    }
    case "MOVEMENT":
      if (incomplete.test(piece.text)) return { hsCode: "911012", goods: "Watch movement, incomplete" };
      return { hsCode: { automatic: "910820", manual: "910890", quartz: "910811" }[winding], goods: `Watch movement, complete, ${winding === "manual" ? "hand-wound" : winding}` };
    case "CASE":
      return { hsCode: precious ? "911110" : "911120", goods: precious ? "Watch case, precious metal" : "Watch case, base metal" };
    case "LEATHER_STRAP":
    case "OTHER_STRAP":
      return { hsCode: "911390", goods: "Watch strap" };
    case "DIAL":
      return { hsCode: "911430", goods: "Watch dial" };
    case "MAIN_PLATE":
    case "BRIDGE":
      return { hsCode: "911440", goods: "Watch movement plate or bridge" };
    case "SPRING":
      return { hsCode: "911410", goods: "Watch spring" };
    case "CRYSTAL":
    case "CRYSTAL_REPAIR_SET":
      return { hsCode: "701590", goods: "Watch glass" };
    case "BATTERY":
      return { hsCode: "850640", goods: "Watch battery, silver oxide" };
    case "TWEEZERS":
      return { hsCode: "820320", goods: "Watchmaker's tweezers" };
    case "CASING_CLAMP":
      return { hsCode: "820570", goods: "Watchmaker's case clamp" };
    case "POLISHING_POWDER":
      return { hsCode: "340590", goods: "Polishing powder" };
    case "STICKERS":
      return { hsCode: "391990", goods: "Protective film for watches" };
    case "UNKNOWN":
      return null;
    default:
      if (caseParts.includes(piece.itemType)) return { hsCode: "911190", goods: "Watch case part" };
      if (metalStrapParts.includes(piece.itemType)) return { hsCode: precious ? "911310" : "911320", goods: precious ? "Watch bracelet, precious metal" : "Watch bracelet or part, base metal" };
      return { hsCode: "911490", goods: "Watch part" };
  }
}

/**
 * A piece's net weight in grams, without its box: the catalogue keeps no weights, so customs are given these, which
 * stay under the parcel's estimate (`estimateParcel`, packaging included).
 */
export function netGramsOf(itemType: ItemType): number {
  if (wristWatchTypes.includes(itemType)) return 100;
  switch (itemType) {
    case "POCKET_WATCH":
      return 90;
    case "STOPWATCH":
      return 80;
    case "MOVEMENT":
      return 25;
    case "CASE":
      return 40;
    case "BRACELET":
      return 60;
    case "LEATHER_STRAP":
    case "OTHER_STRAP":
      return 20;
    case "CASING_CLAMP":
      return 120;
    case "POLISHING_POWDER":
      return 50;
    case "TWEEZERS":
      return 20;
    default:
      return 3;
  }
}
