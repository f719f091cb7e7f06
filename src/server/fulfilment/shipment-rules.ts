import type { Carrier, ItemType, ShippingMethod } from "@/lib/enums";

/**
 * Which carrier, and which of its products, takes a parcel (PROVIDERS §3, §4). Pure rules: the fulfilment service
 * reads the order and asks `chooseShipment`; nothing else decides it.
 *
 * The rules, first match wins:
 *
 * | destination   | method    | parcel                    | carrier | product                                  |
 * |---------------|-----------|---------------------------|---------|------------------------------------------|
 * | NL or EU      | any       | heavy (over 20 kg)        | UPS     | 11 UPS Standard                          |
 * | outside EU    | any       | heavy (over 20 kg)        | UPS     | 65 UPS Worldwide Saver                   |
 * | NL            | UNTRACKED | fits a letterbox, ≤ 500 g | PostNL  | 2928 letterbox parcel                    |
 * | NL            | any       | any                       | PostNL  | 3085 standard parcel                     |
 * | EU            | any       | any                       | PostNL  | 4907 EU parcel with track & trace        |
 * | outside EU    | TNT       | any                       | UPS     | 65 UPS Worldwide Saver                   |
 * | outside EU    | UNTRACKED | any                       | PostNL  | 4945 parcel non-EU                       |
 *
 * Why so:
 * - PostNL carries parcels abroad up to 20 kg; anything heavier goes with UPS, Standard within the EU (road) and
 *   Saver beyond it.
 * - The letterbox parcel is the cheapest way to send parts at home, but only flat things go through a 3.2 cm slot:
 *   loose parts, straps and movements, never a boxed watch or a tool case, and no more than about half a kilo of
 *   them (PostNL's own limit is 2 kg, which no parcel of parts that thin reaches).
 * - PostNL has no untracked parcel abroad: an EU parcel is 4907 with its basic track & trace, whichever method the
 *   customer paid for; the adapter adds the options PostNL requires with 4907.
 * - A tracked parcel outside the EU goes with UPS, whose tracking and customs handling reach where PostNL's
 *   partners do not; an untracked one goes with PostNL's non-EU parcel, the cheaper choice the customer made.
 */

export type ShipmentFacts = {
  /** ISO 3166-1 alpha-2 of the destination. */
  countryCode: string;
  /** Whether the destination is in the EU (the country table's `eu`). */
  eu: boolean;
  method: ShippingMethod;
  weightGrams: number;
  /** Whether everything in the parcel is flat enough for a letterbox (see `estimateParcel`). */
  fitsLetterbox: boolean;
};

export type ShipmentChoice = {
  carrier: Carrier;
  /** The carrier's product: a PostNL product code or a UPS service code, as `LabelRequest.product` wants it. */
  product: string;
  /** The product's name for staff and the logbook. */
  name: string;
};

/** PostNL's limit for parcels abroad; heavier parcels go with UPS. */
export const HEAVY_PARCEL_GRAMS = 20_000;
/** The heaviest parcel of flat parts that still goes through a letterbox slot. */
export const LETTERBOX_MAX_GRAMS = 500;

type Destination = "NL" | "EU" | "WORLD";
type ParcelKind = "heavy" | "letterbox" | "parcel";

type ShipmentRule = {
  destinations: readonly Destination[];
  methods: readonly ShippingMethod[];
  /** The parcel kinds the rule takes; a letterbox-sized parcel is a parcel too when no letterbox rule applies. */
  parcels: readonly ParcelKind[];
  choice: ShipmentChoice;
};

const anyMethod = ["UNTRACKED", "TNT"] as const;
const anyParcel = ["letterbox", "parcel"] as const;

const ups = {
  standard: { carrier: "UPS", product: "11", name: "UPS Standard" },
  saver: { carrier: "UPS", product: "65", name: "UPS Worldwide Saver" },
} as const satisfies Record<string, ShipmentChoice>;

const postnl = {
  letterbox: { carrier: "POSTNL", product: "2928", name: "PostNL letterbox parcel" },
  standard: { carrier: "POSTNL", product: "3085", name: "PostNL standard parcel" },
  eu: { carrier: "POSTNL", product: "4907", name: "PostNL EU parcel with track & trace" },
  world: { carrier: "POSTNL", product: "4945", name: "PostNL parcel non-EU" },
} as const satisfies Record<string, ShipmentChoice>;

