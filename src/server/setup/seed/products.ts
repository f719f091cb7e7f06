import { Decimal } from "decimal.js";
import { itemTypes, type Caliber, type Gender, type ItemType, type ProductState } from "@/lib/enums";
import type { AdminProduct, ProductClassification } from "@/server/catalog/admin-schemas";
import type { DescriptionField } from "@/server/catalog/schemas";
import { NOT_APPLICABLE } from "@/server/catalog/search-text";
import {
  brands,
  movementMakers,
  originCountries,
  type Brand,
  type CaliberSpec,
  type CategoryKey,
  type SupplyMaker,
} from "./catalogue-data";
import { DAY } from "./durations";
import { randomFor, type Random } from "./random";

/**
 * Generates the demo products: names, prices, stock and the watchmaker's description, as a collector's shop would
 * list them. Pure: product `index` always comes out the same for the same seed, whatever the catalogue size.
 */

export type DrawingKind =
  | "watch" | "diver" | "dial-hands" | "pocket" | "stopwatch" | "movement" | "gear" | "crystal" | "gasket" | "strap" | "bracelet" | "crown"
  | "hands" | "dial" | "bezel" | "caseback" | "case" | "date-disc" | "battery" | "tweezers" | "screwdriver" | "jar"
  | "stickers" | "lot";

/** What the product's seeded picture shows; see `images.ts`. */
export type Picture = {
  kind: DrawingKind;
  /** A short word drawn on the item itself: the brand on a dial, the caliber on a movement, the size of a crystal. */
  mark: string;
  /** The small line above the product name. */
  caption: string;
  dialTone: "light" | "dark";
  caliber: Caliber;
  /** Varies hand positions, numerals and the like between products of one kind. */
  variant: number;
};

/** Every description field, written out (a generated product says "Not applicable" rather than nothing). */
export type DescriptionText = Record<DescriptionField, string>;

export type ProductDescriptionDraft = DescriptionText & ProductClassification;

/** A generated product: the fields staff would fill in, with its category, maker and country named. */
export type ProductDraft = Pick<AdminProduct, "name" | "price" | "shippingFee" | "stock" | "wsStatus" | "ebayStatus" | "isBulk"> & {
  index: number;
  categoryKey: CategoryKey;
  manufacturer: string;
  countryCode: string;
  createdAt: Date;
  description: ProductDescriptionDraft;
  picture: Picture;
  /** A number in [0, 1) the seeder turns into a product discount for a few products. */
  discountRoll: number;
  /** What a piece cost the shop, as a share of the asking price. */
  costShare: number;
};

// ---------------------------------------------------------------------------------------------------------------
// Phrase lists. They double as the product form's select options (`selectOptionLists`).

const conditionsByState: Record<ProductState, string[]> = {
  NEW: ["New old stock (NOS), never fitted", "New, in original packaging", "New old stock, sealed in the maker's bag", "New, unused workshop stock"],
  USED: [
    "Used, in good working order",
    "Used, light wear consistent with age",
    "Pre-owned, serviced by our watchmaker",
    "Used, for parts or repair — not running",
    "Used, removed from a running watch",
  ],
  UNKNOWN: ["Untested, sold as found", "Condition unknown, sold as seen"],
};

const dialColours = ["silver", "black", "champagne", "blue", "white", "grey", "cream", "tropical brown", "silver pie-pan"] as const;
const darkDialColours = new Set<string>(["black", "blue", "grey", "tropical brown"]);
const handStyles = ["baton hands", "dauphine hands", "Mercedes hands", "leaf hands", "pencil hands", "sword hands"];
const indexStyles = ["applied indices", "Arabic numerals", "Roman numerals", "printed indices"];
const watchCrystals = ["Original acrylic crystal", "Hesalite crystal, light scratches", "Mineral glass", "Sapphire crystal", "New acrylic crystal fitted"];
const watchBezels = ["Polished steel bezel", "Gold-plated bezel, some wear", "Smooth steel bezel", "Tachymeter bezel", "Engine-turned bezel"];
const diverBezels = ["Unidirectional 60-minute bezel", "Bidirectional 60-minute bezel, insert faded", "Internal rotating bezel"];
const dayWheelLanguages = [
  "English / Spanish day wheel",
  "English / German day wheel",
  "English / French day wheel",
  "English / Kanji day wheel",
  "Date only, no day wheel",
  "No day or date",
];
const shippingNotes = [
  "Photos show the actual item.",
  "Stock photo; the item you receive looks the same.",
  "Tested and running at the time of listing.",
  "Checked on the timegrapher: good amplitude and beat error.",
];
const provenanceNotes = [
  "Ships insured and tracked from the Netherlands.",
  "Comes in a protective pouch.",
  "Bought from a retired watchmaker's estate.",
  "From our own parts drawer, collected since 2004.",
];
const buyerNotes = [
  "Please check the fit against your calibre before ordering.",
  "Combined shipping on request.",
  "Questions? Write to us before you buy.",
  "No original box or papers.",
];
const strapStyles = ["brown calf leather", "black calf leather", "tan suede", "dark brown alligator-grain", "navy grey NATO", "black rubber diver"];

/** The choices of the product form's select fields, keyed by the field (`productSelectOptions.selectRow`). */
export const selectOptionLists: Record<string, string[]> = {
  condition: [...conditionsByState.NEW, ...conditionsByState.USED, ...conditionsByState.UNKNOWN],
  movement: ["Automatic", "Handwound", "Quartz", "Automatic chronograph", "Handwound chronograph", NOT_APPLICABLE],
  dimensions: ["34 mm without crown", "36 mm without crown", "38 mm without crown", "40 mm without crown", "Lug width 18 mm", "Lug width 20 mm"],
  dialHands: [...dialColours.map((colour) => `${capitalise(colour)} dial`), ...handStyles.map(capitalise)],
  crystal: [...watchCrystals, "Domed acrylic", "Flat mineral glass", NOT_APPLICABLE],
  bezel: [...watchBezels, ...diverBezels, NOT_APPLICABLE],
  crown: ["Signed original crown", "Generic replacement crown", "Screw-down crown, signed", "Original crown, worn", NOT_APPLICABLE],
  language: [...dayWheelLanguages, NOT_APPLICABLE],
  braceletStrap: [
    "Original steel bracelet",
    "Leather strap (new, not original)",
    "NATO strap",
    "Rubber strap",
    "Without strap",
    NOT_APPLICABLE,
  ],
  additional: shippingNotes,
  additional2: provenanceNotes,
  additional3: buyerNotes,
};

// ---------------------------------------------------------------------------------------------------------------
// How each item type is listed.

type Context = {
  rng: Random;
  brand: Brand;
  brandCaliber: CaliberSpec;
  maker: Brand;
  makerCaliber: CaliberSpec;
  gender: Gender;
  state: ProductState;
};

