import type { Caliber, ItemType } from "@/lib/enums";

export type SearchTextSource = {
  name: string;
  manufacturer?: string | null;
  category?: string | null;
  caliber?: Caliber | null;
  itemType?: ItemType | null;
  description?: (string | null | undefined)[];
};

/**
 * The text that search runs over for one product: its name, manufacturer, category, caliber, item type and
 * description words, lower-cased. Enum values are written as words ("quartz electronic kinetic") so that a visitor's
 * words match them. Whoever writes a product, its description or a renamed category/manufacturer rewrites this.
 */
export function buildSearchText(source: SearchTextSource): string {
  const enumWords = (value: string | null | undefined) =>
    value && value !== "UNKNOWN" ? value.toLowerCase().replaceAll("_", " ") : "";
  return [
    source.name,
    source.manufacturer ?? "",
    source.category ?? "",
    enumWords(source.caliber),
    enumWords(source.itemType),
    ...(source.description ?? []).map((part) => part ?? ""),
  ]
    .join(" ")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}
