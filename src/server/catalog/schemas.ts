import type { Decimal } from "decimal.js";
import { z } from "zod";
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
  search: z.string().trim().max(200).optional(),
  orderBy: productOrderBy.optional(),
  page: z.number().int().min(1).max(10_000).default(1),
  /** A category or manufacturer includes everything below it in its tree. */
  categoryId: z.number().int().positive().optional(),
  manufacturerId: z.number().int().positive().optional(),
  caliber: z.array(z.enum(calibers)).max(calibers.length).optional(),
  state: z.array(z.enum(productStates)).max(productStates.length).optional(),
  gender: z.array(z.enum(genders)).max(genders.length).optional(),
  itemType: z.array(z.enum(itemTypes)).max(itemTypes.length).optional(),
  priceMin: decimalText.optional(),
  priceMax: decimalText.optional(),
  inStock: z.boolean().optional(),
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

export type ProductPage = {
  products: ProductCard[];
  pagination: { page: number; pageSize: number; totalItems: number; totalPages: number };
};