/** The table above, in the same order. */
export const shipmentRules: readonly ShipmentRule[] = [
  { destinations: ["NL", "EU"], methods: anyMethod, parcels: ["heavy"], choice: ups.standard },
  { destinations: ["WORLD"], methods: anyMethod, parcels: ["heavy"], choice: ups.saver },
  { destinations: ["NL"], methods: ["UNTRACKED"], parcels: ["letterbox"], choice: postnl.letterbox },
  { destinations: ["NL"], methods: anyMethod, parcels: anyParcel, choice: postnl.standard },
  { destinations: ["EU"], methods: anyMethod, parcels: anyParcel, choice: postnl.eu },
  { destinations: ["WORLD"], methods: ["TNT"], parcels: anyParcel, choice: ups.saver },
  { destinations: ["WORLD"], methods: ["UNTRACKED"], parcels: anyParcel, choice: postnl.world },
];

function destinationOf(facts: ShipmentFacts): Destination {
  if (facts.countryCode.toUpperCase() === "NL") return "NL";
  return facts.eu ? "EU" : "WORLD";
}

function parcelKindOf(facts: ShipmentFacts): ParcelKind {
  if (facts.weightGrams > HEAVY_PARCEL_GRAMS) return "heavy";
  return facts.fitsLetterbox && facts.weightGrams <= LETTERBOX_MAX_GRAMS ? "letterbox" : "parcel";
}

/** The carrier and product for a parcel: the first rule of `shipmentRules` that takes it. */
export function chooseShipment(facts: ShipmentFacts): ShipmentChoice {
  const destination = destinationOf(facts);
  const parcel = parcelKindOf(facts);
  const rule = shipmentRules.find((candidate) => candidate.destinations.includes(destination) && candidate.methods.includes(facts.method) && candidate.parcels.includes(parcel));
  // The table covers every destination, method and parcel kind (shipment-rules.test.ts checks each combination).
  if (!rule) throw new Error(`No shipment rule for a ${parcel} ${facts.method} parcel to ${facts.countryCode}`);
  return rule.choice;
}

/**
 * How a line travels: a boxed watch, a tool or supply in its case, a movement in its holder, or a loose part. The
 * catalogue keeps no weights, so a parcel's weight is estimated from what is in it; staff see it on the order and
 * the carrier charges by the weight class, which these estimates stay inside.
 */
type PackedKind = "watch" | "supply" | "movement" | "part";

const packedGrams: Record<PackedKind, number> = { watch: 350, supply: 150, movement: 60, part: 20 };
const flatKinds: readonly PackedKind[] = ["movement", "part"];
/** The box or padded envelope around it all. */
const PACKAGING_GRAMS = 100;

const watchTypes: readonly ItemType[] = ["WRISTWATCH", "AUTOMATIC", "HANDWINDER", "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH", "DIVERS_WATCH", "POCKET_WATCH", "STOPWATCH"];
// What we know nothing about is packed as a supply: a box that does not fit a letterbox.
const supplyTypes: readonly ItemType[] = ["CASING_CLAMP", "CRYSTAL_REPAIR_SET", "POLISHING_POWDER", "UNKNOWN"];

function packedKindOf(itemType: ItemType): PackedKind {
  if (watchTypes.includes(itemType)) return "watch";
  if (supplyTypes.includes(itemType)) return "supply";
  return itemType === "MOVEMENT" ? "movement" : "part";
}

/** The estimated weight of a parcel with these lines (packaging included), and whether it fits a letterbox. */
export function estimateParcel(lines: readonly { itemType: ItemType; quantity: number }[]): { weightGrams: number; fitsLetterbox: boolean } {
  const kinds = lines.map((line) => ({ kind: packedKindOf(line.itemType), quantity: line.quantity }));
  return {
    weightGrams: kinds.reduce((sum, line) => sum + packedGrams[line.kind] * line.quantity, PACKAGING_GRAMS),
    fitsLetterbox: kinds.every((line) => flatKinds.includes(line.kind)),
  };
}

/**
 * Why an order collected in the shop (a counter sale) gets no label, packing slip or pick list: it never ships. Its
 * invoice still prints.
 */
export function collectedRefusal(orderNumber: string, what: string): string {
  return `Order ${orderNumber} was collected in the shop: it needs no ${what}.`;
}
