"use client";

import type { FieldValues, Path, UseFormRegister } from "react-hook-form";
import { AdminInput, AdminSelect } from "@/components/ui/admin-form-controls";
import { calibers, genders, itemTypes, productStates } from "@/lib/enums";
import { descriptionFieldLabels } from "@/lib/labels";
import { descriptionTextFields, productEuroRange, type DescriptionTextField, type ProductFormChoices } from "@/server/catalog/admin-schemas";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { FormSection } from "../kit/forms/form-layout";
import { humanize } from "../kit/format";
import { NumberInput } from "../kit/forms/number-input";

/**
 * The product and description fields, shared by the product form and the template form. Everything is held as
 * form text; ids are numbers, NaN while nothing is chosen (SPEC section 5's "a number is not NaN").
 */
export type ProductFieldValues = {
  name: string;
  price: string;
  shippingFee: string;
  isBulk: boolean;
  categoryId: number;
  manufacturerId: number;
  countryId: number;
  caliber: string;
  state: string;
  itemType: string;
  gender: string;
} & Record<DescriptionTextField, string>;

const longFields: DescriptionTextField[] = ["additional", "additional2", "additional3"];

type Props<T extends FieldValues> = {
  register: UseFormRegister<T>;
  choices: ProductFormChoices | undefined;
  required: ReadonlySet<string>;
  invalid: ReadonlySet<string>;
  /**
   * Why the form refused a field, from the schema in the browser or the server (`useFieldRefusals`), or a
   * placeholder a refused publish found in it.
   */
  errorOf?: (name: string) => string | undefined;
  /** Templates may leave enumerations open. */
  allowEmptyEnums?: boolean;
  /** Shown right after the price: the product form's eBay price. */
  besidePrice?: React.ReactNode;
};

/** The product's sections, their fields in a grid. */
function Section(props: { title: string; description: string; children: React.ReactNode }) {
  return <FormSection {...props} bodyClassName="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" />;
}

export function ProductFields<T extends FieldValues>({ register, choices, required, invalid, errorOf, allowEmptyEnums, besidePrice }: Props<T>) {
  const reg = (name: string, options?: Parameters<UseFormRegister<T>>[1]) => register(name as Path<T>, options);
  /** SPEC section 5: a required field left empty is marked by a refused submit; any other refusal with its reason. */
  const missing = (name: string) => (invalid.has(name) ? "Required" : errorOf?.(name));
  const field = (name: string) => fieldProps(name, missing(name), required.has(name));
  const enumSelect = (name: "caliber" | "state" | "itemType" | "gender", label: string, values: readonly string[]) => (
    <FormField label={label} htmlFor={`field-${name}`} required={required.has(name)} error={missing(name)}>
      <AdminSelect {...field(name)} {...reg(name)}>
        {allowEmptyEnums ? <option value="">—</option> : null}
        {values.map((value) => (
          <option key={value} value={value}>
            {value === "UNKNOWN" ? "Unknown" : humanize(value)}
          </option>
        ))}
      </AdminSelect>
    </FormField>
  );
  const idSelect = (name: "categoryId" | "manufacturerId" | "countryId", label: string, options: { id: number; label: string }[] | undefined, empty: string, hint?: string) => (
    <FormField label={label} htmlFor={`field-${name}`} required={required.has(name)} error={missing(name)} hint={hint}>
      <AdminSelect {...field(name)} {...reg(name, { setValueAs: (value: string) => (value === "" ? Number.NaN : Number(value)) } as never)}>
        <option value="">{empty}</option>
        {options?.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </AdminSelect>
    </FormField>
  );

  return (
    <>
      <Section title="Listing" description="What the shop shows and charges. Prices are in euro.">
        <FormField label="Name" htmlFor="field-name" required={required.has("name")} error={missing("name")} className="sm:col-span-2 xl:col-span-3">
          <AdminInput {...field("name")} {...reg("name")} placeholder="Omega Seamaster crown 5.5 mm, signed, NOS" autoComplete="off" />
        </FormField>
        <FormField label="Price (€)" htmlFor="field-price" required={required.has("price")} error={missing("price")}>
          <NumberInput {...field("price")} {...reg("price")} {...productEuroRange} placeholder="49.95" />
        </FormField>
        {besidePrice}
        <FormField label="Shipping fee (€)" htmlFor="field-shippingFee" hint="Only when it differs from the country rate">
          <NumberInput {...field("shippingFee")} {...reg("shippingFee")} {...productEuroRange} placeholder="—" />
        </FormField>
        <FormField label="Sold in bulk" htmlFor="field-isBulk" hint="Many identical pieces under one listing">
          <label className="flex h-9 items-center gap-2 text-sm">
            <input type="checkbox" id="field-isBulk" className="size-4 accent-[var(--primary)]" {...reg("isBulk")} /> Bulk item
          </label>
        </FormField>
        {idSelect("categoryId", "Category", choices?.categories, "Choose a category")}
        {idSelect("manufacturerId", "Manufacturer", choices?.manufacturers, "Choose a manufacturer")}
        {idSelect("countryId", "Country of origin", choices?.countries, "—", "Where it was made; customs declarations name it for parcels leaving the EU")}
      </Section>
      <Section title="Attributes" description="The filters visitors narrow the shop by.">
        {enumSelect("itemType", "Item type", itemTypes)}
        {enumSelect("caliber", "Caliber", calibers)}
        {enumSelect("state", "State", productStates)}
        {enumSelect("gender", "Gender", genders)}
      </Section>
      <Section title="Description" description="The watchmaker's description. Suggestions come from the select options; any text is fine.">
        {descriptionTextFields.map((name) => {
          const options = choices?.selectOptions[name];
          const long = longFields.includes(name);
          return (
            <FormField
              key={name}
              label={descriptionFieldLabels[name]}
              htmlFor={`field-${name}`}
              required={required.has(name)}
              error={missing(name)}
              className={long ? "sm:col-span-2 xl:col-span-3" : undefined}
            >
              <AdminInput {...field(name)} {...reg(name)} list={options ? `options-${name}` : undefined} autoComplete="off" />
              {options ? (
                <datalist id={`options-${name}`}>
                  {options.map((option) => (
                    <option key={option} value={option} />
                  ))}
                </datalist>
              ) : null}
            </FormField>
          );
        })}
      </Section>
    </>
  );
}