type Built = {
  name: string;
  manufacturer: string;
  category: CategoryKey;
  caliber: Caliber;
  picture: DrawingKind;
  mark: string;
  dialTone?: "light" | "dark";
  /** The description fields that say something for this item; the rest read "Not applicable". */
  text: Partial<DescriptionText>;
  /** Price factor on top of the item type's range (brand tier, lot size). */
  tier?: number;
};

type Group = "watch" | "movement" | "part" | "supply";

type ItemTypeMix = {
  group: Group;
  /** How often the type appears beyond the first product of each type. */
  weight: number;
  /** Price range in euros before the tier factor. */
  price: readonly [number, number];
};

const kindWords: Record<CaliberSpec["kind"], string> = {
  AUTOMATIC: "automatic",
  HANDWIND: "handwound",
  CHRONOGRAPH: "chronograph",
  QUARTZ_ELECTRONIC_KINETIC: "quartz",
};

const watchCategoryOf: Record<CaliberSpec["kind"], CategoryKey> = {
  AUTOMATIC: "automatic-watches",
  HANDWIND: "handwound-watches",
  CHRONOGRAPH: "chronographs",
  QUARTZ_ELECTRONIC_KINETIC: "quartz-watches",
};

const movementCategoryOf: Record<CaliberSpec["kind"], CategoryKey> = {
  AUTOMATIC: "automatic-movements",
  HANDWIND: "handwound-movements",
  CHRONOGRAPH: "chronograph-movements",
  QUARTZ_ELECTRONIC_KINETIC: "quartz-movements",
};

const makerNames = new Set(movementMakers.map((maker) => maker.name));

/** How collectors name a caliber: "Seiko 6139", "Omega 565", but "ETA 2783" in a Doxa rather than "Doxa ETA 2783". */
export function caliberLabel(brand: Brand, caliber: CaliberSpec): string {
  const firstWord = caliber.code.split(" ")[0] ?? "";
  return makerNames.has(firstWord) ? caliber.code : `${brand.name} ${caliber.code}`;
}

function pickCaliberOfKind(c: Context, kind: CaliberSpec["kind"] | undefined): { brand: Brand; caliber: CaliberSpec } {
  if (!kind) return { brand: c.brand, caliber: c.brandCaliber };
  const own = c.brand.calibers.filter((caliber) => caliber.kind === kind);
  if (own.length > 0) return { brand: c.brand, caliber: c.rng.pick(own) };
  const others = brands.filter((brand) => brand.calibers.some((caliber) => caliber.kind === kind));
  const brand = c.rng.pick(others);
  return { brand, caliber: c.rng.pick(brand.calibers.filter((caliber) => caliber.kind === kind)) };
}

/** Either a brand's own caliber or a movement maker's: what a part is made for. */
function pickFit(c: Context): { manufacturer: string; label: string; caliber: CaliberSpec; tier: number } {
  return c.rng.chance(0.55)
    ? { manufacturer: c.brand.name, label: caliberLabel(c.brand, c.brandCaliber), caliber: c.brandCaliber, tier: c.brand.tier }
    : { manufacturer: c.maker.name, label: `${c.maker.name} ${c.makerCaliber.code}`, caliber: c.makerCaliber, tier: c.maker.tier };
}

function caseSize(c: Context): number {
  if (c.gender === "LADIES") return c.rng.int(21, 29);
  if (c.gender === "UNISEX") return c.rng.int(32, 37);
  return c.rng.int(34, 42);
}

function lugWidth(c: Context, size: number): number {
  if (c.gender === "LADIES") return c.rng.pick([10, 12, 14]);
  return size >= 39 ? c.rng.pick([20, 22]) : c.rng.pick([18, 19, 20]);
}

function referenceFor(c: Context, brand: Brand, caliber: CaliberSpec): string {
  const digits = (count: number) => Array.from({ length: count }, () => c.rng.int(0, 9)).join("");
  switch (brand.name) {
    case "Seiko":
    case "Citizen":
    case "Orient":
      return `${caliber.code.replace(/\D/g, "").padEnd(4, "0").slice(0, 4)}-${digits(4)}`;
    case "Omega":
      return `${c.rng.int(135, 199)}.${digits(3)}`;
    case "Heuer":
      return `${c.rng.pick(["2447", "3647", "1163", "7743", "73663"])}${c.rng.pick(["", " N", " S", " T"])}`;
    default:
      return digits(c.rng.int(4, 5));
  }
}

function mm(value: number, decimals = 1): string {
  return `${value.toFixed(decimals)} mm`;
}

function buildWatch(c: Context, kind?: CaliberSpec["kind"], diver = false): Built {
  const { brand, caliber } = pickCaliberOfKind(c, kind);
  const model = c.rng.pick(brand.models);
  const size = caseSize(c);
  const lug = lugWidth(c, size);
  const colour = c.rng.pick(dialColours);
  const year = c.rng.int(1952, 1998);
  const decade = `${Math.floor(year / 10) * 10}s`;
  const kindWord = kindWords[caliber.kind];
  const ladies = c.gender === "LADIES" ? "ladies' " : "";
  const name = c.rng.pick([
    `${brand.name} ${model} ref. ${referenceFor(c, brand, caliber)} ${ladies}${kindWord}`,
    `${brand.name} ${model} ${ladies}${kindWord} ${size} mm, ${decade}`,
    `${brand.name} ${model} ${colour} dial ${ladies}${kindWord}`,
    `${brand.name} ${model} ${caliber.code.startsWith("ETA") ? caliber.code : `cal. ${caliber.code}`} ${kindWord}`,
  ]);
  const dayDate = c.rng.pick(dayWheelLanguages);
  return {
    name: diver && !name.includes("diver") ? `${name} diver` : name,
    manufacturer: brand.name,
    category: diver ? "divers-watches" : watchCategoryOf[caliber.kind],
    caliber: caliber.kind,
    picture: diver ? "diver" : "watch",
    mark: brand.name,
    dialTone: darkDialColours.has(colour) || diver ? "dark" : "light",
    tier: brand.tier,
    text: {
      movement: `${caliberLabel(brand, caliber)} ${kindWord}, ${caliber.jewels} jewels`,
      dimensions: `${size} mm without crown, ${lug} mm lug width`,
      serialNumber: `Case serial ${c.rng.int(1_000_000, 39_999_999)}`,
      dialHands: `${capitalise(colour)} dial with ${c.rng.pick(indexStyles)}, ${c.rng.pick(handStyles)}`,
      crystal: c.rng.pick(watchCrystals),
      bezel: diver ? c.rng.pick(diverBezels) : c.rng.pick(watchBezels),
      crown: c.rng.pick([`Signed ${brand.name} crown`, "Generic replacement crown", `Screw-down crown, signed ${brand.name}`, "Original crown, worn"]),
      language: dayDate,
      braceletStrap: c.rng.pick([
        `Original ${brand.name} steel bracelet, ${lug} mm`,
        `Brown leather strap ${lug} mm (new, not original)`,
        `Black leather strap ${lug} mm`,
        `NATO strap ${lug} mm`,
        diver ? `Rubber diver strap ${lug} mm` : "Without strap",
      ]),
    },
  };
}

