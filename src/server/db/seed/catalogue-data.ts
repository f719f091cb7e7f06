import { Decimal } from "decimal.js";
import type { InferInsertModel } from "drizzle-orm";
import type { Caliber } from "@/lib/enums";
import type { productTemplate } from "@/server/db/schema";

/**
 * The demo catalogue's fixed data: the category tree, the brands and movement makers with the models and calibers
 * collectors know them by, and the product templates staff start from. Products are generated from these in
 * `products.ts`.
 */

export type CategoryNode = {
  key: string;
  name: string;
  ebayMainCategory?: string;
  /** The key of another category whose products are shown as related. */
  relatedTo?: string;
  children?: CategoryNode[];
};

export const categoryTree: CategoryNode[] = [
  {
    key: "wristwatches",
    name: "Wristwatches",
    ebayMainCategory: "31387",
    children: [
      { key: "automatic-watches", name: "Automatic watches", ebayMainCategory: "31387", relatedTo: "automatic-movements" },
      { key: "handwound-watches", name: "Handwound watches", ebayMainCategory: "31387", relatedTo: "handwound-movements" },
      { key: "quartz-watches", name: "Quartz & electronic watches", ebayMainCategory: "31387", relatedTo: "quartz-movements" },
      { key: "chronographs", name: "Chronographs", ebayMainCategory: "31387", relatedTo: "chronograph-movements" },
      { key: "divers-watches", name: "Divers' watches", ebayMainCategory: "31387", relatedTo: "bezels" },
    ],
  },
  {
    key: "pocket-watches",
    name: "Pocket watches",
    ebayMainCategory: "3937",
    children: [
      { key: "pocket-watches-open-face", name: "Open-face & hunter pocket watches", ebayMainCategory: "3937" },
      { key: "stopwatches", name: "Stopwatches", ebayMainCategory: "3937" },
    ],
  },
  {
    key: "movements",
    name: "Movements",
    ebayMainCategory: "57720",
    children: [
      { key: "automatic-movements", name: "Automatic movements", ebayMainCategory: "57720", relatedTo: "movement-parts" },
      { key: "handwound-movements", name: "Handwound movements", ebayMainCategory: "57720", relatedTo: "movement-parts" },
      { key: "quartz-movements", name: "Quartz movements", ebayMainCategory: "57720", relatedTo: "batteries-gaskets" },
      { key: "chronograph-movements", name: "Chronograph movements", ebayMainCategory: "57720", relatedTo: "movement-parts" },
    ],
  },
  {
    key: "parts",
    name: "Parts",
    ebayMainCategory: "57720",
    children: [
      { key: "crystals", name: "Crystals", ebayMainCategory: "57720", relatedTo: "bezels" },
      { key: "crowns", name: "Crowns, stems & tubes", ebayMainCategory: "57720", relatedTo: "case-parts" },
      { key: "dials", name: "Dials", ebayMainCategory: "57720", relatedTo: "hands" },
      { key: "hands", name: "Hands", ebayMainCategory: "57720", relatedTo: "dials" },
      { key: "straps-bracelets", name: "Straps & bracelets", ebayMainCategory: "57720" },
      { key: "bezels", name: "Bezels & inserts", ebayMainCategory: "57720", relatedTo: "crystals" },
      { key: "case-parts", name: "Case parts", ebayMainCategory: "57720", relatedTo: "crowns" },
      { key: "movement-parts", name: "Movement parts", ebayMainCategory: "57720", relatedTo: "handwound-movements" },
      { key: "batteries-gaskets", name: "Batteries & gaskets", ebayMainCategory: "57720" },
      { key: "parts-lots", name: "Lots & assortments", ebayMainCategory: "57720" },
    ],
  },
  {
    key: "tools",
    name: "Tools",
    ebayMainCategory: "117039",
    children: [
      { key: "hand-tools", name: "Tweezers & hand tools", ebayMainCategory: "117039" },
      { key: "workshop-supplies", name: "Polishing & workshop supplies", ebayMainCategory: "117039" },
    ],
  },
];

