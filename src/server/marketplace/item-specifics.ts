import type { ItemType } from "@/lib/enums";
import type { MarketplaceAspect } from "@/server/integrations/marketplace/port";
import type { CategoryRules } from "./category-rules";
import type { OfferSource } from "./offer-record";

/*
 * eBay's item specifics of a product, filled from what its description says, and checked against its eBay category's
 * rules (category-rules.ts) before anything goes to eBay: a required aspect the product does not fill, or fills with a
 * value a SELECTION_ONLY aspect does not take, keeps the product off eBay with a message naming the aspect and the
 * product field to fill. eBay names aspects in the site's language; each aspect the shop fills is known under the
 * names below, and a category's aspect under another name counts as one the shop has no field for.
 */

/** eBay's longest item specific value, unless the category says otherwise. */
const ASPECT_VALUE_LENGTH = 65;

type AspectKey = "brand" | "model" | "type" | "department" | "movement" | "caliber" | "caseSize" | "caseMaterial" | "referenceNumber" | "features";

/** Each aspect the shop fills: eBay's names for it (English first, as sent when the category's rules are not known) and the product field it comes from. */
const aspectKeys: Record<AspectKey, { names: string[]; field: string }> = {
  brand: { names: ["Brand", "Merk", "Marke"], field: "Manufacturer" },
  model: { names: ["Model", "Modell"], field: "Name (the model after the brand)" },
  type: { names: ["Type", "Typ", "Produktart"], field: "Item type" },
  department: { names: ["Department", "Afdeling", "Abteilung"], field: "Gender" },
  movement: { names: ["Movement", "Uurwerk", "Uhrwerk"], field: "Movement" },
  caliber: { names: ["Caliber", "Calibre", "Kaliber"], field: "Movement" },
  caseSize: { names: ["Case Size", "Kastgrootte", "Gehäusegröße"], field: "Dimensions" },
  caseMaterial: { names: ["Case Material", "Kastmateriaal", "Gehäusematerial"], field: "Bezel (its material)" },
  referenceNumber: { names: ["Reference Number", "Referentienummer", "Referenznummer"], field: "Name (ref. …)" },
  features: { names: ["Features", "Kenmerken", "Besonderheiten"], field: "Caliber" },
};

/** Candidate values per movement kind, eBay's English, Dutch and German spellings; the first the category takes is sent. */
const movementValues = {
  automatic: ["Mechanical (Automatic)", "Automatic", "Mechanisch (automatisch)", "Automatisch", "Automatik"],
  hand: ["Mechanical (Hand-winding)", "Mechanical (Manual)", "Mechanisch (handopwindend)", "Handopwindend", "Handaufzug"],
  quartz: ["Quartz", "Kwarts", "Quarz"],
};

const departmentValues: Record<string, string[]> = {
  MENS: ["Men", "Heren", "Herren"],
  LADIES: ["Women", "Dames", "Damen"],
  UNISEX: ["Unisex Adults", "Unisex", "Unisex-Erwachsene"],
};

const typeValues: Partial<Record<ItemType, string[]>> = {
  WRISTWATCH: ["Wristwatch", "Polshorloge", "Armbanduhr"],
  DIVERS_WATCH: ["Wristwatch", "Polshorloge", "Armbanduhr"],
  POCKET_WATCH: ["Pocket Watch", "Zakhorloge", "Taschenuhr"],
  STOPWATCH: ["Stopwatch", "Stoppuhr"],
  // The shop's older item types name a wristwatch by its movement.
  AUTOMATIC: ["Wristwatch", "Polshorloge", "Armbanduhr"],
  HANDWINDER: ["Wristwatch", "Polshorloge", "Armbanduhr"],
  QUARTZ_ELECTRONIC_KINETIC: ["Wristwatch", "Polshorloge", "Armbanduhr"],
  CHRONOGRAPH: ["Wristwatch", "Polshorloge", "Armbanduhr"],
  MOVEMENT: ["Movement"],
  DIAL: ["Dial"],
  HANDS: ["Hands"],
  HANDS_SET: ["Hands"],
  DIAL_HANDS_SET: ["Dial", "Hands"],
  HOUR_HAND: ["Hands"],
  MINUTE_HAND: ["Hands"],
  SECOND_HAND: ["Hands"],
  CROWN: ["Crown"],
  CROWN_SET: ["Crown"],
  STEM: ["Stem"],
  CRYSTAL: ["Crystal"],
  CASE: ["Case"],
  CASE_BACK: ["Case Back"],
  BEZEL: ["Bezel"],
  BEZEL_INSERT: ["Bezel"],
  BRACELET: ["Band"],
  BRACELET_LINKS: ["Band"],
  LEATHER_STRAP: ["Band"],
  OTHER_STRAP: ["Band"],
  BUCKLE_CLASP_CLIP: ["Buckle"],
  BATTERY: ["Battery"],
  BALANCE_WHEEL: ["Balance"],
  SPRING: ["Mainspring"],
  GASKET: ["Gasket"],
};