function buildPocketWatch(c: Context, stopwatch: boolean): Built {
  const brand = c.rng.pick(brands.filter((b) => ["Omega", "Longines", "Zenith", "Tissot", "Junghans", "Doxa", "Heuer", "Eterna", "Hamilton", "Enicar"].includes(b.name)));
  const size = c.rng.int(43, 56);
  const year = c.rng.int(1895, 1965);
  if (stopwatch) {
    const maker = c.rng.pick(["Heuer", "Junghans", "Hamilton", "Enicar"]);
    const name = c.rng.pick([
      `${maker} mechanical stopwatch 1/${c.rng.pick([5, 10])} s, ${size} mm`,
      `${maker} Trackmaster stopwatch with 30-minute counter`,
      `${maker} split-seconds stopwatch, ${Math.floor(year / 10) * 10}s`,
    ]);
    return {
      name,
      manufacturer: maker,
      category: "stopwatches",
      caliber: "HANDWIND",
      picture: "stopwatch",
      mark: maker,
      tier: 1,
      text: {
        movement: `Handwound stopwatch movement, ${c.rng.pick([7, 11, 15])} jewels`,
        dimensions: `${size} mm case diameter`,
        serialNumber: `Case serial ${c.rng.int(100_000, 999_999)}`,
        dialHands: `White enamel dial, ${c.rng.pick(["tachymeter scale", "1/5 second track", "1/10 second track"])}`,
        crystal: "Domed acrylic",
        crown: "Start/stop crown with reset pusher",
      },
    };
  }
  const caliber = c.rng.pick(brand.calibers);
  const metal = c.rng.pick(["silver 0.800", "silver 0.935", "gold-filled", "nickel", "14 ct gold", "gunmetal"]);
  return {
    name: c.rng.pick([
      `${brand.name} ${c.rng.pick(["open-face", "hunter", "half-hunter"])} pocket watch, ${metal}, ${year}`,
      `${brand.name} pocket watch ${size} mm, ${metal}`,
      `${brand.name} railroad-grade pocket watch, ${c.rng.pick([15, 17, 21])} jewels`,
    ]),
    manufacturer: brand.name,
    category: "pocket-watches-open-face",
    caliber: "HANDWIND",
    picture: "pocket",
    mark: brand.name,
    dialTone: "light",
    tier: brand.tier,
    text: {
      movement: `${brand.name} handwound pocket movement, ${c.rng.pick([15, 17, 21])} jewels${caliber.kind === "HANDWIND" ? ` (cal. ${caliber.code} family)` : ""}`,
      dimensions: `${size} mm case diameter, ${c.rng.int(11, 16)} mm high`,
      serialNumber: `Movement serial ${c.rng.int(100_000, 9_999_999)}`,
      dialHands: `${c.rng.pick(["White enamel", "Silvered", "Gilt"])} dial, ${c.rng.pick(["Roman numerals", "Arabic numerals"])}, ${c.rng.pick(["Breguet hands", "spade hands", "Louis XV hands"])}`,
      crystal: c.rng.pick(["Domed acrylic", "Original glass, small chip", "Hunter case, no crystal"]),
      bezel: `${capitalise(metal)} bezel`,
      crown: "Original pendant crown and bow",
    },
  };
}

function buildMovement(c: Context): Built {
  const useMaker = c.rng.chance(0.6);
  const source = useMaker ? c.maker : c.brand;
  const caliber = useMaker ? c.makerCaliber : c.brandCaliber;
  const label = useMaker ? `${c.maker.name} ${caliber.code}` : caliberLabel(c.brand, caliber);
  const kindWord = kindWords[caliber.kind];
  const condition = c.state === "NEW" ? "NOS" : c.state === "USED" ? c.rng.pick(["running, serviced", "running", "for parts"]) : "untested";
  return {
    name: c.rng.pick([
      `${label} ${kindWord} movement, ${condition}`,
      c.state === "NEW" ? `${label} movement, new old stock` : `${label} movement for parts`,
      `${label} ${kindWord} movement with dial and hands`,
    ]),
    manufacturer: source.name,
    category: movementCategoryOf[caliber.kind],
    caliber: caliber.kind,
    picture: "movement",
    mark: label,
    tier: source.tier,
    text: {
      movement: `${label}, ${kindWord}, ${caliber.jewels} jewels`,
      dimensions: `Ø ${mm(caliber.diameter)}, height ${mm(c.rng.int(32, 79) / 10)}`,
      serialNumber: `Movement serial ${c.rng.int(100_000, 9_999_999)}`,
      dialHands: c.rng.pick(["Without dial and hands", "With original dial and hands", NOT_APPLICABLE]),
      crown: c.rng.pick(["With stem and crown", "With stem, no crown", "Without stem"]),
    },
  };
}

/** A part sold under the watch brand it fits, not tied to a calibre and with no maker's mark in its picture. */
function brandPart(c: Context, part: Pick<Built, "name" | "category" | "picture" | "text">): Built {
  return { ...part, manufacturer: c.brand.name, caliber: "UNKNOWN", mark: "", tier: c.brand.tier };
}

/** A spare part for a movement: "Balance complete for Seiko 6119"; with several labels, one is chosen per product. */
function movementPart(labels: string | readonly string[], picture: DrawingKind, options: { category?: CategoryKey; nos?: boolean } = {}) {
  return (c: Context): Built => {
    const label = typeof labels === "string" ? labels : c.rng.pick(labels);
    const fit = pickFit(c);
    const suffix = c.state === "NEW" && options.nos !== false ? c.rng.pick([", NOS", " (new old stock)", ""]) : c.state === "USED" ? ", used" : "";
    return {
      name: `${label} for ${fit.label}${suffix}`,
      manufacturer: fit.manufacturer,
      category: options.category ?? "movement-parts",
      caliber: fit.caliber.kind,
      picture,
      mark: fit.label,
      tier: Math.sqrt(fit.tier),
      text: {
        movement: `Fits ${fit.label} (${kindWords[fit.caliber.kind]})`,
        dimensions: `For movements of Ø ${mm(fit.caliber.diameter)}`,
      },
    };
  };
}

function supply(maker: SupplyMaker | "any", build: (c: Context, maker: string) => Omit<Built, "manufacturer">) {
  return (c: Context): Built => {
    const chosen = maker === "any" ? c.rng.pick(["Bergeon", "Horotec", "Dumont"]) : maker;
    return { manufacturer: chosen, ...build(c, chosen) };
  };
}

/** A strap the shop buys from Hirsch, its width marked in its picture. */
function hirschStrap(width: number, strap: Pick<Built, "name" | "text">): Built {
  return { ...strap, manufacturer: "Hirsch", category: "straps-bracelets", caliber: "UNKNOWN", picture: "strap", mark: `${width} mm` };
}

