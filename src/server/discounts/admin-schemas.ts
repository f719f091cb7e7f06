import type { Decimal } from "decimal.js";
import { z } from "zod";
import { euroText, percentText } from "@/lib/amount-text";
import { discountTypes, pricingTypes, type DiscountType, type PricingType, type UserRole } from "@/lib/enums";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";
import { normaliseCouponCode } from "./schemas";
import { isShopDateTime, shopDateTimeToDate } from "./shop-time";

export { formatDiscountValue } from "./discount-price";
export { dateToShopDateTime, formatShopDateTime } from "./shop-time";

/**
 * The admin's discounts: the form's schema, parsed by the browser form and the server alike (STYLE.md: one schema
 * per form), and the shapes the list and the edit page read.
 */

/** Where a discount stands (`discountStatus` in in-force.ts). */
export const discountStatuses = ["scheduled", "running", "expired", "inactive"] as const;
export type DiscountStatus = (typeof discountStatuses)[number];

/** The most products a form names one by one; a category or manufacturer adds its products on the server. */
export const MAX_TARGET_PRODUCTS = 5000;
/** The most customers a form names one by one; "every VIP" adds them on the server. */
export const MAX_TARGET_CUSTOMERS = 2000;
/** The most categories or manufacturers one save names. */
export const MAX_TARGET_GROUPS = 50;

/** What a coupon's code may be once normalised (upper case): typeable on any keyboard, no spaces. */
export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

/** A moment typed in the shop's time zone ("2026-05-04T09:00", a datetime-local field); empty for none. */
const shopDateTimeText = text()
  .trim()
  .refine((value) => value === "" || isShopDateTime(value), "must be a date and time, like 4 May 2026 09:00")
  .transform((value) => (value === "" ? null : shopDateTimeToDate(value)));

/** A coupon's usage limit as typed: a whole number of orders; empty for no limit. */
const usageLimitText = z
  .string()
  .trim()
  .refine((value) => value === "" || (/^\d{1,9}$/.test(value) && Number(value) > 0), "must be a whole number of orders, 1 or more")
  .transform((value) => (value === "" ? null : Number(value)));

/** A customer's id (the user table's text key). */
export const customerId = text().trim().min(1).max(100);

/** Who or what a PRODUCT or USER discount goes to; the other kinds have no targets. */
const targetFields = {
  /** PRODUCT: the products that get the discount, named one by one... */
  productIds: z.array(rowId).max(MAX_TARGET_PRODUCTS, `name at most ${MAX_TARGET_PRODUCTS} products one by one; choose a category instead`).prefault([]),
  /** ...and every product of these categories and manufacturers, each with everything below it in its tree. */
  categoryIds: z.array(rowId).max(MAX_TARGET_GROUPS).prefault([]),
  manufacturerIds: z.array(rowId).max(MAX_TARGET_GROUPS).prefault([]),
  /** USER: the customers that get the discount, named one by one, and every VIP customer when `allVips`. */
  customerIds: z.array(customerId).max(MAX_TARGET_CUSTOMERS, `name at most ${MAX_TARGET_CUSTOMERS} customers one by one`).prefault([]),
  allVips: z.boolean().prefault(false),
};

const discountFields = {
  /** The name staff see; for a COUPON the code customers type. */
  name: text().trim().min(1, "Give the discount a name").max(100, "must be at most 100 characters"),
  discountType: z.enum(discountTypes),
  pricingType: z.enum(pricingTypes),
  /** As typed: euros for FIXED (5 or 4.95), a percentage for PERCENT (15 for 15%); read by `readDiscountValue`. */
  value: z.string().max(20),
  active: z.boolean(),
  startsAt: shopDateTimeText,
  expiresAt: shopDateTimeText,
  ...targetFields,
  /** COUPON: the smallest cart (after product discounts) it applies to, in euros; empty for any cart. */
  minOrderValue: z.string().max(20).prefault(""),
  /** COUPON: how many orders may use it; empty for no limit. */
  usageLimit: usageLimitText.prefault(""),
};

type DiscountFields = z.output<z.ZodObject<typeof discountFields>>;

/** A discount as the form's fields give it, read into what is stored. */
export type DiscountFormValues = Omit<DiscountFields, "value" | "minOrderValue"> & { value: Decimal; minOrderValue: Decimal | null };

type Read = { value: Decimal } | { message: string };

/** An amount in euros above zero as typed; `notPositive` says why zero is refused. */
function readPositiveEuro(typed: string, notPositive: string): Read {
  const read = euroText.safeParse(typed);
  if (!read.success) return { message: read.error.issues[0]?.message ?? "must be an amount in euros" };
  return read.data.greaterThan(0) ? { value: read.data } : { message: notPositive };
}

/**
 * A discount's value as typed, read by its pricing type: FIXED euros above zero; PERCENT more than 0 up to 100,
 * stored as the fraction (15 -> 0.15). The schema refuses with the message; the form shows what it reads as the
 * storefront will (`formatDiscountValue`).
 */
