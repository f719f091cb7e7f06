import { Decimal } from "decimal.js";
import type { InferInsertModel } from "drizzle-orm";
import { z } from "zod";
import { calibers } from "@/lib/enums";
import { productClassification } from "@/server/catalog/admin-schemas";
import { descriptionFields } from "@/server/catalog/schemas";
import type { productTemplate } from "@/server/db/schema";
import catalogue from "./catalogue.json";

/**
 * The demo catalogue's fixed data: the category tree, the brands and movement makers with the models and calibers
 * collectors know them by, and the product templates staff start from. The data itself is `catalogue.json`, checked
 * here as it is read; products are generated from it in `products.ts`.
 */

/** The keys of the categories products are filed in (the leaves of the tree); `products.ts` files by these. */
export const categoryKeys = [
  "automatic-watches", "handwound-watches", "quartz-watches", "chronographs", "divers-watches",
  "pocket-watches-open-face", "stopwatches",
  "automatic-movements", "handwound-movements", "quartz-movements", "chronograph-movements",
  "crystals", "crowns", "dials", "hands", "straps-bracelets", "bezels", "case-parts", "movement-parts",
  "batteries-gaskets", "parts-lots",
  "hand-tools", "workshop-supplies",
] as const;
export type CategoryKey = (typeof categoryKeys)[number];

/** Makers of crystals, straps, batteries and tools: the third top-level manufacturer entry. */
export const supplyMakers = ["Sternkreuz", "GS", "Bergeon", "Horotec", "Dumont", "Renata", "Hirsch", "Generale Ressorts"] as const;
export type SupplyMaker = (typeof supplyMakers)[number];

/** Countries of origin for the demo pieces whose maker is not a brand or movement maker with a known country (parts, tools). */
export const originCountries = ["NL", "DE", "CH", "JP", "PH", "US", "GB", "FR", "IT", "BE"] as const;

const categoryKey = z.enum(categoryKeys);

/** A top-level category; its children are listed on eBay under its eBay category. */
const topCategory = z.object({
  key: z.string(),
  name: z.string(),
  ebayMainCategory: z.string(),
  /** `relatedTo`: the key of another category whose products are shown as related. */
  children: z.array(z.object({ key: categoryKey, name: z.string(), relatedTo: categoryKey.optional() })),
});

/** [code, kind, jewels, diameter in mm], as a collector's reference lists a calibre. */
const caliberSpec = z
  .tuple([z.string(), z.enum(calibers).exclude(["UNKNOWN"]), z.number().int(), z.number()])
  .transform(([code, kind, jewels, diameter]) => ({ code, kind, jewels, diameter }));
export type CaliberSpec = z.output<typeof caliberSpec>;

const brand = z.object({
  name: z.string(),
  /** Price factor against an average brand: collectors pay more for an Omega than for an Orient. */
  tier: z.number().positive(),
  country: z.string().length(2),
  models: z.array(z.string()),
  calibers: z.array(caliberSpec).min(1),
});
export type Brand = z.output<typeof brand>;

/** A product template as staff start from it; category, maker and country are named, the seed finds their ids. */
export type TemplateDraft = Omit<InferInsertModel<typeof productTemplate>, "categoryId" | "manufacturerId" | "countryId"> & {
  category: CategoryKey;
  manufacturer?: string;
  country: (typeof originCountries)[number];
};

const template = z.object({
  templateName: z.string(),
  templateDescription: z.string(),
  name: z.string(),
  price: z.string().transform((value) => new Decimal(value)),
  shippingFee: z.null().optional(),
  isBulk: z.boolean(),
  category: categoryKey,
  manufacturer: z.string().optional(),
  country: z.enum(originCountries),
  ...productClassification,
  ...Object.fromEntries(descriptionFields.map((field) => [field, z.string().optional()])),
});

const data = z
  .object({ categories: z.array(topCategory), brands: z.array(brand), movementMakers: z.array(brand), templates: z.array(template) })
  .refine(
    ({ categories }) => categories.flatMap((top) => top.children.map((child) => child.key)).sort().join() === [...categoryKeys].sort().join(),
    "The category tree's leaves must be exactly the category keys, each once",
  )
  .parse(catalogue);

export type CategoryNode = { key: string; name: string; ebayMainCategory?: string; relatedTo?: string; children?: CategoryNode[] };

export const categoryTree: CategoryNode[] = data.categories.map((top) => ({
  ...top,
  children: top.children.map((child) => ({ ...child, ebayMainCategory: top.ebayMainCategory })),
}));

/** The watch brands, in the order the navigation lists them (the children of the first manufacturer entry). */
export const brands: Brand[] = data.brands;

/** Movement makers: the second top-level manufacturer entry. */
export const movementMakers: Brand[] = data.movementMakers;

export const manufacturerGroups = [
  { name: "Brands", members: brands.map((brand) => brand.name) },
  { name: "Movement makers", members: movementMakers.map((maker) => maker.name) },
  { name: "Parts & tool makers", members: [...supplyMakers] },
] as const;

export const productTemplates: TemplateDraft[] = data.templates;
