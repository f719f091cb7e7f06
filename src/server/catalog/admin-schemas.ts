import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { listPageInput } from "@/lib/list-page";
import { descriptionFieldLabels } from "@/lib/labels";
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
import { purchaseLineInput } from "@/server/stock/schemas";
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
  /** A fixed price on eBay; left empty, eBay gets the price with the shop's eBay markup. */
  ebayPrice: euroText.refine((value) => Number(value) > 0, "must be more than €0, or empty for the price with the eBay markup").optional().or(z.literal("").transform(() => undefined)),
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

/**
 * Stock a new product starts with, booked in the transaction that creates it: pieces counted in the shop, booked
 * through the ledger as an inventory correction with its reason, or pieces bought, as a purchase in a box still OPEN
 * (they reach stock when the box arrives and is exploded).
 */
export const openingStockInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("correction"),
    quantity: z.number().int().min(1, "At least one piece").max(100_000, "At most 100,000 pieces"),
    /** The correction's reason, as the stock tab's corrections say why: "Opening stock" unless staff say more. */
    comment: text().trim().min(1, "Say where the pieces come from").max(500),
  }),
  // Bought into an open box: the same purchase as the box page books, with its bounds.
  purchaseLineInput.extend({ kind: z.literal("box"), boxId: id }),
]);
export type OpeningStockInput = z.input<typeof openingStockInput>;

/** A new product is a draft, on no channel until staff publish it; the form's channel boxes are not read. */
export const createProductInput = productFormInput.omit({ wsStatus: true, ebayStatus: true }).extend({ openingStock: openingStockInput.optional() });
export type CreateProductInput = z.input<typeof createProductInput>;
export type CreateProductValues = z.output<typeof createProductInput>;
export const updateProductInput = productFormInput.extend({ id });

// Publishing ---------------------------------------------------------------------------------------------------

/** Where a product is published: the web shop unless staff untick it, eBay when they tick it. */
export const publishChannelsInput = z
  .object({ web: z.boolean(), ebay: z.boolean() })
  .refine((channels) => channels.web || channels.ebay, "Choose the web shop, eBay or both");
export type PublishChannels = z.output<typeof publishChannelsInput>;
export const publishProductInput = z.object({ id, channels: publishChannelsInput });

/** A template's blank, such as "{size}" in "Sapphire crystal {size} mm": staff fill it in before the product goes live. */
const PLACEHOLDER = /\{[^{}\n]{1,40}\}/g;

/** The fields of a product a placeholder may be left in: its name and its description's text. */
export const placeholderFields = ["name", ...descriptionTextFields] as const;
export type PlaceholderField = (typeof placeholderFields)[number];

/**
 * The placeholders left unfilled in a product's name and description, by field, in the form's order. The catalogue
 * refuses to publish a product while there are any (a draft may keep them); the form marks the fields with it.
 */
export function unfilledPlaceholders(values: Partial<Record<PlaceholderField, string | null | undefined>>): { field: PlaceholderField; placeholders: string[] }[] {
  return placeholderFields
    .map((field) => ({ field, placeholders: [...new Set(values[field]?.match(PLACEHOLDER) ?? [])] }))
    .filter((found) => found.placeholders.length > 0);
}

/** A field as the product form labels it, for messages. */
export function placeholderFieldLabel(field: PlaceholderField): string {
  return field === "name" ? "Name" : descriptionFieldLabels[field];
}

/** Why a product with unfilled placeholders cannot be published: each placeholder, by the field it is in. */
export function placeholderRefusal(found: ReturnType<typeof unfilledPlaceholders>): string {
  return `Fill in the placeholders before publishing: ${found.map((entry) => `${entry.placeholders.join(", ")} in ${placeholderFieldLabel(entry.field)}`).join("; ")}.`;
}

// Bulk actions on the product table ---------------------------------------------------------------------------

/** The most products one bulk action changes: a page of the table at its largest. */
export const MAX_BULK_PRODUCTS = 200;
const bulkProductIds = z.array(id).min(1, "Select at least one product").max(MAX_BULK_PRODUCTS);

/** A price change: up or down by a percentage or by an amount in euros. */
export const priceChangeInput = z.object({
  by: z.enum(["percent", "amount"]),
  direction: z.enum(["up", "down"]),
  value: z
    .string()
    .trim()
    .regex(/^\d{1,8}([.,]\d{1,2})?$/, "must be a number like 10 or 2.50")
    .transform((value) => value.replace(",", "."))
    .refine((value) => Number(value) > 0, "must be more than 0"),
});
export type PriceChange = z.output<typeof priceChangeInput>;

export const bulkProductInput = z.discriminatedUnion("action", [
  z.object({ action: z.literal("publish"), productIds: bulkProductIds, channels: publishChannelsInput }),
  z.object({ action: z.literal("unpublish"), productIds: bulkProductIds }),
  z.object({ action: z.literal("category"), productIds: bulkProductIds, categoryId: id }),
  z.object({ action: z.literal("price"), productIds: bulkProductIds, change: priceChangeInput }),
  purchaseLineInput.extend({ action: z.literal("box"), productIds: bulkProductIds, boxId: id }),
]);
export type BulkProductInput = z.input<typeof bulkProductInput>;
export type BulkProductAction = z.output<typeof bulkProductInput>;

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
  /** Drafts (never published) or published products. */
  published: z.enum(["draft", "published"]).optional(),
});
export type AdminProductListInput = z.input<typeof adminProductListInput>;
export type AdminProductListQuery = z.output<typeof adminProductListInput>;

/** A row of the admin's product table: some of the product's own fields, with its names and first picture. */
export type AdminProductRow = Pick<AdminProduct, "id" | "name" | "price" | "stock" | "wsStatus" | "ebayStatus" | "publishedAt" | "isBulk" | "createdAt" | "updatedAt"> & {
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
  /** The fixed eBay price; null: the price with the shop's eBay markup. */
  ebayPrice: Decimal | null;
  shippingFee: Decimal | null;
  stock: number;
  isBulk: boolean;
  categoryId: number | null;
  manufacturerId: number | null;
  countryId: number | null;
  wsStatus: ListingStatus;
  ebayStatus: ListingStatus;
  /** When the product was first published; null while it is a draft, on no channel. */
  publishedAt: Date | null;
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
  /** Where each maker the shop knows the country of is based (maker id → country id): a new product's default country of origin. */
  makerCountries: Record<number, number>;
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
