"use client";

import { MapPin, Plus } from "lucide-react";
import Link from "next/link";
import { useFormContext, useWatch, type FieldPath } from "react-hook-form";
import { Input } from "@/components/ui/input";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import { cn } from "@/lib/utils";
import { addressFields, addressLines, addressLineTexts, type Address, type AddressFieldSpec, type AddressLine } from "@/server/account/schemas";
import type { CheckoutFormInput } from "@/server/checkout/schemas";
import type { ShippingCountry } from "@/server/shipping/schemas";
import { CheckoutSection, FormField, selectClassName } from "./form-field";

type AddressField = AddressFieldSpec & { name: FieldPath<CheckoutFormInput> & `address.${AddressLine}` };

const addressFieldList: AddressField[] = addressLines.map((line) => ({ name: `address.${line}`, ...addressFields[line] }));

/** The form's address values for an address from the address book; its state is matched to the country's region codes. */
export function addressFromBook(address: Address, countries: ShippingCountry[]): CheckoutFormInput["address"] {
  const regions = countries.find((c) => c.code === address.countryCode)?.regions ?? [];
  const state = address.state?.toLowerCase();
  const region = regions.find((r) => r.name.toLowerCase() === state || r.code.toLowerCase() === state);
  return {
    ...addressLineTexts(address),
    countryCode: countries.some((c) => c.code === address.countryCode) ? address.countryCode : "",
    stateCode: region?.code ?? "",
    phoneNumber: address.phoneNumber ?? "",
  };
}

export const emptyAddress = (countryCode: string): CheckoutFormInput["address"] => ({ ...addressLineTexts(null), countryCode, stateCode: "", phoneNumber: "" });

function errorOf(errors: Record<string, unknown>, path: string): string | undefined {
  const found = path.split(".").reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), errors);
  const message = found && typeof found === "object" ? (found as { message?: unknown }).message : undefined;
  return typeof message === "string" ? message : undefined;
}

function SavedAddress({ address, selected, onSelect }: { address: Address; selected: boolean; onSelect: () => void }) {
  return (
    <label
      className={cn(
        "flex cursor-pointer gap-3 rounded-lg border p-4 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
        selected ? "border-primary bg-accent/40" : "hover:bg-accent/30",
      )}
      data-testid="saved-address"
    >
      <input type="radio" name="address-choice" className="mt-1 size-4 accent-primary" checked={selected} onChange={onSelect} />
      <span className="leading-relaxed">
        <span className="block font-medium">
          {address.firstName} {address.lastName}
          {address.isDefault ? <span className="ml-2 rounded-full bg-accent px-2 py-0.5 text-xs font-normal text-accent-foreground">Default</span> : null}
        </span>
        {address.companyName ? <span className="block">{address.companyName}</span> : null}
        <span className="block">
          {address.street} {address.houseNumber}
          {address.addressLine2 ? `, ${address.addressLine2}` : ""}
        </span>
        <span className="block">
          {address.postCode} {address.city}
          {address.state ? `, ${address.state}` : ""}, {address.country}
        </span>
      </span>
    </label>
  );
}

/**
 * Contact and delivery address. Signed-in customers pick an address from their address book or enter a new one
 * (and may keep it); guests give an e-mail address and the address. The country list holds the countries the shop
 * ships to; a country with states or provinces asks for one.
 */