/** Item types whose dimensions start with the case size. */
const watchTypes: ReadonlySet<ItemType> = new Set(["WRISTWATCH", "POCKET_WATCH", "DIVERS_WATCH", "STOPWATCH", "AUTOMATIC", "HANDWINDER", "QUARTZ_ELECTRONIC_KINETIC", "CHRONOGRAPH"]);

/** Case materials as the shop's texts say them, with eBay's value; the more precise first. */
const caseMaterials: [RegExp, string][] = [
  [/gold[- ]plated|plaqué/i, "Gold Plated"],
  [/gold[- ]filled|doublé/i, "Gold Filled"],
  [/\b(?:9|14|18)\s?(?:ct|k|kt|carat)\b.*gold|solid gold/i, "Yellow Gold"],
  [/stainless steel|\bsteel\b|edelstahl|staal/i, "Stainless Steel"],
  [/titanium|titan\b/i, "Titanium"],
  [/chrome|chromed/i, "Chrome"],
  [/\bsilver\b(?!\s+(?:dial|pie-pan|sunburst))|\b0\.(?:800|925|935)\b|zilver/i, "Silver"],
  [/\bbrass\b/i, "Brass"],
];

const filled = (value: string | null | undefined) => {
  const text = value?.replace(/\s+/g, " ").trim();
  return text && text !== "N/A" ? text : null;
};

/** The first size in millimetres of a dimensions text ("Ø 38.0 mm, height 11 mm" → "38 mm"). */
export function caseSize(dimensions: string | null | undefined): string | null {
  const match = /(\d+(?:[.,]\d+)?)\s*mm\b/i.exec(dimensions ?? "");
  return match ? `${Number(match[1]!.replace(",", "."))} mm` : null;
}

