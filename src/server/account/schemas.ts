import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { checkPostcode } from "@/lib/postcode";
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
 * The lines of a postal address that every address form (the address book, checkout, staff's manual order) shows
 * first, in this order, each an input of its own; the country, the state and the phone follow, each form in its way.
 */
export const addressLines = ["firstName", "lastName", "companyName", "street", "houseNumber", "addressLine2", "postCode", "city"] as const;
export type AddressLine = (typeof addressLines)[number];

/** How a form shows an address field: `required` when the schema below refuses it empty, `wide` for a whole row. */
export type AddressFieldSpec = { label: string; required?: true; autoComplete?: string; wide?: true };

/**
 * Every address field as the forms show it: its label (which the schema's messages use too), the browser's autofill
 * name, whether it is required and whether it takes a whole row. The state is asked for only where the country has
 * states or provinces.
 */
export const addressFields: Record<AddressLine | "countryCode" | "state" | "phoneNumber", AddressFieldSpec> = {
  firstName: { label: "First name", required: true, autoComplete: "given-name" },
  lastName: { label: "Last name", required: true, autoComplete: "family-name" },
  companyName: { label: "Company", autoComplete: "organization", wide: true },
  street: { label: "Street", required: true, autoComplete: "address-line1" },
  houseNumber: { label: "House number", required: true },
  addressLine2: { label: "Address line 2", autoComplete: "address-line2", wide: true },
  postCode: { label: "Postcode", required: true, autoComplete: "postal-code" },
  city: { label: "City", required: true, autoComplete: "address-level2" },
  countryCode: { label: "Country", required: true, autoComplete: "country" },
  state: { label: "State or province", autoComplete: "address-level1" },
  phoneNumber: { label: "Phone", autoComplete: "tel" },
};

/** An address's lines as a form holds them: text, empty where the address has none (or there is no address yet). */
export function addressLineTexts(address: { [Line in AddressLine]: string | null } | null): Record<AddressLine, string> {
  return Object.fromEntries(addressLines.map((line) => [line, address?.[line] ?? ""])) as Record<AddressLine, string>;
}

const label = (field: keyof typeof addressFields) => addressFields[field].label;

/**
 * A postal address, with the rules of `addressColumns()`: the one schema behind the address book and checkout, in
 * the browser and on the server alike. Each adds how it names the state: the address book as text, checkout as
 * one of the country's region codes. The postcode is checked against the country's format where it is known.
 * `postalAddressFields` are its fields alone, for a schema that takes some of them (a counter sale's buyer).
 */
export const postalAddressFields = z.object({
  firstName: requiredText(label("firstName")),
  lastName: requiredText(label("lastName")),
  companyName: optionalText(label("companyName")),
  street: requiredText(label("street")),
  houseNumber: requiredText(label("houseNumber"), 20),
  addressLine2: optionalText(label("addressLine2")),
  postCode: requiredText(label("postCode"), 20),
  city: requiredText(label("city")),
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

export const postalAddressInput = postalAddressFields
  // The postcode in its country's format where that is known (`lib/postcode.ts`), refused on its own field...
  .superRefine((address, ctx) => {
    const checked = checkPostcode(address.countryCode, address.postCode);
    if (!checked.ok) ctx.addIssue({ code: "custom", path: ["postCode"], message: checked.message });
  })
  // ...and written as the country writes it ("1234ab" is "1234 AB"), for the label and the carrier.
  .overwrite((address) => {
    const checked = checkPostcode(address.countryCode, address.postCode);
    return checked.ok ? { ...address, postCode: checked.postcode } : address;
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
  state: optionalText(label("state")),
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

/** `eu`: whether a browser's guess of the country may start a new address on it (`lib/preselected-country.ts`). */
export type CountryOption = { code: string; name: string; eu: boolean };

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
