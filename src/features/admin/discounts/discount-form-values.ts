import { percentAsTyped } from "@/lib/amount-text";
import type { DiscountType, PricingType } from "@/lib/enums";
import {
  dateToShopDateTime,
  formatDiscountValue,
  readDiscountValue,
  type DiscountDetail,
  type DiscountFormInput,
  type DiscountTargetCustomer,
  type DiscountTargetPreviewInput,
  type DiscountTargetProduct,
} from "@/server/discounts/admin-schemas";

// The discount form's values and how they turn into what the server reads: a saved discount as the form shows it, the
// form as the schema reads it, the targets preview's question and the value as the shop will show it.

/** The form's values: text as typed, and the chosen products and customers with the names shown for them. */
export type DiscountFormValues = {
  name: string;
  discountType: DiscountType;
  pricingType: PricingType;
  value: string;
  active: boolean;
  startsAt: string;
  expiresAt: string;
  products: DiscountTargetProduct[];
  categoryIds: number[];
  manufacturerIds: number[];
  customers: DiscountTargetCustomer[];
  allVips: boolean;
  minOrderValue: string;
  usageLimit: string;
};

export const required = ["name", "value"] as const;

export const fieldLabels: Record<string, string> = {
  name: "Name",
  value: "Value",
  startsAt: "Starts",
  expiresAt: "Ends",
  minOrderValue: "Minimum order value",
  usageLimit: "Usage limit",
  productIds: "Products",
  customerIds: "Customers",
};

export function valuesOf(discount: DiscountDetail | undefined): DiscountFormValues {
  if (!discount) {
    return {
      name: "", discountType: "PRODUCT", pricingType: "PERCENT", value: "", active: true, startsAt: "", expiresAt: "",
      products: [], categoryIds: [], manufacturerIds: [], customers: [], allVips: false, minOrderValue: "", usageLimit: "",
    };
  }
  return {
    name: discount.name,
    discountType: discount.discountType,
    pricingType: discount.pricingType,
    // A percentage is stored as a fraction (0.15) and typed as the percentage (15).
    value: discount.pricingType === "PERCENT" ? percentAsTyped(discount.value) : discount.value.toFixed(2),
    active: discount.active,
    startsAt: discount.startsAt ? dateToShopDateTime(discount.startsAt) : "",
    expiresAt: discount.expiresAt ? dateToShopDateTime(discount.expiresAt) : "",
    products: discount.products,
    categoryIds: [],
    manufacturerIds: [],
    customers: discount.customers,
    allVips: false,
    minOrderValue: discount.minOrderValue ? discount.minOrderValue.toFixed(2) : "",
    usageLimit: discount.usageLimit ? String(discount.usageLimit) : "",
  };
}

/** The form's values as the schema reads them: the chosen products and customers by id. */
export function inputOf({ products, customers, ...values }: DiscountFormValues): DiscountFormInput {
  return { ...values, productIds: products.map((product) => product.id), customerIds: customers.map((customer) => customer.id) };
}

/** What the targets would ask the server about, or null when the kind has none or nothing is chosen yet. */
export function previewInputOf(values: DiscountFormValues, id: number | undefined): DiscountTargetPreviewInput | null {
  if (values.discountType !== "PRODUCT" && values.discountType !== "USER") return null;
  const input = inputOf(values);
  const chosen = values.discountType === "PRODUCT" ? input.productIds!.length + input.categoryIds!.length + input.manufacturerIds!.length : input.customerIds!.length + (input.allVips ? 1 : 0);
  if (chosen === 0 && id === undefined) return null;
  return {
    id,
    discountType: values.discountType,
    productIds: input.productIds,
    categoryIds: input.categoryIds,
    manufacturerIds: input.manufacturerIds,
    customerIds: input.customerIds,
    allVips: input.allVips,
  };
}

/** How the storefront will show the typed value (-15%, -€5.00), or null while it is not a valid value. */
export function shownValue(pricingType: PricingType, typed: string): string | null {
  const read = readDiscountValue(pricingType, typed);
  return "value" in read ? formatDiscountValue({ pricingType, value: read.value }) : null;
}
