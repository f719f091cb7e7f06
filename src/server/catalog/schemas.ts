import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";
import { calibers, genders, itemTypes, productStates, type Caliber, type Gender, type ItemType, type ProductState } from "@/lib/enums";

/** Products per page of a listing; fixed on the server so a client cannot ask for the whole catalogue at once. */
export const PRODUCT_PAGE_SIZE = 24;

const decimalText = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((value) => /^\d{1,10}(\.\d{1,2})?$/.test(value), "must be an amount in euros, like 49.95");

export const productOrderBy = z.union([
  z.object({ relevance: z.literal("desc") }).strict(),
  z.object({ price: z.enum(["asc", "desc"]) }).strict(),
  z.object({ createdAt: z.enum(["asc", "desc"]) }).strict(),
  z.object({ name: z.enum(["asc", "desc"]) }).strict(),
]);
export type ProductOrderBy = z.infer<typeof productOrderBy>;

export const getManyProductsInput = z.object({
  search: text().trim().max(200).optional(),
  orderBy: productOrderBy.optional(),
  page: z.number().int().min(1).max(10_000).default(1),
  /** Categories and manufacturers: a product matches one of them, each including everything below it in its tree. */
  categoryId: z.array(rowId).max(50).optional(),
  manufacturerId: z.array(rowId).max(50).optional(),
  caliber: z.array(z.enum(calibers)).max(calibers.length).optional(),
  state: z.array(z.enum(productStates)).max(productStates.length).optional(),
  gender: z.array(z.enum(genders)).max(genders.length).optional(),
  itemType: z.array(z.enum(itemTypes)).max(itemTypes.length).optional(),
  priceMin: decimalText.optional(),
  priceMax: decimalText.optional(),
  inStock: z.boolean().optional(),
  /** Only products with a discount in force. */
  onSale: z.boolean().optional(),
  /** Also count, for every filter, how many matches each of its options would give (the /search side panel). */
  facets: z.boolean().default(false),
});
export type GetManyProductsInput = z.input<typeof getManyProductsInput>;
export type GetManyProductsQuery = z.output<typeof getManyProductsInput>;

/** The product card of SPEC section 3, plus stock and the image address so a card can show both. */
export type ProductCard = {
  id: number;
  manufacturer: string | null;
  name: string;
  price: Decimal;
  category: string | null;
  caliber: Caliber | null;
  state: ProductState;
  itemType: ItemType;
  gender: Gender;
  discount: { value: string; discountedPrice: Decimal } | null;
  isNew?: boolean;
  createdAt: Date;
  stock: number;
  image: string;
};

/** One option of a tree filter (category, manufacturer) with the matches below it; children are nested options. */
export type TreeFacetOption = { id: number; name: string; count: number; children: TreeFacetOption[] };

export type FacetCount<V extends string> = { value: V; count: number };

/**
 * For each filter, how many products each option would give with the search and every other filter applied, so
 * that ticking an option never leads to an empty page. UNKNOWN never appears as an option.
 *
 * Counting stops after `MATCH_COUNT_LIMIT` products (see the service): when more match, `exact` is false, every
 * count is a lower bound (shown as "312+"), an option none of the counted products has is missing and the price
 * range is that of the counted products.
 */
export type ProductFacets = {
  category: TreeFacetOption[];
  manufacturer: TreeFacetOption[];
  caliber: FacetCount<Caliber>[];
  state: FacetCount<ProductState>[];
  gender: FacetCount<Gender>[];
  itemType: FacetCount<ItemType>[];
  price: { min: Decimal; max: Decimal } | null;
  inStock: number;
  exact: boolean;
};

export type ProductPage = {
  products: ProductCard[];
  /**
   * `totalItems` is exact when `totalItemsExact` is; otherwise more products match and counting stopped at
   * `totalItems` (shown as "1,000+"), and `totalPages` is the pages known so far.
   */
  pagination: { page: number; pageSize: number; totalItems: number; totalItemsExact: boolean; totalPages: number };
  /** Present when the input asked for facets. */
  facets: ProductFacets | null;
};

export const productIdInput = z.coerce.number().pipe(rowId);

/** Every description field of SPEC section 3 that the product page shows, in the order it shows them. */
export const descriptionFields = [
  "condition", "movement", "dimensions", "serialNumber", "dialHands", "crystal", "bezel", "crown", "braceletStrap",
  "language", "additional", "additional2", "additional3",
] as const;
export type DescriptionField = (typeof descriptionFields)[number];

/** The product page: the card plus every description field, all pictures and related products. */
export type ProductDetail = ProductCard & {
  categoryId: number | null;
  manufacturerId: number | null;
  /** Addresses of the product's pictures, first picture first; at least one. */
  images: string[];
  description: Partial<Record<DescriptionField, string | null>>;
  related: ProductCard[];
};