/** A part from the crown drawer that fits no particular calibre and carries no mark in its picture (a set, a tube). */
function unmarkedCrownPart(part: Pick<Built, "name" | "manufacturer" | "text" | "tier">): Built {
  return { ...part, category: "crowns", caliber: "UNKNOWN", picture: "crown", mark: "" };
}

function crystalSize(c: Context): number {
  return c.rng.int(150, 400) / 10;
}

/** How each item type sits in the catalogue: its group, how often it appears, and its price range before the tier. */
const itemTypeMix: Record<ItemType, ItemTypeMix> = {
  WRISTWATCH: { group: "watch", weight: 14, price: [120, 1400] },
  AUTOMATIC: { group: "watch", weight: 6, price: [140, 1500] },
  HANDWINDER: { group: "watch", weight: 4, price: [120, 1500] },
  QUARTZ_ELECTRONIC_KINETIC: { group: "watch", weight: 3, price: [80, 900] },
  CHRONOGRAPH: { group: "watch", weight: 4, price: [300, 2600] },
  DIVERS_WATCH: { group: "watch", weight: 4, price: [220, 1900] },
  POCKET_WATCH: { group: "watch", weight: 4, price: [150, 1200] },
  STOPWATCH: { group: "watch", weight: 1.5, price: [60, 450] },
  MOVEMENT: { group: "movement", weight: 18, price: [45, 650] },
  CRYSTAL: { group: "part", weight: 10, price: [8, 45] },
  CRYSTAL_REPAIR_SET: { group: "part", weight: 1.5, price: [25, 120] },
  CROWN: { group: "part", weight: 9, price: [12, 85] },
  CROWN_SET: { group: "part", weight: 1.5, price: [18, 90] },
  STEM: { group: "part", weight: 3, price: [6, 30] },
  TUBE: { group: "part", weight: 1.5, price: [6, 28] },
  DIAL: { group: "part", weight: 7, price: [35, 450] },
  DIAL_HANDS_SET: { group: "part", weight: 2, price: [45, 380] },
  DIAL_CLAMP: { group: "part", weight: 1, price: [4, 18] },
  MINUTE_TRACK: { group: "part", weight: 1, price: [15, 90] },
  HANDS_SET: { group: "part", weight: 5, price: [12, 120] },
  HANDS: { group: "part", weight: 2, price: [12, 90] },
  HOUR_HAND: { group: "part", weight: 1.5, price: [4, 30] },
  MINUTE_HAND: { group: "part", weight: 1.5, price: [4, 30] },
  SECOND_HAND: { group: "part", weight: 1.5, price: [4, 30] },
  LEATHER_STRAP: { group: "part", weight: 4, price: [18, 95] },
  OTHER_STRAP: { group: "part", weight: 2, price: [12, 60] },
  BRACELET: { group: "part", weight: 3, price: [40, 450] },
  BRACELET_LINKS: { group: "part", weight: 1.5, price: [15, 90] },
  BUCKLE_CLASP_CLIP: { group: "part", weight: 2, price: [12, 140] },
  SPRINGBAR: { group: "part", weight: 1.5, price: [3, 20] },
  BEZEL: { group: "part", weight: 3, price: [25, 180] },
  BEZEL_INSERT: { group: "part", weight: 2, price: [15, 120] },
  CASE: { group: "part", weight: 2, price: [40, 400] },
  CASE_BACK: { group: "part", weight: 2, price: [20, 180] },
  CASING_CLAMP: { group: "part", weight: 1, price: [4, 20] },
  PUSHER: { group: "part", weight: 1, price: [12, 75] },
  GASKET: { group: "part", weight: 2, price: [3, 18] },
  BATTERY: { group: "part", weight: 2, price: [3, 15] },
  BALANCE_WHEEL: { group: "part", weight: 3, price: [15, 95] },
  BARREL: { group: "part", weight: 1.5, price: [10, 60] },
  BRIDGE: { group: "part", weight: 2, price: [8, 55] },
  MAIN_PLATE: { group: "part", weight: 1, price: [15, 80] },
  GEARS_AND_WHEELS: { group: "part", weight: 3, price: [5, 40] },
  PALLET_FORK_ESCAPE_WHEEL: { group: "part", weight: 1.5, price: [12, 70] },
  ROTOR: { group: "part", weight: 1.5, price: [15, 120] },
  SCREWS: { group: "part", weight: 1.5, price: [4, 25] },
  SPRING: { group: "part", weight: 2, price: [6, 35] },
  MOVEMENT_PART: { group: "part", weight: 3, price: [5, 60] },
  PROTECTOR: { group: "part", weight: 1, price: [5, 30] },
  DAY_DATE_COMPONENT: { group: "part", weight: 2, price: [8, 60] },
  DISC: { group: "part", weight: 1.5, price: [10, 70] },
  VARIOUS_PARTS: { group: "part", weight: 2, price: [20, 150] },
  UNKNOWN: { group: "part", weight: 1, price: [15, 90] },
  TWEEZERS: { group: "supply", weight: 1.5, price: [12, 85] },
  POLISHING_POWDER: { group: "supply", weight: 1, price: [8, 45] },
  STICKERS: { group: "supply", weight: 1, price: [5, 25] },
};