/** The keys of the categories products are filed in (the leaves). */
export type CategoryKey =
  | "automatic-watches" | "handwound-watches" | "quartz-watches" | "chronographs" | "divers-watches"
  | "pocket-watches-open-face" | "stopwatches"
  | "automatic-movements" | "handwound-movements" | "quartz-movements" | "chronograph-movements"
  | "crystals" | "crowns" | "dials" | "hands" | "straps-bracelets" | "bezels" | "case-parts" | "movement-parts"
  | "batteries-gaskets" | "parts-lots"
  | "hand-tools" | "workshop-supplies";

export type CaliberSpec = { code: string; kind: Exclude<Caliber, "UNKNOWN">; jewels: number; diameter: number };

export type Brand = {
  name: string;
  /** Price factor against an average brand: collectors pay more for an Omega than for an Orient. */
  tier: number;
  country: string;
  models: string[];
  calibers: CaliberSpec[];
};

const cal = (code: string, kind: CaliberSpec["kind"], jewels: number, diameter: number): CaliberSpec => ({ code, kind, jewels, diameter });

/** The watch brands, in the order the navigation lists them (the children of the first manufacturer entry). */
export const brands: Brand[] = [
  { name: "Omega", tier: 1.8, country: "CH", models: ["Seamaster", "Constellation", "De Ville", "Genève", "Speedmaster", "Dynamic"],
    calibers: [cal("565", "AUTOMATIC", 24, 27.9), cal("552", "AUTOMATIC", 24, 27.9), cal("601", "HANDWIND", 17, 26.6), cal("1012", "AUTOMATIC", 22, 27.9), cal("861", "CHRONOGRAPH", 17, 27), cal("1342", "QUARTZ_ELECTRONIC_KINETIC", 7, 25.6)] },
  { name: "Seiko", tier: 0.75, country: "JP", models: ["5 Sports", "Lord Matic", "Bell-Matic", "Sportsmatic", "King Seiko", "Actus", "SQ"],
    calibers: [cal("6139", "CHRONOGRAPH", 21, 27), cal("6119", "AUTOMATIC", 21, 27), cal("7S26", "AUTOMATIC", 21, 27.4), cal("6309", "AUTOMATIC", 17, 27), cal("7009", "AUTOMATIC", 17, 27), cal("5606", "AUTOMATIC", 25, 27), cal("6602", "HANDWIND", 17, 25.6), cal("7N43", "QUARTZ_ELECTRONIC_KINETIC", 0, 24)] },
  { name: "Longines", tier: 1.5, country: "CH", models: ["Conquest", "Flagship", "Admiral", "Ultronic", "Presence"],
    calibers: [cal("L990", "AUTOMATIC", 29, 25.6), cal("30L", "HANDWIND", 17, 30), cal("280", "HANDWIND", 17, 20.7), cal("L633", "AUTOMATIC", 21, 25.6), cal("6312", "QUARTZ_ELECTRONIC_KINETIC", 7, 26)] },
  { name: "Tissot", tier: 1, country: "CH", models: ["Seastar", "PR 516", "Visodate", "Stylist", "Navigator"],
    calibers: [cal("2481", "AUTOMATIC", 17, 27.5), cal("784-2", "AUTOMATIC", 17, 27.5), cal("27B", "HANDWIND", 17, 27), cal("1281", "CHRONOGRAPH", 17, 27)] },
  { name: "Zenith", tier: 1.7, country: "CH", models: ["Autosport", "Defy", "El Primero", "Port Royal", "Sub Sea"],
    calibers: [cal("2542PC", "AUTOMATIC", 36, 28), cal("40T", "HANDWIND", 17, 27), cal("400", "CHRONOGRAPH", 31, 30), cal("2522", "AUTOMATIC", 36, 28)] },
  { name: "Certina", tier: 1, country: "CH", models: ["DS", "Blue Ribbon", "Club 2000", "Argonaut"],
    calibers: [cal("25-651", "AUTOMATIC", 28, 25.6), cal("28-10", "HANDWIND", 17, 26), cal("25-65", "AUTOMATIC", 21, 25.6)] },
  { name: "Junghans", tier: 1, country: "DE", models: ["Max Bill", "Chronometer", "Trilastic", "Mega"],
    calibers: [cal("J80", "HANDWIND", 17, 26), cal("J93", "HANDWIND", 17, 26), cal("688", "AUTOMATIC", 25, 26), cal("Mega 1", "QUARTZ_ELECTRONIC_KINETIC", 0, 26)] },
  { name: "Doxa", tier: 1.3, country: "CH", models: ["Sub 300", "Sub 250", "Grafic", "Antimagnetic"],
    calibers: [cal("ETA 2783", "AUTOMATIC", 25, 25.6), cal("103", "HANDWIND", 15, 25.6), cal("Valjoux 7734", "CHRONOGRAPH", 17, 31)] },
  { name: "Citizen", tier: 0.75, country: "JP", models: ["Bullhead", "Promaster", "Eco-Drive", "Seven", "Challenge Timer"],
    calibers: [cal("8110", "CHRONOGRAPH", 23, 29), cal("8200", "AUTOMATIC", 21, 26), cal("E168", "QUARTZ_ELECTRONIC_KINETIC", 0, 23), cal("5200", "AUTOMATIC", 21, 26)] },
  { name: "Orient", tier: 0.65, country: "JP", models: ["Bambino", "King Diver", "Mako", "Star"],
    calibers: [cal("46941", "AUTOMATIC", 21, 26.4), cal("F6922", "AUTOMATIC", 22, 26.4), cal("46943", "AUTOMATIC", 21, 26.4)] },
  { name: "Eterna", tier: 1.1, country: "CH", models: ["Eterna-Matic", "KonTiki", "Centenaire"],
    calibers: [cal("1424U", "AUTOMATIC", 17, 26), cal("1247", "AUTOMATIC", 17, 25.6), cal("1200", "HANDWIND", 17, 26)] },
  { name: "Rado", tier: 1, country: "CH", models: ["Green Horse", "Golden Horse", "DiaStar", "Purple Horse"],
    calibers: [cal("ETA 2783", "AUTOMATIC", 30, 25.6), cal("ETA 2636", "AUTOMATIC", 25, 25.6), cal("ETA 955.112", "QUARTZ_ELECTRONIC_KINETIC", 7, 23.3)] },
  { name: "Oris", tier: 0.95, country: "CH", models: ["Star", "Big Crown", "Diver", "Pointer Date"],
    calibers: [cal("601", "HANDWIND", 17, 25.6), cal("645", "AUTOMATIC", 25, 25.6), cal("584", "AUTOMATIC", 21, 25.6)] },
  { name: "Heuer", tier: 1.9, country: "CH", models: ["Carrera", "Autavia", "Monaco", "Camaro", "Silverstone"],
    calibers: [cal("Valjoux 72", "CHRONOGRAPH", 17, 29.5), cal("Calibre 11", "CHRONOGRAPH", 17, 31), cal("Valjoux 7736", "CHRONOGRAPH", 17, 30)] },
  { name: "Enicar", tier: 1, country: "CH", models: ["Sherpa", "Star Jewels", "Ocean Pearl", "Jet Graph"],
    calibers: [cal("AR 1145", "AUTOMATIC", 25, 26), cal("AR 165", "HANDWIND", 17, 26), cal("AR 1010", "AUTOMATIC", 25, 26)] },
  { name: "Favre-Leuba", tier: 1, country: "CH", models: ["Sea King", "Sea Chief", "Bivouac", "Daymatic"],
    calibers: [cal("FL 1152", "AUTOMATIC", 17, 26), cal("FL 251", "HANDWIND", 17, 25.6)] },
  { name: "Zodiac", tier: 1, country: "CH", models: ["Sea Wolf", "Aerospace GMT", "Olympos", "SST"],
    calibers: [cal("70-72", "AUTOMATIC", 17, 26), cal("86", "AUTOMATIC", 17, 26)] },
  { name: "Bulova", tier: 0.9, country: "US", models: ["Accutron", "Oceanographer", "Snorkel", "Spaceview"],
    calibers: [cal("214", "QUARTZ_ELECTRONIC_KINETIC", 0, 31), cal("11ANACB", "AUTOMATIC", 17, 26), cal("10BZAC", "HANDWIND", 17, 23)] },
  { name: "Hamilton", tier: 1, country: "US", models: ["Khaki", "Jazzmaster", "Pan Europ", "Electric Ventura"],
    calibers: [cal("505", "QUARTZ_ELECTRONIC_KINETIC", 17, 28), cal("H-10", "AUTOMATIC", 25, 25.6), cal("ETA 2824-2", "AUTOMATIC", 25, 25.6), cal("747", "HANDWIND", 17, 26)] },
  { name: "Ebel", tier: 1.2, country: "CH", models: ["Sport Classic", "1911", "Discovery", "Beluga"],
    calibers: [cal("137", "CHRONOGRAPH", 31, 30), cal("ETA 2892", "AUTOMATIC", 21, 25.6), cal("Ebel 080", "QUARTZ_ELECTRONIC_KINETIC", 7, 23)] },
  { name: "Mido", tier: 0.9, country: "CH", models: ["Multifort", "Ocean Star", "Powerwind", "Commander"],
    calibers: [cal("ETA 2836", "AUTOMATIC", 25, 25.6), cal("917", "AUTOMATIC", 17, 26)] },
  { name: "Universal Genève", tier: 1.6, country: "CH", models: ["Polerouter", "White Shadow", "Compax", "Tri-Compax"],
    calibers: [cal("215", "AUTOMATIC", 28, 28), cal("2-66", "HANDWIND", 17, 26), cal("285", "CHRONOGRAPH", 17, 29)] },
];