export function AddressSection({
  isSignedIn,
  countries,
  savedAddresses,
  choice,
  onChoose,
  showFields,
}: {
  isSignedIn: boolean;
  countries: ShippingCountry[] | undefined;
  savedAddresses: Address[];
  /** The address book entry in use, or "new". */
  choice: number | "new";
  onChoose: (choice: number | "new") => void;
  /** Whether the address fields show: a new address, or a saved one that needs correcting. */
  showFields: boolean;
}) {
  const form = useFormContext<CheckoutFormInput>();
  const { errors } = form.formState;
  const countryCode = useWatch({ control: form.control, name: "address.countryCode" });
  const regions = countries?.find((c) => c.code === countryCode)?.regions ?? [];
  const field = (name: FieldPath<CheckoutFormInput>) => {
    const error = errorOf(errors, name);
    const id = `checkout-${name.replace(".", "-")}`;
    return { id, error, inputProps: { id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined, ...form.register(name) } };
  };
  const email = field("email");
  const country = field("address.countryCode");
  const state = field("address.stateCode");
  const phone = field("address.phoneNumber");

  return (
    <>
      <CheckoutSection
        step={1}
        title="Contact"
        description={
          isSignedIn ? (
            "We send the order confirmation and shipping updates here."
          ) : (
            <>
              Checking out as a guest.{" "}
              <Link href={`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent("/checkout")}`} className="font-medium text-primary underline-offset-4 hover:underline">
                Sign in
              </Link>{" "}
              to use your address book and follow your order.
            </>
          )
        }
      >
        <FormField id={email.id} label="E-mail address" required error={email.error}>
          <Input type="email" autoComplete="email" inputMode="email" aria-required {...email.inputProps} />
        </FormField>
      </CheckoutSection>

      <CheckoutSection step={2} title="Delivery address">
        {isSignedIn && savedAddresses.length > 0 ? (
          <fieldset className="mb-5 grid gap-3 sm:grid-cols-2">
            <legend className="sr-only">Choose an address</legend>
            {savedAddresses.map((address) => (
              <SavedAddress key={address.id} address={address} selected={choice === address.id} onSelect={() => onChoose(address.id)} />
            ))}
            <label
              className={cn(
                "flex cursor-pointer items-center gap-3 rounded-lg border border-dashed p-4 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                choice === "new" ? "border-primary bg-accent/40" : "hover:bg-accent/30",
              )}
            >
              <input type="radio" name="address-choice" className="size-4 accent-primary" checked={choice === "new"} onChange={() => onChoose("new")} />
              <Plus className="size-4 text-primary" aria-hidden />A new address
            </label>
          </fieldset>
        ) : null}

        {showFields ? (
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {addressFieldList.map((spec) => {
              const f = field(spec.name);
              return (
                <FormField key={spec.name} id={f.id} label={spec.label} required={spec.required} error={f.error} className={spec.wide ? "sm:col-span-2" : undefined}>
                  <Input autoComplete={spec.autoComplete} aria-required={spec.required} {...f.inputProps} />
                </FormField>
              );
            })}
            <FormField id={country.id} label={addressFields.countryCode.label} required error={country.error} className={regions.length > 0 ? undefined : "sm:col-span-2"}>
              <select
                className={selectClassName}
                aria-required
                autoComplete={addressFields.countryCode.autoComplete}
                disabled={!countries}
                {...country.inputProps}
                onChange={(event) => {
                  void country.inputProps.onChange(event);
                  form.setValue("address.stateCode", "");
                }}
              >
                <option value="">{countries ? "Choose a country" : "Loading..."}</option>
                {countries?.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            </FormField>
            {regions.length > 0 ? (
              <FormField id={state.id} label={addressFields.state.label} required error={state.error}>
                <select className={selectClassName} aria-required autoComplete={addressFields.state.autoComplete} {...state.inputProps}>
                  <option value="">Choose a state or province</option>
                  {regions.map((r) => (
                    <option key={r.code} value={r.code}>
                      {r.name}
                    </option>
                  ))}
                </select>
              </FormField>
            ) : null}
            <FormField id={phone.id} label={addressFields.phoneNumber.label} error={phone.error} className="sm:col-span-2">
              <Input type="tel" autoComplete={addressFields.phoneNumber.autoComplete} inputMode="tel" {...phone.inputProps} />
            </FormField>
            {isSignedIn && choice === "new" ? (
              <label className="flex items-center gap-2 text-sm sm:col-span-2">
                <input type="checkbox" className="size-4 accent-primary" {...form.register("saveAddress")} />
                Save this address in my address book
              </label>
            ) : null}
          </div>
        ) : (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <MapPin className="size-4 text-primary" aria-hidden />
            Your order goes to the address chosen above.
          </p>
        )}
      </CheckoutSection>
    </>
  );
}
