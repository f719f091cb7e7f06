"use client";

import { preselectedCountry } from "@/lib/preselected-country";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type FieldPath } from "react-hook-form";
import { toast } from "@/components/toast";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  addressFields,
  addressInput,
  addressLines,
  addressLineTexts,
  type Address,
  type AddressInput,
  type AddressValues,
  type CountryOption,
} from "@/server/account/schemas";

type Field = { name: FieldPath<AddressInput>; label: string; required?: boolean; autoComplete?: string; wide?: boolean };

const fields: Field[] = [
  ...addressLines.map((name) => ({ name, ...addressFields[name] })),
  { name: "state", ...addressFields.state },
  { name: "phoneNumber", ...addressFields.phoneNumber },
  { name: "email", label: "E-mail for delivery updates", autoComplete: "email", wide: true },
];

function toDefaults(address: Address | null, defaultCountry: string): AddressInput {
  return {
    ...addressLineTexts(address),
    countryCode: address?.countryCode ?? defaultCountry,
    state: address?.state ?? "",
    phoneNumber: address?.phoneNumber ?? "",
    email: address?.email ?? "",
    isDefault: address?.isDefault ?? false,
  };
}

/** The address form: the server's own schema checks it here first; required fields carry an asterisk. */
export function AddressForm({
  address,
  countries,
  saving,
  onSubmit,
  onCancel,
}: {
  address: Address | null;
  countries: CountryOption[];
  saving: boolean;
  onSubmit: (values: AddressValues) => void;
  onCancel: () => void;
}) {
  const storedCountry = typeof window === "undefined" ? null : window.localStorage.getItem("countryCode");
  const defaultCountry = preselectedCountry(countries, storedCountry);
  const form = useForm<AddressInput, unknown, AddressValues>({ resolver: zodResolver(addressInput), defaultValues: toDefaults(address, defaultCountry) });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      className="grid grid-cols-1 gap-4 sm:grid-cols-2"
      onSubmit={form.handleSubmit(onSubmit, () => toast.error("Error", { description: "Please fill out all required fields" }))}
    >
      {fields.map((field) => {
        const error = errors[field.name as keyof typeof errors];
        const id = `address-${field.name}`;
        return (
          <div key={field.name} className={field.wide ? "flex flex-col gap-1.5 sm:col-span-2" : "flex flex-col gap-1.5"}>
            <Label htmlFor={id}>
              {field.label}
              {field.required ? <span aria-hidden className="text-destructive">*</span> : null}
            </Label>
            <Input id={id} autoComplete={field.autoComplete} aria-invalid={error ? true : undefined} aria-required={field.required} {...form.register(field.name)} />
            {error?.message ? <p className="text-xs text-destructive">{String(error.message)}</p> : null}
          </div>
        );
      })}
      <div className="flex flex-col gap-1.5 sm:col-span-2">
        <Label htmlFor="address-countryCode">
          {addressFields.countryCode.label}
          <span aria-hidden className="text-destructive">*</span>
        </Label>
        <select
          id="address-countryCode"
          aria-required
          aria-invalid={errors.countryCode ? true : undefined}
          className="h-10 rounded-md border border-input bg-background px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive"
          {...form.register("countryCode")}
        >
          <option value="">Choose a country</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
        {errors.countryCode?.message ? <p className="text-xs text-destructive">{errors.countryCode.message}</p> : null}
      </div>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" className="size-4 accent-primary" {...form.register("isDefault")} />
        Use as my default address
      </label>
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          Save address
        </Button>
      </div>
    </form>
  );
}