/** How a product of each item type is named and described. */
const describeItem: Record<ItemType, (c: Context) => Built> = {
  WRISTWATCH: (c) => buildWatch(c),
  AUTOMATIC: (c) => buildWatch(c, "AUTOMATIC"),
  HANDWINDER: (c) => buildWatch(c, "HANDWIND"),
  QUARTZ_ELECTRONIC_KINETIC: (c) => buildWatch(c, "QUARTZ_ELECTRONIC_KINETIC"),
  CHRONOGRAPH: (c) => buildWatch(c, "CHRONOGRAPH"),
  DIVERS_WATCH: (c) => buildWatch(c, c.rng.pick(["AUTOMATIC", "AUTOMATIC", "CHRONOGRAPH"]), true),
  POCKET_WATCH: (c) => buildPocketWatch(c, false),
  STOPWATCH: (c) => buildPocketWatch(c, true),
  MOVEMENT: buildMovement,

  CRYSTAL: (c) => {
    const size = crystalSize(c);
    const material = c.rng.weighted([["Sapphire", 3], ["Acrylic", 4], ["Mineral", 3], ["Hesalite", 1]] as const);
    const shape = c.rng.pick(["flat", "domed", "high-dome", "with cyclops", "top hat"]);
    const branded = c.rng.chance(0.3);
    const name = branded
      ? `${c.brand.name} ${c.rng.pick(c.brand.models)} ${material.toLowerCase()} crystal ${mm(size)}`
      : c.rng.pick([`${material} crystal ${mm(size)}`, `${material} crystal ${mm(size)}, ${shape}`, `${material} crystal ${mm(size)} ${shape}, ${c.rng.pick(["Sternkreuz", "GS"])}`]);
    return {
      name,
      manufacturer: branded ? c.brand.name : c.rng.pick(["Sternkreuz", "GS"]),
      category: "crystals",
      caliber: "UNKNOWN",
      picture: "crystal",
      mark: mm(size),
      tier: material === "Sapphire" ? 1.8 : branded ? c.brand.tier : 1,
      text: {
        dimensions: `${mm(size)} diameter, ${mm(c.rng.int(8, 40) / 10)} high`,
        crystal: `${material}, ${shape}`,
      },
    };
  },
  CRYSTAL_REPAIR_SET: (c) => {
    const count = c.rng.pick([30, 50, 60, 100, 120]);
    const material = c.rng.pick(["acrylic", "mineral", "sapphire"]);
    return {
      name: `${c.rng.pick(["Sternkreuz", "GS"])} ${material} crystal assortment, ${count} pieces 15–${c.rng.int(32, 40)} mm`,
      manufacturer: c.rng.pick(["Sternkreuz", "GS"]),
      category: "crystals",
      caliber: "UNKNOWN",
      picture: "crystal",
      mark: `${count} pcs`,
      text: { dimensions: `${count} crystals in sizes from 15 mm upward`, crystal: `${capitalise(material)}, assorted` },
    };
  },
  CROWN: (c) => {
    const size = c.rng.int(35, 70) / 10;
    const signed = c.rng.chance(0.6);
    const model = c.rng.pick(c.brand.models);
    const nos = c.state === "NEW" ? " NOS" : "";
    return {
      name: signed
        ? `${c.brand.name} ${model} crown ${mm(size)}${nos}`
        : `${c.rng.pick(["Waterproof", "Screw-down", "Onion", "Fluted"])} crown ${mm(size)}, ${c.rng.pick(["steel", "gold-plated", "yellow gold colour"])}`,
      manufacturer: signed ? c.brand.name : "GS",
      category: "crowns",
      caliber: "UNKNOWN",
      picture: "crown",
      mark: signed ? (c.brand.name[0] ?? "") : "",
      tier: signed ? c.brand.tier : 0.8,
      text: {
        dimensions: `${mm(size)} diameter, tap ${c.rng.pick(["0.80", "0.90", "1.00"])} mm`,
        crown: signed ? `Signed ${c.brand.name}, steel` : "Unsigned, steel",
      },
    };
  },
  CROWN_SET: (c) => {
    const count = c.rng.pick([10, 20, 25, 50]);
    return unmarkedCrownPart({
      name: `Assortment of ${count} ${c.rng.pick(["waterproof", "gold-plated", "steel", "screw-down"])} crowns 4.0–6.5 mm`,
      manufacturer: "GS",
      text: { dimensions: "Crowns from 4.0 to 6.5 mm, taps 0.80–1.00 mm", crown: "Unsigned, assorted" },
    });
  },
  STEM: movementPart("Winding stem", "crown", { category: "crowns" }),
  TUBE: (c) => {
    const size = c.rng.pick(["2.0", "2.5", "3.0", "3.5"]);
    return unmarkedCrownPart({
      name: `Crown tube ${size} mm for ${c.brand.name} ${c.rng.pick(c.brand.models)}, steel`,
      manufacturer: c.brand.name,
      tier: Math.sqrt(c.brand.tier),
      text: { dimensions: `Tube diameter ${size} mm`, crown: "Tube only, crown not included" },
    });
  },
  DIAL: (c) => {
    const { brand, caliber } = pickCaliberOfKind(c, undefined);
    const colour = c.rng.pick(dialColours);
    const size = c.rng.int(240, 340) / 10;
    return {
      name: `${brand.name} ${c.rng.pick(brand.models)} dial, ${colour}, ${mm(size)}`,
      manufacturer: brand.name,
      category: "dials",
      caliber: caliber.kind,
      picture: "dial",
      mark: brand.name,
      dialTone: darkDialColours.has(colour) ? "dark" : "light",
      tier: brand.tier,
      text: {
        movement: `Fits ${caliberLabel(brand, caliber)}`,
        dimensions: `${mm(size)} diameter, feet at ${c.rng.pick(["3 and 9", "2 and 8", "12 and 6"])}`,
        dialHands: `${capitalise(colour)} dial with ${c.rng.pick(indexStyles)}, hands not included`,
        language: c.rng.pick(dayWheelLanguages),
      },
    };
  },
  DIAL_HANDS_SET: (c) => {
    const colour = c.rng.pick(dialColours);
    return {
      name: `${c.brand.name} ${c.rng.pick(c.brand.models)} dial and hands set, ${colour}, for ${c.brandCaliber.code}`,
      manufacturer: c.brand.name,
      category: "dials",
      caliber: c.brandCaliber.kind,
      picture: "dial-hands",
      mark: c.brand.name,
      dialTone: darkDialColours.has(colour) ? "dark" : "light",
      tier: c.brand.tier,
      text: {
        movement: `Fits ${caliberLabel(c.brand, c.brandCaliber)}`,
        dimensions: `${mm(c.rng.int(260, 330) / 10)} dial`,
        dialHands: `${capitalise(colour)} dial with matching ${c.rng.pick(handStyles)}`,
      },
    };
  },
  DIAL_CLAMP: movementPart("Dial screws and clamps (pair)", "gear"),
  MINUTE_TRACK: (c) => brandPart(c, {
    name: `Minute track chapter ring for ${c.brand.name} ${c.rng.pick(c.brand.models)}, ${c.rng.pick(["white", "black", "silver"])}`,
    category: "dials",
    picture: "bezel",
    text: { dimensions: `${mm(c.rng.int(280, 340) / 10)} outer diameter`, dialHands: "Chapter ring only" },
  }),
  HANDS_SET: (c) => {
    const style = c.rng.pick(handStyles);
    const fit = pickFit(c);
    return {
      name: `${fit.manufacturer} hands set, ${style.replace(" hands", "")}${c.rng.chance(0.4) ? ", luminous" : ""}, for ${fit.label}`,
      manufacturer: fit.manufacturer,
      category: "hands",
      caliber: fit.caliber.kind,
      picture: "hands",
      mark: "",
      tier: Math.sqrt(fit.tier),
      text: { movement: `Fits ${fit.label}`, dialHands: `${capitalise(style)}, hour, minute and seconds` },
    };
  },
  HANDS: (c) => ({
    name: `${c.rng.pick(["Luminous Mercedes", "Blued steel Breguet", "Polished dauphine", "Syringe", "Skeleton sword"])} hands for ${caliberLabel(c.brand, c.brandCaliber)}`,
    manufacturer: c.brand.name,
    category: "hands",
    caliber: c.brandCaliber.kind,
    picture: "hands",
    mark: "",
    tier: Math.sqrt(c.brand.tier),
    text: { movement: `Fits ${caliberLabel(c.brand, c.brandCaliber)}`, dialHands: "Hour and minute hands" },
  }),
  HOUR_HAND: movementPartHand("Hour hand", [1.2, 2.0]),
  MINUTE_HAND: movementPartHand("Minute hand", [0.7, 1.2]),
  SECOND_HAND: movementPartHand("Seconds hand", [0.15, 0.3]),
  LEATHER_STRAP: (c) => {
    const width = c.rng.pick([16, 18, 19, 20, 22]);
    const style = c.rng.pick(strapStyles.slice(0, 4));
    return hirschStrap(width, {
      name: `${capitalise(style)} strap ${width} mm${c.rng.chance(0.5) ? " with steel buckle" : ""}${c.rng.chance(0.3) ? ", Hirsch" : ""}`,
      text: { dimensions: `${width} mm at the lugs, ${width - 2} mm at the buckle`, braceletStrap: `${capitalise(style)}, padded, stitched` },
    });
  },
  OTHER_STRAP: (c) => {
    const width = c.rng.pick([18, 20, 22]);
    const style = c.rng.pick(["NATO strap, navy and grey stripe", "Rubber diver strap, black", "Tropic-style rubber strap", "Mesh strap, steel", "Perlon strap, olive"]);
    return hirschStrap(width, { name: `${style.split(",")[0]} ${width} mm${style.includes(",") ? `,${style.split(",")[1]}` : ""}`, text: { dimensions: `${width} mm wide`, braceletStrap: style } });
  },
  BRACELET: (c) => {
    const width = c.rng.pick([18, 19, 20, 22]);
    const style = c.rng.pick(["Oyster-style", "Jubilee-style", "beads-of-rice", "flat-link", "mesh"]);
    return {
      name: `${c.brand.name} ${style} steel bracelet ${width} mm${c.state === "NEW" ? ", NOS" : ""}`,
      manufacturer: c.brand.name,
      category: "straps-bracelets",
      caliber: "UNKNOWN",
      picture: "bracelet",
      mark: `${width} mm`,
      tier: c.brand.tier,
      text: { dimensions: `${width} mm end links, fits up to ${c.rng.int(17, 20)} cm wrist`, braceletStrap: `${capitalise(style)} stainless steel bracelet` },
    };
  },
  BRACELET_LINKS: (c) => brandPart(c, {
    name: `${c.rng.pick(["One link", "Two links", "Three links"])} for ${c.brand.name} ${c.rng.pick(c.brand.models)} bracelet`,
    category: "straps-bracelets",
    picture: "bracelet",
    text: { dimensions: `${c.rng.pick([16, 18, 20])} mm wide links`, braceletStrap: "Links only, with pins" },
  }),
  BUCKLE_CLASP_CLIP: (c) => {
    const width = c.rng.pick([14, 16, 18, 20]);
    const item = c.rng.pick(["buckle", "deployant clasp", "fold-over clasp"]);
    return {
      name: `Signed ${c.brand.name} ${item} ${width} mm, ${c.rng.pick(["steel", "gold-plated"])}`,
      manufacturer: c.brand.name,
      category: "straps-bracelets",
      caliber: "UNKNOWN",
      picture: "strap",
      mark: c.brand.name,
      tier: c.brand.tier,
      text: { dimensions: `${width} mm`, braceletStrap: `${capitalise(item)} only` },
    };
  },
  SPRINGBAR: (c) => {
    const width = c.rng.pick([16, 18, 20, 22]);
    const count = c.rng.pick([4, 10, 20]);
    return {
      name: `Springbars ${width} mm, ${c.rng.pick(["1.5", "1.8", "2.0"])} mm, ${count} pieces`,
      manufacturer: "Bergeon",
      category: "straps-bracelets",
      caliber: "UNKNOWN",
      picture: "lot",
      mark: `${count} pcs`,
      text: { dimensions: `${width} mm long`, braceletStrap: "Double-flange springbars, stainless steel" },
    };
  },
  BEZEL: (c) => brandPart(c, {
    name: `${c.brand.name} ${c.rng.pick(c.brand.models)} bezel ${mm(c.rng.int(340, 420) / 10)}, ${c.rng.pick(["steel", "gold-plated", "rotating"])}`,
    category: "bezels",
    picture: "bezel",
    text: { bezel: c.rng.pick([...watchBezels, ...diverBezels]), dimensions: `${mm(c.rng.int(280, 330) / 10)} inner diameter` },
  }),
  BEZEL_INSERT: (c) => {
    const colour = c.rng.pick(["black", "blue", "Pepsi red and blue", "Coke red and black", "faded grey"]);
    return brandPart(c, {
      name: `${c.brand.name} diver bezel insert, ${colour}, ${mm(c.rng.int(300, 380) / 10)}`,
      category: "bezels",
      picture: "bezel",
      text: { bezel: `60-minute insert, ${colour}`, dimensions: "Insert only, fits the original bezel" },
    });
  },
  CASE: (c) => ({
    name: `${c.brand.name} ${c.rng.pick(c.brand.models)} case ${c.rng.int(34, 41)} mm for ${c.brandCaliber.code}`,
    manufacturer: c.brand.name,
    category: "case-parts",
    caliber: c.brandCaliber.kind,
    picture: "case",
    mark: c.brand.name,
    tier: c.brand.tier,
    text: {
      movement: `Fits ${caliberLabel(c.brand, c.brandCaliber)}`,
      dimensions: `${c.rng.int(34, 41)} mm without crown, ${c.rng.pick([18, 19, 20])} mm lugs`,
      bezel: c.rng.pick(watchBezels),
      crown: c.rng.pick(["With crown", "Without crown"]),
      crystal: c.rng.pick(["With crystal", "Without crystal"]),
    },
  }),
  CASE_BACK: (c) => ({
    name: `${c.brand.name} ${c.rng.pick(c.brand.models)} case back ${referenceFor(c, c.brand, c.brandCaliber)}, steel`,
    manufacturer: c.brand.name,
    category: "case-parts",
    caliber: c.brandCaliber.kind,
    picture: "caseback",
    mark: c.brand.name,
    tier: c.brand.tier,
    text: { dimensions: `${mm(c.rng.int(290, 360) / 10)} diameter, ${c.rng.pick(["screw-down", "snap-on"])}` },
  }),
  CASING_CLAMP: movementPart("Casing clamps and screws", "gear", { category: "case-parts" }),
  PUSHER: (c) => ({
    name: `Chronograph pusher for ${c.brand.name} ${c.rng.pick(c.brand.models)}, steel${c.rng.chance(0.5) ? " (pair)" : ""}`,
    manufacturer: c.brand.name,
    category: "case-parts",
    caliber: "CHRONOGRAPH",
    picture: "crown",
    mark: "",
    tier: c.brand.tier,
    text: { dimensions: `${mm(c.rng.int(30, 50) / 10)} diameter`, crown: "Pusher only" },
  }),
  GASKET: (c) => {
    const size = c.rng.int(200, 380) / 10;
    return {
      name: `Case back gasket ${mm(size)} × ${c.rng.pick(["0.40", "0.50", "0.60"])} mm, ${c.rng.pick([5, 10, 20])} pieces`,
      manufacturer: "Bergeon",
      category: "batteries-gaskets",
      caliber: "UNKNOWN",
      picture: "gasket",
      mark: mm(size),
      text: { dimensions: `${mm(size)} inner diameter` },
    };
  },
  BATTERY: (c) => {
    const cell = c.rng.pick(["371", "364", "377", "395", "399", "321", "CR2016", "CR2025"]);
    return {
      name: `Renata ${cell} ${cell.startsWith("CR") ? "lithium" : "silver-oxide"} battery${c.rng.chance(0.5) ? `, pack of ${c.rng.pick([5, 10])}` : ""}`,
      manufacturer: "Renata",
      category: "batteries-gaskets",
      caliber: "QUARTZ_ELECTRONIC_KINETIC",
      picture: "battery",
      mark: cell,
      text: { dimensions: `Cell ${cell}`, movement: "For quartz movements" },
    };
  },
  BALANCE_WHEEL: movementPart("Balance complete", "movement"),
  BARREL: movementPart("Mainspring barrel complete", "gear"),
  BRIDGE: movementPart(["Balance bridge", "Train wheel bridge", "Barrel bridge", "Automatic bridge"], "movement"),
  MAIN_PLATE: movementPart("Main plate", "movement"),
  GEARS_AND_WHEELS: movementPart(["Third wheel", "Fourth wheel", "Centre wheel with cannon pinion", "Crown wheel", "Ratchet wheel", "Reverser wheel"], "gear"),
  PALLET_FORK_ESCAPE_WHEEL: movementPart("Pallet fork and escape wheel", "gear"),
  ROTOR: movementPart("Automatic rotor", "movement"),
  SCREWS: movementPart(["Assorted screws (25 pieces)", "Assorted screws (50 pieces)"], "lot", { nos: false }),
  SPRING: movementPart(["Generale Ressorts mainspring", "Click spring", "Setting lever spring", "Yoke spring"], "gear"),
  MOVEMENT_PART: movementPart(["Setting lever", "Yoke", "Hour wheel", "Cannon pinion", "Minute wheel", "Click"], "gear"),
  PROTECTOR: movementPart("Incabloc shock protector set", "gear"),
  DAY_DATE_COMPONENT: movementPart(["Date wheel", "Day star wheel", "Date jumper", "Date driving wheel"], "date-disc"),
  DISC: movementPart(["White date disc", "Black date disc", "English / French day disc", "English / Spanish day disc"], "date-disc"),
  VARIOUS_PARTS: (c) => {
    const fit = pickFit(c);
    return {
      name: `Lot of assorted parts for ${fit.label}`,
      manufacturer: fit.manufacturer,
      category: "parts-lots",
      caliber: fit.caliber.kind,
      picture: "lot",
      mark: fit.label,
      tier: Math.sqrt(fit.tier),
      text: { movement: `Parts of ${fit.label}`, dimensions: `About ${c.rng.pick([20, 40, 60, 100])} parts` },
    };
  },
  UNKNOWN: (c) => {
    const lot = c.rng.pick(["Unidentified watch parts lot from a workshop drawer", "Box of mixed watch parts, sold as found", "Lot of unidentified crowns, hands and screws"]);
    return {
      name: lot,
      manufacturer: c.rng.pick(["Bergeon", "GS"]),
      category: "parts-lots",
      caliber: "UNKNOWN",
      picture: "lot",
      mark: "",
      text: { dimensions: `About ${c.rng.int(1, 4) * 50} grams of parts` },
    };
  },
  TWEEZERS: supply("Dumont", (c, maker) => {
    const number = c.rng.pick(["2", "3", "5", "7"]);
    return {
      name: `${maker} No. ${number} ${c.rng.pick(["anti-magnetic", "brass", "carbon-tipped", "stainless"])} tweezers`,
      category: "hand-tools",
      caliber: "UNKNOWN",
      picture: "tweezers",
      mark: `No. ${number}`,
      text: { dimensions: `${c.rng.int(110, 130)} mm long` },
    };
  }),
  POLISHING_POWDER: supply("Bergeon", (c) => {
    const product = c.rng.pick(["Dialux polishing paste, blue", "Dialux polishing paste, white", "Polywatch acrylic crystal polish, 5 g", "Cape Cod polishing cloths, pack of 2", "Cerium oxide polishing powder, 100 g"]);
    return {
      name: product,
      category: "workshop-supplies",
      caliber: "UNKNOWN",
      picture: "jar",
      mark: product.split(" ")[0] ?? "",
      text: { dimensions: c.rng.pick(["100 g jar", "5 g tube", "Two cloths, 12 × 10 cm"]) },
    };
  }),
  STICKERS: supply("Bergeon", (c) => {
    const size = c.rng.pick([20, 25, 30, 35, 40]);
    return {
      name: `Case back protection stickers ${size} mm, ${c.rng.pick([50, 100, 200])} pieces`,
      category: "workshop-supplies",
      caliber: "UNKNOWN",
      picture: "stickers",
      mark: `${size} mm`,
      text: { dimensions: `${size} mm round stickers` },
    };
  }),
};

