import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { lineText, text } from "@/lib/text";
import type { OrderStatus, UserRole } from "@/lib/enums";

// Every field is one line: each is printed as a line of its own on labels, packing slips and invoices (`lineText`).
const requiredText = (label: string, max = 120) => lineText(label).min(1, `${label} is required`).max(max, `${label} is at most ${max} characters`);
const optionalText = (label: string, max = 120) =>
  lineText(label)
    .max(max, `${label} is at most ${max} characters`)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null));

export const updateProfileInput = z.object({ name: requiredText("Name", 80) });
export type UpdateProfileInput = z.input<typeof updateProfileInput>;

/**
 * A postal address, with the rules of `addressColumns()`: the one schema behind the address book and checkout, in
 * the browser and on the server alike. Each adds how it names the state: the address book as text, checkout as
 * one of the country's region codes.
 */
export const postalAddressInput = z.object({
  firstName: requiredText("First name"),
  lastName: requiredText("Last name"),
  companyName: optionalText("Company"),
  street: requiredText("Street"),
  houseNumber: requiredText("House number", 20),
  addressLine2: optionalText("Address line 2"),
  postCode: requiredText("Postcode", 20),
  city: requiredText("City"),
  countryCode: z.string().trim().regex(/^[A-Za-z]{2}$/, "Choose a country").toUpperCase(),
  phoneNumber: z
    .string()
    .trim()
    .regex(/^[+0-9 ()-]{6,30}$/, "Enter a phone number with digits only, e.g. +31 6 12345678")
    .optional()
    .nullable()
    .or(z.literal(""))
    .transform((value) => (value ? value : null)),
});

type PostalLines = Pick<z.output<typeof postalAddressInput>, "companyName" | "street" | "houseNumber" | "addressLine2" | "postCode" | "city">;

/**
 * The lines of a postal address that each copy of it carries over as they are (an order's address from the form, a
 * label's receiver from the order): the company, the street and number, the second line, the postcode and the city.
 */
export function postalLines({ companyName, street, houseNumber, addressLine2, postCode, city }: PostalLines): PostalLines {
  return { companyName, street, houseNumber, addressLine2, postCode, city };
}

/** An address in the address book. */
export const addressInput = postalAddressInput.extend({
  state: optionalText("State or province"),
  email: z.union([z.literal(""), z.email("Enter a valid e-mail address")]).optional().nullable().transform((value) => (value ? value.toLowerCase() : null)),
  isDefault: z.boolean().default(false),
});
export type AddressInput = z.input<typeof addressInput>;
export type AddressValues = z.output<typeof addressInput>;

/** Addresses one customer keeps: more than any household or business needs, and a bound on what one account stores. */
export const MAX_ADDRESSES = 50;

export const addressIdInput = z.object({ id: rowId });
export const updateAddressInput = addressIdInput.extend({ address: addressInput });

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

export type OrderSummary = {
  id: number;
  orderNumber: string;
  status: OrderStatus;
  createdAt: Date;
  soldAt: Date | null;
  itemCount: number;
  total: Decimal | null;
  /** What went back to the customer or is on its way (PENDING and REFUNDED refunds); zero without refunds. */
  refunded: Decimal;
};

/** Staff's search for a customer by name or e-mail (`account/customer-lookup.ts`). */
export const customerSearchInput = z.object({ search: text().trim().min(2, "Type at least 2 characters").max(200) });
export const customerIdInput = z.object({ userId: text().trim().min(1).max(255) });

/** A customer found by name or e-mail, for the manual order's customer field and a customer discount's customers. */
export type CustomerMatch = { id: string; name: string | null; email: string };