/** Movement makers: the second top-level manufacturer entry. */
export const movementMakers: Brand[] = [
  { name: "ETA", tier: 1, country: "CH", models: [],
    calibers: [cal("2824-2", "AUTOMATIC", 25, 25.6), cal("2892-A2", "AUTOMATIC", 21, 25.6), cal("2783", "AUTOMATIC", 25, 25.6), cal("2836-2", "AUTOMATIC", 25, 25.6), cal("2801-2", "HANDWIND", 17, 25.6), cal("955.112", "QUARTZ_ELECTRONIC_KINETIC", 7, 23.3)] },
  { name: "Valjoux", tier: 1.5, country: "CH", models: [],
    calibers: [cal("7750", "CHRONOGRAPH", 25, 30), cal("7733", "CHRONOGRAPH", 17, 31), cal("72", "CHRONOGRAPH", 17, 29.5), cal("23", "CHRONOGRAPH", 17, 29.5)] },
  { name: "Felsa", tier: 1, country: "CH", models: [], calibers: [cal("690 Bidynator", "AUTOMATIC", 17, 26), cal("4007N", "AUTOMATIC", 25, 26)] },
  { name: "AS", tier: 0.8, country: "CH", models: [], calibers: [cal("1194", "HANDWIND", 17, 25.6), cal("1916", "AUTOMATIC", 25, 25.6), cal("1686", "AUTOMATIC", 17, 25.6)] },
  { name: "Peseux", tier: 1, country: "CH", models: [], calibers: [cal("7001", "HANDWIND", 17, 23.3), cal("260", "HANDWIND", 17, 26), cal("320", "CHRONOGRAPH", 17, 29)] },
  { name: "Unitas", tier: 0.9, country: "CH", models: [], calibers: [cal("6497", "HANDWIND", 17, 36.6), cal("6498", "HANDWIND", 17, 36.6)] },
  { name: "Miyota", tier: 0.5, country: "JP", models: [], calibers: [cal("8215", "AUTOMATIC", 21, 26), cal("2035", "QUARTZ_ELECTRONIC_KINETIC", 0, 20), cal("0S10", "CHRONOGRAPH", 0, 29)] },
  { name: "FHF", tier: 0.8, country: "CH", models: [], calibers: [cal("96", "HANDWIND", 17, 23.3), cal("ST 96", "HANDWIND", 17, 23.3)] },
  { name: "Landeron", tier: 1.1, country: "CH", models: [], calibers: [cal("248", "CHRONOGRAPH", 17, 29), cal("51", "CHRONOGRAPH", 17, 29)] },
  { name: "Venus", tier: 1.3, country: "CH", models: [], calibers: [cal("175", "CHRONOGRAPH", 17, 29), cal("188", "CHRONOGRAPH", 17, 31)] },
  { name: "Lemania", tier: 1.4, country: "CH", models: [], calibers: [cal("1873", "CHRONOGRAPH", 17, 27), cal("5100", "CHRONOGRAPH", 17, 31)] },
  { name: "Ronda", tier: 0.4, country: "CH", models: [], calibers: [cal("515", "QUARTZ_ELECTRONIC_KINETIC", 0, 23.3), cal("763", "QUARTZ_ELECTRONIC_KINETIC", 1, 25.6)] },
];

