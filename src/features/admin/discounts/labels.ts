import type { AdminBadgeTone } from "@/components/ui/admin-badge";
import type { DiscountType } from "@/lib/enums";
import type { DiscountStatus } from "@/server/discounts/admin-schemas";

/** The four kinds as staff read them. */
export const discountTypeLabels: Record<DiscountType, string> = {
  PRODUCT: "Products",
  GLOBAL: "Whole shop",
  USER: "Customers",
  COUPON: "Coupon",
};

/** What each kind does, under the kind's choice in the form. */
export const discountTypeHints: Record<DiscountType, string> = {
  PRODUCT: "Lowers the price of chosen products, or of every product of a category or manufacturer.",
  GLOBAL: "Lowers the price of every product in the shop; a product's own discount wins when it takes more off.",
  USER: "Takes a share off the cart of chosen customers, or of every VIP.",
  COUPON: "Takes a share off the cart of whoever enters the code at checkout.",
};

export const discountStatusLabels: Record<DiscountStatus, string> = {
  running: "Running",
  scheduled: "Scheduled",
  expired: "Expired",
  inactive: "Switched off",
};

export const discountStatusTones: Record<DiscountStatus, AdminBadgeTone> = {
  running: "success",
  scheduled: "info",
  expired: "neutral",
  inactive: "warning",
};