/** Words after which a product's name no longer names the model. */
const modelStop = /^(?:ref\.?|reference|cal\.?|calibre|caliber|automatic|handwound|hand-wound|manual|quartz|chronograph|ladies'?|men's|gents'?|wristwatch|pocket|movement|with|for|circa|ca\.|in|nos|(?:19|20)\d0s)$/i;
/** Words that end the model only after it began: "Oris Diver" is a model, "Seiko 5 diver" a 5 that is a diver. */
const laterModelStop = /^(?:divers?'?|watch)$/i;

/**
 * The model in a product's name, which names the brand first ("Omega Seamaster 34 mm, 1960s" → "Seamaster"): the
 * words after the brand up to the first that says something else (a reference, a calibre, a size, a dial, a decade).
 */
export function modelFromName(name: string, brand: string | null): string | null {
  if (!brand) return null;
  const text = name.replace(/\s+/g, " ").trim();
  if (!text.toLowerCase().startsWith(`${brand.toLowerCase()} `)) return null;
  const words = text.slice(brand.length).trim().split(" ");
  const model: string[] = [];
  for (const [index, word] of words.entries()) {
    const next = words[index + 1]?.toLowerCase().replace(/[,.;]$/, "");
    const bare = word.replace(/[,;]$/, "");
    // A reference ("145.022", "6119-8460") or a size ends the model, as does a dial's colour ("silver dial").
    if (modelStop.test(bare) || (model.length > 0 && laterModelStop.test(bare)) || /^\d+[.\-/]\d+/.test(bare) || /^\d+(?:[.,]\d+)?mm$/i.test(bare) || next === "mm" || next === "dial") break;
    model.push(bare);
    if (/[,;]$/.test(word)) break;
  }
  return model.length ? model.join(" ") : null;
}

/** The movement's kind from the classification, else from the description's words (a chronograph is either). */
function movementCandidates(source: OfferSource): string[] {
  if (source.caliber === "AUTOMATIC") return movementValues.automatic;
  if (source.caliber === "HANDWIND") return movementValues.hand;
  if (source.caliber === "QUARTZ_ELECTRONIC_KINETIC") return movementValues.quartz;
  const text = `${source.description.movement ?? ""}`.toLowerCase();
  if (/automatic|self-winding|automatik|automatisch/.test(text)) return movementValues.automatic;
  if (/hand ?-?wound|hand-?winding|manual|handaufzug|handopwind/.test(text)) return movementValues.hand;
  if (/quartz|kwarts|quarz/.test(text)) return movementValues.quartz;
  return [];
}

/** What the product says for each aspect the shop fills: candidate values, the best first; empty when it says nothing. */
export function aspectCandidates(source: OfferSource): Record<AspectKey, string[]> {
  const brand = filled(source.manufacturer);
  const model = modelFromName(source.name, brand);
  const reference = /\bref(?:\.|erence)?\s+([A-Za-z0-9][\w.\-/]*)/i.exec(source.name)?.[1]?.replace(/[.,]$/, "");
  const materialText = [source.name, source.description.bezel, source.description.dimensions, source.description.additional3].filter(Boolean).join(" · ");
  const material = caseMaterials.find(([pattern]) => pattern.test(materialText))?.[1];
  const size = watchTypes.has(source.itemType) ? caseSize(source.description.dimensions) : null;
  const type = typeValues[source.itemType] ?? [];
  return {
    brand: brand ? [brand] : [],
    model: model ? [model] : [],
    type: type.length ? type : source.itemType === "UNKNOWN" ? [] : [source.itemType.replace(/_/g, " ").toLowerCase().replace(/^\w/, (c) => c.toUpperCase())],
    department: departmentValues[source.gender] ?? [],
    movement: movementCandidates(source),
    caliber: filled(source.description.movement) ? [filled(source.description.movement)!] : [],
    caseSize: size ? [size] : [],
    caseMaterial: material ? [material] : [],
    referenceNumber: reference ? [reference] : [],
    features: source.caliber === "CHRONOGRAPH" ? ["Chronograph"] : [],
  };
}

const cut = (value: string, maxLength: number | null) => value.slice(0, maxLength ?? ASPECT_VALUE_LENGTH).trim();

const keyOf = (aspectName: string): AspectKey | undefined =>
  (Object.keys(aspectKeys) as AspectKey[]).find((key) => aspectKeys[key].names.some((name) => name.toLowerCase() === aspectName.toLowerCase()));

/** The candidate a category's aspect takes: one of its values in eBay's spelling, or for free text the first candidate. */
function chosenValue(aspect: MarketplaceAspect, candidates: string[]): string | null {
  for (const candidate of candidates) {
    const known = aspect.values.find((value) => value.toLowerCase() === candidate.toLowerCase());
    if (known) return known;
  }
  return aspect.mode === "FREE_TEXT" && candidates[0] ? candidates[0] : null;
}

export type ItemSpecifics = {
  aspects: Record<string, string[]>;
  /** What keeps the product off eBay, one message per required aspect it does not fill; empty when none. */
  missing: string[];
};

/**
 * The item specifics sent for a product. Without its category's rules: every aspect the product fills, under its
 * English name. With them: the category's aspects under eBay's names and values, then the product's other aspects
 * (eBay takes item specifics of its own naming too), and a message for each required aspect it cannot fill.
 */
export function itemSpecifics(source: OfferSource, rules?: CategoryRules | null): ItemSpecifics {
  const candidates = aspectCandidates(source);
  const aspects: Record<string, string[]> = {};
  const missing: string[] = [];
  const used = new Set<AspectKey>();
  const categoryName = rules?.categoryName ?? source.category ?? `category ${source.ebayCategoryId}`;
  for (const aspect of rules?.aspects ?? []) {
    const key = keyOf(aspect.name);
    if (key) used.add(key);
    const value = key ? chosenValue(aspect, candidates[key]) : null;
    if (value) {
      aspects[aspect.name] = [cut(value, aspect.maxLength)];
      continue;
    }
    if (!aspect.required) continue;
    if (!key) missing.push(`eBay requires ${aspect.name} for ${categoryName}: the shop has no product field for it`);
    else {
      const refused = candidates[key][0] ? ` ("${candidates[key][0]}" is not one of eBay's values)` : "";
      missing.push(`eBay requires ${aspect.name} for ${categoryName}: fill the product's ${aspectKeys[key].field}${refused}`);
    }
  }
  for (const key of Object.keys(aspectKeys) as AspectKey[]) {
    const value = candidates[key][0];
    if (!used.has(key) && value) aspects[aspectKeys[key].names[0]!] = [cut(value, null)];
  }
  return { aspects, missing };
}
