import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { listPageInput } from "@/lib/list-page";
import { lineText, text } from "@/lib/text";
import {
  calibers,
  genders,
  itemTypes,
  listingStatuses,
  productStates,
  type ItemType,
  type ListingStatus,
} from "@/lib/enums";
import type { Page } from "@/server/db/page";
import { descriptionFields, type DescriptionField } from "./schemas";

/**
 * The admin's product and template shapes. The form schemas are used by the browser form and the server alike
 * (STYLE.md: one schema per form), so a value the form accepts is one the server accepts.
 */

const id = rowId;
const euroText = z
  .string()
  .trim()
  .regex(/^\d{1,10}([.,]\d{1,2})?$/, "must be an amount in euros, like 49.95")
  .transform((value) => value.replace(",", "."));
/** The range `euroText` reads, for the product form's price fields to hold to. */
export const productEuroRange = { min: 0, max: 9_999_999_999.99, step: 0.01 };
const optionalText = text()
  .trim()
  .max(2000)
  .optional()
  .transform((value) => (value ? value : null));

/** The description's free-text fields, in the order the form shows them: the product page's order. */
export const descriptionTextFields = descriptionFields;
export type DescriptionTextField = DescriptionField;

/** The fields a product cannot be saved without; the form marks them with an asterisk. */
export const requiredProductFields = [
  "name", "price", "categoryId", "manufacturerId", "caliber", "state", "itemType", "gender", "condition",
] as const;

/** Every free-text description field as an optional entry; a product then requires its condition. */
const optionalDescriptionText = Object.fromEntries(descriptionTextFields.map((field) => [field, optionalText])) as Record<
  DescriptionTextField,
  typeof optionalText
>;

/** The four choices that classify every product (the product form's selects). */
export const productClassification = { caliber: z.enum(calibers), state: z.enum(productStates), itemType: z.enum(itemTypes), gender: z.enum(genders) };
export type ProductClassification = z.output<z.ZodObject<typeof productClassification>>;

const descriptionShape = {
  ...productClassification,
  ...optionalDescriptionText,
  condition: text().trim().min(1, "Describe the condition").max(2000),
};

export const productFormInput = z.object({
  /** One line: the name is a line of its own on packing slips, invoices and pick lists. */
  name: lineText("The name").min(1, "Give the product a name").max(200),
  price: euroText,
  shippingFee: euroText.optional().or(z.literal("").transform(() => undefined)),
  isBulk: z.boolean(),
  categoryId: id,
  manufacturerId: id,
  countryId: id.nullable(),
  wsStatus: z.enum(listingStatuses),
  ebayStatus: z.enum(listingStatuses),
  ...descriptionShape,
});
export type ProductFormInput = z.input<typeof productFormInput>;
export type ProductFormValues = z.output<typeof productFormInput>;

export const createProductInput = productFormInput;
export const updateProductInput = productFormInput.extend({ id });

export const productIdInput = z.object({ id });
/** One product named by `productId`, for what staff see or do about it: its pictures, its eBay quantity. */
export const oneProductInput = z.object({ productId: id });

export const adminProductSortColumns = ["id", "name", "price", "stock", "createdAt", "updatedAt"] as const;
export type AdminProductSortColumn = (typeof adminProductSortColumns)[number];

export const adminProductListInput = z.object({
  /** Words that must all occur in the product's search text, or a product id. */
  search: text().trim().max(200).optional(),
  sort: z.enum(adminProductSortColumns).default("createdAt"),
  direction: z.enum(["asc", "desc"]).default("desc"),
  ...listPageInput.shape,
  categoryId: id.optional(),
  manufacturerId: id.optional(),
  wsStatus: z.enum(listingStatuses).optional(),
  ebayStatus: z.enum(listingStatuses).optional(),
  itemType: z.enum(itemTypes).optional(),
  stock: z.enum(["in", "out", "low"]).optional(),
});
export type AdminProductListInput = z.input<typeof adminProductListInput>;
export type AdminProductListQuery = z.output<typeof adminProductListInput>;

/** A row of the admin's product table: some of the product's own fields, with its names and first picture. */
export type AdminProductRow = Pick<AdminProduct, "id" | "name" | "price" | "stock" | "wsStatus" | "ebayStatus" | "isBulk" | "createdAt" | "updatedAt"> & {
  manufacturer: string | null;
  category: string | null;
  itemType: ItemType | null;
  image: string;
};

export type AdminProductPage = Page<AdminProductRow>;

/** A product as the admin's form edits it. */
export type AdminProduct = {
  id: number;
  name: string;
  price: Decimal;
  shippingFee: Decimal | null;
  stock: number;
  isBulk: boolean;
  categoryId: number | null;
  manufacturerId: number | null;
  countryId: number | null;
  wsStatus: ListingStatus;
  ebayStatus: ListingStatus;
  createdAt: Date;
  updatedAt: Date;
} & ProductClassification &
  Record<DescriptionTextField, string | null>;

// Templates ---------------------------------------------------------------------------------------------------

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .enum(values)
    .optional()
    .nullable()
    .transform((value) => value ?? null);

export const templateFormInput = z.object({
  templateName: text().trim().min(1, "Name the template").max(120),
  templateDescription: optionalText,
  name: optionalText,
  price: euroText.optional().or(z.literal("").transform(() => undefined)),
  shippingFee: euroText.optional().or(z.literal("").transform(() => undefined)),
  isBulk: z.boolean().default(false),
  categoryId: id.nullable().default(null),
  manufacturerId: id.nullable().default(null),
  countryId: id.nullable().default(null),
  caliber: optionalEnum(calibers),
  state: optionalEnum(productStates),
  itemType: optionalEnum(itemTypes),
  gender: optionalEnum(genders),
  ...optionalDescriptionText,
});
export type TemplateFormInput = z.input<typeof templateFormInput>;
export const updateTemplateInput = templateFormInput.extend({ id });
export const templateIdInput = z.object({ id });

/**
 * A template: a product's fields under a name staff find it by. Only the name is required (the form's rule), so
 * every field a product must have may be left open here.
 */
export type ProductTemplate = { id: number; templateName: string; templateDescription: string | null; updatedAt: Date } & Pick<
  AdminProduct,
  "shippingFee" | "isBulk" | "categoryId" | "manufacturerId" | "countryId" | DescriptionTextField
> & { [K in "name" | "price" | keyof ProductClassification]: AdminProduct[K] | null };

/** A template in the list of templates. */
export type ProductTemplateSummary = Pick<ProductTemplate, "id" | "templateName" | "templateDescription" | "name" | "itemType" | "updatedAt">;

// Form choices ------------------------------------------------------------------------------------------------

export type Choice = { id: number; label: string };
export type ProductFormChoices = {
  categories: Choice[];
  manufacturers: Choice[];
  countries: Choice[];
  /** productSelectOptions grouped by the field (selectRow) they belong to. */
  selectOptions: Partial<Record<DescriptionTextField, string[]>>;
};

// Images ------------------------------------------------------------------------------------------------------

export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
export const MAX_IMAGES_PER_PRODUCT = 12;

export type ProductImage = { position: number; key: string; url: string; size: number };

export const reorderImagesInput = z.object({
  productId: id,
  /** The current positions in their new order: [2, 1, 3] makes the second image the first. */
  order: z.array(z.number().int().min(1)).min(1).max(MAX_IMAGES_PER_PRODUCT),
});
export const imagePositionInput = z.object({ productId: id, position: z.number().int().min(1) });