// The tools category also sells things without an item type of their own: screwdrivers and case openers.
const workshopTools = [
  "Bergeon 30081 screwdriver set, 9 pieces",
  "Bergeon 5700 case back opener",
  "Horotec Jaxa-style case wrench",
  "Bergeon 6767-F hand remover",
  "Horotec movement holder, 10–30 mm",
  "Bergeon spring bar tool 6767-S",
];

function movementPartHand(label: string, widths: [number, number]) {
  return (c: Context): Built => {
    // Hands are sold by the diameter of their hole, in steps of 0.05 mm.
    const hole = Math.round((widths[0] + c.rng.next() * (widths[1] - widths[0])) * 20) / 20;
    const finish = c.rng.pick(["blued steel", "gilt", "luminous", "polished steel", "red"]);
    const base = movementPart(`${label} ${hole.toFixed(2)} mm, ${finish},`, "hands", { category: "hands" })(c);
    return { ...base, text: { ...base.text, dialHands: `${label} only` } };
  };
}


// ---------------------------------------------------------------------------------------------------------------

const groupStates: Record<Group, readonly (readonly [ProductState, number])[]> = {
  watch: [["USED", 80], ["NEW", 12], ["UNKNOWN", 8]],
  movement: [["USED", 50], ["NEW", 35], ["UNKNOWN", 15]],
  part: [["NEW", 62], ["USED", 28], ["UNKNOWN", 10]],
  supply: [["NEW", 95], ["UNKNOWN", 5]],
};

