import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";
import type { OrderStatus, UserRole } from "@/lib/enums";

const requiredText = (label: string, max = 120) => text().trim().min(1, `${label} is required`).max(max);
const optionalText = (max = 120) =>
  text()
    .trim()
    .max(max)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null));

export const updateProfileInput = z.object({ name: requiredText("Name", 80) });
export type UpdateProfileInput = z.input<typeof updateProfileInput>;

/** One schema for the address form and the server (STYLE: one schema shared by form and procedure). */
export const addressInput = z.object({
  firstName: requiredText("First name"),
  lastName: requiredText("Last name"),
  companyName: optionalText(),
  street: requiredText("Street"),
  houseNumber: requiredText("House number", 20),
  addressLine2: optionalText(),
  postCode: requiredText("Postcode", 20),
  city: requiredText("City"),
  countryCode: text().trim().length(2, "Choose a country").toUpperCase(),
  state: optionalText(),
  phoneNumber: optionalText(40),
  email: z.union([z.literal(""), z.email("Enter a valid e-mail address")]).optional().nullable().transform((value) => (value ? value.toLowerCase() : null)),
  isDefault: z.boolean().default(false),
});
export type AddressInput = z.input<typeof addressInput>;
export type AddressValues = z.output<typeof addressInput>;

/** Addresses one customer keeps: more than any household or business needs, and a bound on what one account stores. */
export const MAX_ADDRESSES = 50;

export const addressIdInput = z.object({ id: rowId });
export const updateAddressInput = addressIdInput.extend({ address: addressInput });
export const orderIdInput = z.object({ id: rowId });

export type Profile = {
  id: string;
  name: string | null;
  email: string;
  image: string | null;
  role: UserRole;
  memberSince: Date;
  signInMethods: string[];
  personalDiscount: { name: string; label: string } | null;
};

export type Address = {
  id: number;
  firstName: string;
  lastName: string;
  companyName: string | null;
  street: string;
  houseNumber: string;
  addressLine2: string | null;
  postCode: string;
  city: string;
  country: string;
  countryCode: string;
  state: string | null;
  phoneNumber: string | null;
  email: string | null;
  isDefault: boolean;
};

export type CountryOption = { code: string; name: string };

export type OrderSummary = { id: number; orderNumber: string; status: OrderStatus; createdAt: Date; soldAt: Date | null; itemCount: number; total: Decimal | null };

export type OrderDetail = OrderSummary & {
  items: { productId: number; name: string; quantity: number; totalPrice: Decimal; totalDiscountAmount: Decimal }[];
  address: { name: string; lines: string[]; country: string } | null;
  shipping: { method: string; carrier: string | null; trackingNumber: string | null; estimatedDeliveryDate: string | null } | null;
  payment: { provider: string; itemTotal: Decimal; discount: Decimal; shipping: Decimal; total: Decimal } | null;
};
