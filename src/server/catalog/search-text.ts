import type { Caliber, ItemType } from "@/lib/enums";
import type { DescriptionField } from "./schemas";

/** The value a description field holds when it does not apply to a product (a strap has no crown); never searched. */
export const NOT_APPLICABLE = "Not applicable";

/**
 * The description fields search reads: what the product is and how it looks. Serial numbers, the day-wheel language
 * and the free notes (shipping, provenance) are left out, because words that every listing shares would match every
 * search for them.
 */
export const searchedDescriptionFields = [
  "movement", "dimensions", "dialHands", "crystal", "bezel", "crown", "braceletStrap", "condition",
] as const satisfies readonly DescriptionField[];

export type SearchTextSource = {
  name: string;
  manufacturer?: string | null;
  category?: string | null;
  caliber?: Caliber | null;
  itemType?: ItemType | null;
  /** The product's whole description; this module picks what is searched. */
  description?: Partial<Record<DescriptionField, string | null>>;
};

/**
 * The text that search runs over for one product: its name, manufacturer, category, caliber, item type and
 * the searched description fields, lower-cased. Enum values are written as words ("quartz electronic kinetic") so
 * that a visitor's words match them. Whoever writes a product (the seed, the admin save) or renames its
 * category or manufacturer rewrites this.
 */
export function buildSearchText(source: SearchTextSource): string {
  const enumWords = (value: string | null | undefined) =>
    value && value !== "UNKNOWN" ? value.toLowerCase().replaceAll("_", " ") : "";
  const description = searchedDescriptionFields
    .map((field) => source.description?.[field] ?? "")
    .filter((value) => value !== NOT_APPLICABLE);
  return [source.name, source.manufacturer ?? "", source.category ?? "", enumWords(source.caliber), enumWords(source.itemType), ...description]
    .join(" ")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}