const groupGenders: Record<Group, readonly (readonly [Gender, number])[]> = {
  watch: [["MENS", 55], ["LADIES", 20], ["UNISEX", 20], ["UNKNOWN", 5]],
  movement: [["UNISEX", 40], ["UNKNOWN", 40], ["MENS", 15], ["LADIES", 5]],
  part: [["UNISEX", 40], ["UNKNOWN", 45], ["MENS", 10], ["LADIES", 5]],
  supply: [["UNKNOWN", 70], ["UNISEX", 30]],
};

/** Where the brands and movement makers are based: their pieces were made there. */
const makerCountries = new Map<string, string>([...brands, ...movementMakers].map((maker) => [maker.name, maker.country]));
const originOf = (manufacturer: string, drawn: string) => makerCountries.get(manufacturer) ?? drawn;

const countryWeights = originCountries.map((code) => [code, code === "NL" ? 30 : code === "PH" ? 25 : code === "CH" || code === "DE" || code === "JP" ? 10 : 3] as const);

const weightedItemTypes = itemTypes.map((type) => [type, itemTypeMix[type].weight] as const);

/** The item type of product `index`: one of each type first (in a scrambled order), then by how common it is. */
export function itemTypeFor(index: number, rng: Random): ItemType {
  if (index < itemTypes.length) {
    // 17 and the number of item types share no factor, so this visits every type once.
    return itemTypes[(index * 17) % itemTypes.length] as ItemType;
  }
  return rng.weighted(weightedItemTypes);
}

