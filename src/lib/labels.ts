import type { Caliber, Gender, ItemType, PaymentProvider, ProductState, ShippingMethod } from "./enums";

/**
 * The one place attribute values become words a visitor reads (SPEC section 3): a missing value reads "N/A", a
 * value without a label "Unknown". Asking for a key that is not an attribute is a programming error and throws.
 */

const caliberLabels: Record<Caliber, string> = {
  AUTOMATIC: "Automatic",
  CHRONOGRAPH: "Chronograph",
  HANDWIND: "Handwind",
  QUARTZ_ELECTRONIC_KINETIC: "Quartz/Electronic/Kinetic",
  UNKNOWN: "Unknown",
};

const stateLabels: Record<ProductState, string> = { NEW: "New", USED: "Used", UNKNOWN: "Unknown" };

const genderLabels: Record<Gender, string> = { MENS: "Men's", LADIES: "Ladies", UNISEX: "Unisex", UNKNOWN: "Unknown" };

const itemTypeLabels: Record<ItemType, string> = {
  BALANCE_WHEEL: "Balance Wheel",
  BATTERY: "Battery",
  BARREL: "Barrel",
  BEZEL: "Bezel",
  BEZEL_INSERT: "Bezel Insert",
  BRACELET: "Bracelet",
  BRACELET_LINKS: "Bracelet Links",
  BRIDGE: "Bridge",
  BUCKLE_CLASP_CLIP: "Buckle/Clasp/Clip",
  CASE: "Case",
  CASE_BACK: "Case Back",
  CASING_CLAMP: "Casing Clamp",
  CRYSTAL: "Crystal",
  CRYSTAL_REPAIR_SET: "Crystal Repair Set",
  CROWN: "Crown",
  CROWN_SET: "Crown Set",
  DAY_DATE_COMPONENT: "Day/Date Component",
  DIAL: "Dial",
  DIAL_CLAMP: "Dial Clamp",
  DIAL_HANDS_SET: "Dial & Hands Set",
  DISC: "Disc",
  DIVERS_WATCH: "Divers Watch",
  GEARS_AND_WHEELS: "Gears and Wheels",
  GASKET: "Gasket",
  HANDS_SET: "Hands Set",
  HOUR_HAND: "Hour Hand",
  LEATHER_STRAP: "Leather Strap",
  MAIN_PLATE: "Main Plate",
  MINUTE_HAND: "Minute Hand",
  MINUTE_TRACK: "Minute Track",
  MOVEMENT: "Movement",
  MOVEMENT_PART: "Movement Part",
  OTHER_STRAP: "Other Strap",
  PALLET_FORK_ESCAPE_WHEEL: "Pallet Fork/Escape Wheel",
  POCKET_WATCH: "Pocket Watch",
  POLISHING_POWDER: "Polishing Powder",
  PROTECTOR: "Protector",
  PUSHER: "Pusher",
  ROTOR: "Rotor",
  SCREWS: "Screws",
  SECOND_HAND: "Second Hand",
  SPRING: "Spring",
  SPRINGBAR: "Springbar",
  STEM: "Stem",
  STOPWATCH: "Stopwatch",
  STICKERS: "Stickers",
  TUBE: "Tube",
  TWEEZERS: "Tweezers",
  VARIOUS_PARTS: "Various Parts",
  WRISTWATCH: "Wristwatch",
  AUTOMATIC: "Automatic",
  HANDWINDER: "Handwinder",
  QUARTZ_ELECTRONIC_KINETIC: "Quartz/Electronic/Kinetic",
  CHRONOGRAPH: "Chronograph",
  HANDS: "Hands",
  UNKNOWN: "Unknown",
};

const labels = {
  caliber: caliberLabels,
  state: stateLabels,
  gender: genderLabels,
  itemType: itemTypeLabels,
} satisfies Record<string, Record<string, string>>;

export type AttributeKey = keyof typeof labels;

/** The heading an attribute has on a product page and in the filters. */
export const attributeNames: Record<AttributeKey, string> = {
  caliber: "Caliber",
  state: "State",
  gender: "Gender",
  itemType: "Item type",
};

export function attributeLabel(key: AttributeKey, value: string | null | undefined): string {
  if (!Object.hasOwn(labels, key)) throw new Error(`Unknown attribute key "${String(key)}" in a label lookup`);
  if (value === null || value === undefined) return "N/A";
  const table: Record<string, string> = labels[key];
  return Object.hasOwn(table, value) ? (table[value] ?? "Unknown") : "Unknown";
}

/** How the shop names its shipping methods to buyers. */
export const shippingMethodLabels: Record<ShippingMethod, string> = {
  UNTRACKED: "Untracked post",
  TNT: "Tracked parcel",
  COLLECTED: "Collected in the shop",
};

/** How payment methods are named, in the checkout, on payment pages and on orders. */
export const paymentMethodLabels: Record<PaymentProvider, string> = {
  APPLEPAY: "Apple Pay", BANCONTACT: "Bancontact", BANKTRANSFER: "Bank transfer", BELFIUS: "Belfius", CREDITCARD: "Credit card",
  DIRECTDEBIT: "SEPA Direct Debit", EPS: "EPS", GIFTCARD: "Gift card", GIROPAY: "giropay", IDEAL: "iDEAL", KBC: "KBC/CBC",
  KLARNAPAYNOW: "Klarna Pay now", KLARNASLICEIT: "Klarna Slice it", MYBANK: "MyBank", PAYPAL: "PayPal", PAYSAFECARD: "paysafecard", SOFORT: "SOFORT",
  ACCOUNT: "On account", EBAY: "eBay", BUCKAROO: "Buckaroo", STRIPE: "Stripe", RABO: "Rabo Smart Pay",
};

/** A calendar day (YYYY-MM-DD) as buyers read it, e.g. 'Thursday 26 November'; `short` gives 'Thu 26 Nov'. */
export function formatShippingDay(day: string, { short = false }: { short?: boolean } = {}): string {
  return new Intl.DateTimeFormat("en-GB", { weekday: short ? "short" : "long", day: "numeric", month: short ? "short" : "long", timeZone: "UTC" }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

/** The names of the product description's fields, as the product page shows them and the product form asks for them. */
export const descriptionFieldLabels = {
  condition: "Condition",
  movement: "Movement",
  dimensions: "Dimensions",
  serialNumber: "Serial number",
  dialHands: "Dial & hands",
  crystal: "Crystal",
  bezel: "Bezel",
  crown: "Crown",
  braceletStrap: "Bracelet / strap",
  language: "Day & date language",
  additional: "Shipping",
  additional2: "Provenance",
  additional3: "Notes",
};