/** Makers of crystals, straps, batteries and tools: the third top-level manufacturer entry. */
export const supplyMakers = ["Sternkreuz", "GS", "Bergeon", "Horotec", "Dumont", "Renata", "Hirsch", "Generale Ressorts"] as const;
export type SupplyMaker = (typeof supplyMakers)[number];

export const manufacturerGroups = [
  { name: "Brands", members: brands.map((brand) => brand.name) },
  { name: "Movement makers", members: movementMakers.map((maker) => maker.name) },
  { name: "Parts & tool makers", members: [...supplyMakers] },
] as const;

/** Where the shop buys from; the product's country of origin. */
export const originCountries = ["NL", "DE", "CH", "JP", "PH", "US", "GB", "FR", "IT", "BE"] as const;

/** A product template as staff start from it; category, maker and country are named, the seed finds their ids. */
export type TemplateDraft = Omit<InferInsertModel<typeof productTemplate>, "categoryId" | "manufacturerId" | "countryId"> & {
  category: CategoryKey;
  manufacturer?: string;
  country: (typeof originCountries)[number];
};

export const productTemplates: TemplateDraft[] = [
  {
    templateName: "Signed crown, NOS", templateDescription: "A signed replacement crown from old stock; fill in brand, model and size.",
    name: "{Brand} {Model} crown {size} mm NOS", price: new Decimal("39.95"), isBulk: false,
    category: "crowns", country: "NL",
    caliber: "UNKNOWN", state: "NEW", itemType: "CROWN", gender: "UNISEX",
    condition: "New old stock (NOS), never fitted", dimensions: "{size} mm diameter, tap 0.90 mm", crown: "Signed {Brand}, steel",
    additional: "Photos show the actual item.", additional3: "Please check the fit against your calibre before ordering.",
  },
  {
    templateName: "Seiko 6139 movement for parts", templateDescription: "Non-running 6139 chronograph movements from the parts drawer.",
    name: "Seiko 6139 movement for parts", price: new Decimal("89.00"), isBulk: false,
    category: "chronograph-movements", manufacturer: "Seiko",
    country: "PH", caliber: "CHRONOGRAPH", state: "USED", itemType: "MOVEMENT", gender: "UNISEX",
    condition: "Used, for parts or repair — not running", movement: "Seiko 6139 chronograph, 21 jewels", dimensions: "Ø 27.0 mm",
  },
  {
    templateName: "Sapphire crystal", templateDescription: "Flat sapphire crystals sold in bulk; set the size in the name and dimensions.",
    name: "Sapphire crystal {size} mm", price: new Decimal("24.95"), isBulk: true,
    category: "crystals", manufacturer: "Sternkreuz",
    country: "DE", caliber: "UNKNOWN", state: "NEW", itemType: "CRYSTAL", gender: "UNKNOWN",
    condition: "New, in original packaging", crystal: "Sapphire, flat", dimensions: "{size} mm diameter, 1.0 mm high",
  },
  {
    templateName: "Leather strap 20 mm", templateDescription: "Hirsch calf straps with a steel buckle.",
    name: "Brown calf leather strap 20 mm with steel buckle", price: new Decimal("34.95"), shippingFee: null, isBulk: true,
    category: "straps-bracelets", manufacturer: "Hirsch",
    country: "DE", caliber: "UNKNOWN", state: "NEW", itemType: "LEATHER_STRAP", gender: "UNISEX",
    condition: "New, in original packaging", braceletStrap: "Brown calf leather, padded, stitched", dimensions: "20 mm at the lugs, 18 mm at the buckle",
  },
  {
    templateName: "ETA 2824-2 movement", templateDescription: "Serviced 2824-2 movements for replacements in Swiss watches.",
    name: "ETA 2824-2 automatic movement, running, serviced", price: new Decimal("195.00"), isBulk: false,
    category: "automatic-movements", manufacturer: "ETA",
    country: "CH", caliber: "AUTOMATIC", state: "USED", itemType: "MOVEMENT", gender: "UNISEX",
    condition: "Pre-owned, serviced by our watchmaker", movement: "ETA 2824-2 automatic, 25 jewels", dimensions: "Ø 25.6 mm, height 4.6 mm",
  },
];