export type GenerateOptions = { seed: number; now: Date };

/** Product `index` (0-based) of the demo catalogue. */
export function generateProduct(index: number, options: GenerateOptions): ProductDraft {
  const rng = randomFor(options.seed, index);
  const itemType = itemTypeFor(index, rng);
  const spec = itemTypeMix[itemType];
  const brand = rng.pick(brands);
  const maker = rng.pick(movementMakers);
  const context: Context = {
    rng,
    brand,
    brandCaliber: rng.pick(brand.calibers),
    maker,
    makerCaliber: rng.pick(maker.calibers),
    gender: rng.weighted(groupGenders[spec.group]),
    state: rng.weighted(groupStates[spec.group]),
  };

  let built = describeItem[itemType](context);
  if (itemType === "UNKNOWN" && rng.chance(0.4)) {
    built = { ...built, name: rng.pick(workshopTools), category: "hand-tools", picture: "screwdriver", manufacturer: rng.pick(["Bergeon", "Horotec"]) };
  }
  const { gender, state } = context;

  const stock = stockFor(spec.group, rng);
  const price = priceFor(spec.price, built.tier ?? 1, rng);
  const isBulk = spec.group !== "watch" && stock >= 4 && price.lessThan(40) && rng.chance(0.55);
  const daysAgo = rng.chance(0.12) ? rng.next() * 13 : 14 + rng.next() * 166;

  const text: DescriptionText = {
    condition: rng.pick(conditionsByState[state]),
    movement: NOT_APPLICABLE,
    dimensions: NOT_APPLICABLE,
    serialNumber: spec.group === "watch" || spec.group === "movement" ? "Not visible" : "None (spare part)",
    dialHands: NOT_APPLICABLE,
    crystal: NOT_APPLICABLE,
    additional: rng.pick(shippingNotes),
    additional2: rng.pick(provenanceNotes),
    additional3: rng.pick(buyerNotes),
    bezel: NOT_APPLICABLE,
    crown: NOT_APPLICABLE,
    language: NOT_APPLICABLE,
    braceletStrap: NOT_APPLICABLE,
    ...built.text,
  };

  return {
    index,
    name: built.name,
    price,
    shippingFee: spec.group === "supply" || itemType === "POCKET_WATCH" || rng.chance(0.05) ? rng.pick([null, new Decimal("4.95"), new Decimal("7.50"), new Decimal("12.00")]) : null,
    stock,
    wsStatus: rng.chance(0.95) ? "ONLINE" : "OFFLINE",
    ebayStatus: rng.chance(0.55) ? "ONLINE" : "OFFLINE",
    isBulk,
    categoryKey: built.category,
    manufacturer: built.manufacturer,
    // Drawn for every product, so that the demo's other random choices stay as they were; a piece by a maker whose
    // country is known was made there, which its customs declaration names.
    countryCode: originOf(built.manufacturer, rng.weighted(countryWeights)),
    createdAt: new Date(options.now.getTime() - Math.round(daysAgo * DAY)),
    description: { caliber: built.caliber, state, itemType, gender, ...text },
    picture: {
      kind: built.picture,
      mark: built.mark,
      caption: captionFor(built, itemType),
      dialTone: built.dialTone ?? "light",
      caliber: built.caliber,
      variant: rng.int(0, 1_000_000),
    },
    discountRoll: rng.next(),
    costShare: 0.3 + rng.next() * 0.25,
  };
}

function stockFor(group: Group, rng: Random): number {
  if (rng.chance(group === "watch" ? 0.2 : 0.12)) return 0;
  if (group === "watch") return rng.chance(0.85) ? 1 : 2;
  if (group === "movement") return rng.int(1, 4);
  return rng.weighted([[1, 20], [2, 15], [3, 12], [4, 10], [5, 10], [6, 8], [8, 8], [10, 10]] as const);
}

/** A shop price: cheap parts end in .95 or .50, watches in whole euros. */
export function priceFor(range: readonly [number, number], tier: number, rng: Random): Decimal {
  const [low, high] = range;
  // Skewed towards the low end, as most of a parts catalogue is cheap.
  const euros = Math.max(2, Math.round((low + (high - low) * rng.next() ** 1.7) * tier));
  if (euros >= 250) return new Decimal(Math.round(euros / 5) * 5).toDecimalPlaces(2);
  const cents = rng.weighted([["0.95", 5], ["0.50", 2], ["0.00", 3]] as const);
  return new Decimal(euros - 1).plus(new Decimal(cents)).toDecimalPlaces(2);
}

const captionWords: Partial<Record<ItemType, string>> = {
  BUCKLE_CLASP_CLIP: "Buckle / clasp",
  DAY_DATE_COMPONENT: "Day / date part",
  PALLET_FORK_ESCAPE_WHEEL: "Escapement",
  QUARTZ_ELECTRONIC_KINETIC: "Quartz watch",
  HANDWINDER: "Handwound watch",
  AUTOMATIC: "Automatic watch",
  DIVERS_WATCH: "Divers' watch",
  UNKNOWN: "Workshop",
};

function captionFor(built: Built, itemType: ItemType): string {
  const kind = captionWords[itemType] ?? capitalise(itemType.toLowerCase().replaceAll("_", " "));
  return `${kind} · ${built.manufacturer}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The description fields that describe the item, for `buildSearchText` (boilerplate notes are left out). */