export function readDiscountValue(pricingType: PricingType, typed: string): Read {
  const valueText = typed.trim();
  if (valueText === "") return { message: pricingType === "PERCENT" ? "Enter the percentage, like 15" : "Enter the amount in euros, like 5.00" };
  if (pricingType === "FIXED") return readPositiveEuro(valueText, "must be more than €0.00");
  const read = percentText.safeParse(valueText);
  return read.success ? { value: read.data } : { message: read.error.issues[0]?.message ?? "must be a percentage" };
}

/**
 * Reads the value (`readDiscountValue`), checks the window (the end after the start) and the coupon's code, and keeps
 * only the targets and coupon terms of the discount's own type: a GLOBAL discount has no targets, only a COUPON a
 * minimum order value and a usage limit.
 */
function readDiscount<T extends DiscountFields>(fields: T, ctx: z.RefinementCtx): Omit<T, "value" | "minOrderValue"> & { value: Decimal; minOrderValue: Decimal | null } {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  const value = readDiscountValue(fields.pricingType, fields.value);
  if ("message" in value) issue("value", value.message);

  if (fields.startsAt && fields.expiresAt && fields.expiresAt <= fields.startsAt) issue("expiresAt", "must be after the start");

  const coupon = fields.discountType === "COUPON";
  const name = coupon ? normaliseCouponCode(fields.name) : fields.name;
  if (coupon && !COUPON_CODE_PATTERN.test(name)) issue("name", "A code is 3 to 32 letters, digits, - or _, without spaces");

  let minOrderValue: Decimal | null = null;
  const minimumText = fields.minOrderValue.trim();
  if (coupon && minimumText !== "") {
    const minimum = readPositiveEuro(minimumText, "must be more than €0.00, or empty for any cart");
    if ("message" in minimum) issue("minOrderValue", minimum.message);
    else minOrderValue = minimum.value;
  }
  if ("message" in value) return z.NEVER;

  const product = fields.discountType === "PRODUCT";
  const customer = fields.discountType === "USER";
  return {
    ...fields,
    name,
    value: value.value,
    productIds: product ? [...new Set(fields.productIds)] : [],
    categoryIds: product ? [...new Set(fields.categoryIds)] : [],
    manufacturerIds: product ? [...new Set(fields.manufacturerIds)] : [],
    customerIds: customer ? [...new Set(fields.customerIds)] : [],
    allVips: customer && fields.allVips,
    minOrderValue,
    usageLimit: coupon ? fields.usageLimit : null,
  };
}

export const discountFormInput = z.object(discountFields).transform(readDiscount);
export type DiscountFormInput = z.input<typeof discountFormInput>;

export const createDiscountInput = discountFormInput;
export const updateDiscountInput = z.object({ id: rowId, ...discountFields }).transform(readDiscount);
export type UpdateDiscountInput = z.input<typeof updateDiscountInput>;

export const discountIdInput = z.object({ id: rowId });
export const discountActiveInput = z.object({ id: rowId, active: z.boolean() });

export const discountListInput = z.object({
  type: z.enum(discountTypes).optional(),
  status: z.enum(discountStatuses).optional(),
});
export type DiscountListInput = z.input<typeof discountListInput>;

/** The targets a PRODUCT or USER discount would have after saving, to warn before moving products or customers. */
export const discountTargetPreviewInput = z.object({
  /** The discount being edited; none for a new one. */
  id: rowId.optional(),
  discountType: z.enum(["PRODUCT", "USER"]),
  ...targetFields,
});
export type DiscountTargetPreviewInput = z.input<typeof discountTargetPreviewInput>;
export type DiscountTargetPreviewQuery = z.output<typeof discountTargetPreviewInput>;

/** What saving the targets would do: how many hold the discount then, and how many it takes from other discounts. */
export type DiscountTargetPreview = {
  total: number;
  /** Products or customers now holding another discount, which would move to this one. */
  moved: number;
  movedFrom: { discountId: number; name: string; count: number }[];
  /** Products or customers holding this discount now that would lose it. */
  released: number;
};

/** A row of the discounts list. */
export type DiscountRow = {
  id: number;
  name: string;
  discountType: DiscountType;
  pricingType: PricingType;
  /** As stored: a fraction for PERCENT, euros for FIXED. */
  value: Decimal;
  /** As the storefront shows it: -15% or -€5.00. */
  label: string;
  active: boolean;
  startsAt: Date | null;
  expiresAt: Date | null;
  status: DiscountStatus;
  minOrderValue: Decimal | null;
  usageLimit: number | null;
  /** Products (PRODUCT) or customers (USER) holding it; null for the kinds without targets. */
  targets: number | null;
  /** Orders not cancelled that recorded it. */
  uses: number;
  /** What those orders paid for their items. */
  revenue: Decimal;
  updatedAt: Date;
};

export type DiscountTargetProduct = { id: number; name: string };
export type DiscountTargetCustomer = { id: string; name: string | null; email: string; role: UserRole };

/** One discount as the edit page reads it, with the products or customers holding it. */
export type DiscountDetail = DiscountRow & { products: DiscountTargetProduct[]; customers: DiscountTargetCustomer[] };

/** A category or manufacturer to pick, labelled with its path ("Parts › Crowns"); parents too, their products below. */
export type DiscountGroupChoice = { id: number; label: string };
export type DiscountTargetChoices = { categories: DiscountGroupChoice[]; manufacturers: DiscountGroupChoice[] };
