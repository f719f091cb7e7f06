import type { Caliber, Gender, ItemType, ProductState } from "@/lib/enums";

/** The four fields every product is classified by (`classificationColumns`). */
export type ProductClassification = { caliber: Caliber; state: ProductState; itemType: ItemType; gender: Gender };

/** The classification as read through a left join on the product's description: null where it has none. */
type ReadClassification = { [Field in keyof ProductClassification]: ProductClassification[Field] | null };

/**
 * A product's classification: one without a description counts as UNKNOWN for every field, which is what a new
 * description row holds until staff classify the piece.
 */
export function classificationOf(row: ReadClassification): ProductClassification {
  return { caliber: row.caliber ?? "UNKNOWN", state: row.state ?? "UNKNOWN", itemType: row.itemType ?? "UNKNOWN", gender: row.gender ?? "UNKNOWN" };
}
