"use client";

import { ArrowLeft, Search } from "lucide-react";
import Link from "next/link";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useFieldArray, useForm, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminInput } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import { updateCountryCostsInput, type AdminCountry, type UpdateCountryCostsInput } from "@/server/shipping/costs-schemas";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { FormActions, FormSection, RefusalNote, SaveShortcutHint, SubmitButton, useSaveShortcut } from "../kit/forms/form-layout";
import { useCountryCostsOf, useUpdateCountryCosts } from "./queries";
import { ShippingCostsNav } from "./shipping-costs-nav";
import { NumberInput } from "../kit/forms/number-input";
import { euroRange } from "@/lib/amount-text";
import { stackedTable } from "../kit/list-table";

type RegionValues = { code: string; name: string; active: boolean; maxOrderUntracked: string };

type Values = {
  active: boolean;
  eu: boolean;
  untrackedCost: string;
  tntCost: string;
  untrackedEtaDays: string;
  tntEtaDays: string;
  maxOrderUntracked: string;
  regions: RegionValues[];
};

type CountryField = Exclude<keyof Values, "regions" | "active" | "eu">;

const fieldLabels: Record<CountryField, string> = {
  untrackedCost: "Untracked price",
  untrackedEtaDays: "Untracked delivery days",
  maxOrderUntracked: "Untracked allowed up to",
  tntCost: "Tracked price",
  tntEtaDays: "Tracked delivery days",
};

/** A shipping method's fields, side by side on a wide screen. */
const methodGrid = "grid min-w-0 gap-3 sm:grid-cols-3";

const required = ["untrackedCost", "tntCost", "untrackedEtaDays", "tntEtaDays", "maxOrderUntracked"] as const satisfies readonly CountryField[];

function valuesOf(country: AdminCountry): Values {
  return {
    active: country.active,
    eu: country.eu,
    untrackedCost: country.untrackedCost.toFixed(2),
    tntCost: country.tntCost.toFixed(2),
    untrackedEtaDays: String(country.untrackedEtaDays),
    tntEtaDays: String(country.tntEtaDays),
    maxOrderUntracked: country.maxOrderUntracked.toFixed(2),
    regions: country.regions.map((entry) => ({ code: entry.code, name: entry.name, active: entry.active, maxOrderUntracked: entry.maxOrderUntracked?.toFixed(2) ?? "" })),
  };
}

const inputOf =
  (code: string) =>
  ({ regions, ...values }: Values): UpdateCountryCostsInput => ({
    code,
    ...values,
    regions: regions.map(({ code: regionCode, active, maxOrderUntracked }) => ({ code: regionCode, active, maxOrderUntracked })),
  });

/**
 * /admin/shippingSurcharge/countries/[code]: one country's shipping — whether the shop ships there, its EU flag,
 * each method's price and delivery days, the order value above which a parcel must go tracked — and its states or
 * provinces (served or not, and a lower untracked limit where post gets lost more). Saved at once; the next quote
 * uses it, orders already placed keep what they were charged.
 */
export function CountryCostsForm({ code }: { code: string }) {
  const country = useCountryCostsOf(code);
  if (country.isError) {
    return (
      <>
        <ShippingCostsNav />
        <AdminCard className="px-4 py-10 text-center text-sm text-muted-foreground">
          <p>{country.error.message}</p>
          <Button asChild variant="outline" size="sm" className="mt-4">
            <Link href="/admin/shippingSurcharge/countries">
              <ArrowLeft /> All countries
            </Link>
          </Button>
        </AdminCard>
      </>
    );
  }
  if (!country.data) {
    return (
      <>
        <ShippingCostsNav />
        <div className="h-[28rem] animate-pulse rounded-lg border bg-muted/40" aria-busy="true" />
      </>
    );
  }
  return <LoadedCountryForm country={country.data} />;
}

function LoadedCountryForm({ country }: { country: AdminCountry }) {
  const update = useUpdateCountryCosts();
  const formRef = useRef<HTMLFormElement>(null);
  const initial = useMemo(() => valuesOf(country), [country]);
  const resolver = useMemo(() => filledThenSchema<Values, UpdateCountryCostsInput>(updateCountryCostsInput, required, inputOf(country.code)), [country.code]);
  const form = useForm<Values, unknown, UpdateCountryCostsInput>({ defaultValues: initial, resolver, shouldFocusError: false, mode: "onTouched" });
  // What the server refuses all the same (a rule only it checks) is put on its field too.
  const { refuseFromServer } = useFieldRefusals(form);
  const regions = useFieldArray({ control: form.control, name: "regions", keyName: "key" });
  const [active, regionValues] = useWatch({ control: form.control, name: ["active", "regions"] });
  const [regionSearch, setRegionSearch] = useState("");
  const { errors, isDirty } = form.formState;
  useSaveShortcut(formRef);

  // A refetch shows the saved figures unless staff are editing.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(initial);
  }, [initial, form]);

  const submit = async (input: UpdateCountryCostsInput) => {
    const saved = await update.mutateAsync(input);
    form.reset(valuesOf(saved));
    toast.success("Saved", { description: `${saved.name}: checkout uses these figures from the next quote; orders already placed keep theirs.` });
  };
  const refuse = (refused: FieldErrors<Values>) => {
    update.reset();
    showRefusal(refused, undefined, (path) => {
      const [, index] = /^regions\.(\d+)\./.exec(path) ?? [];
      return index === undefined ? (fieldLabels[path as CountryField] ?? path) : `${form.getValues(`regions.${Number(index)}.name`)}, untracked up to`;
    });
  };
  const error = (field: CountryField) => errors[field]?.message;
  const money = (field: CountryField, label: string, hint: ReactNode, placeholder: string) => (
    <FormField label={label} htmlFor={`field-${field}`} required error={error(field)} hint={hint}>
      <NumberInput {...fieldProps(field, error(field), true)} {...form.register(field)} {...euroRange} placeholder={placeholder} />
    </FormField>
  );
  /** A shipping method's price and delivery days. */
  const methodFields = (cost: CountryField, etaDays: CountryField, placeholder: string) => (
    <>
      {money(cost, "Price (€)", "Per parcel, before the surcharge band", placeholder)}
      <FormField label="Delivery days" htmlFor={`field-${etaDays}`} required error={error(etaDays)} hint="Working days after the parcel leaves, 1 to 90">
        <NumberInput {...fieldProps(etaDays, error(etaDays), true)} {...form.register(etaDays)} min={1} max={90} placeholder="3" />
      </FormField>
    </>
  );

  const needle = regionSearch.trim().toLowerCase();
  const shownRegions = regions.fields.map((field, index) => ({ field, index })).filter(({ field }) => !needle || field.name.toLowerCase().includes(needle) || field.code.toLowerCase() === needle);
  const servedRegions = regionValues.filter((entry) => entry.active).length;

  return (
    <>
      <ShippingCostsNav
        actions={
          <Button asChild variant="ghost" size="sm">
            <Link href="/admin/shippingSurcharge/countries">
              <ArrowLeft /> All countries
            </Link>
          </Button>
        }
      />
      <form ref={formRef} noValidate aria-label={`Shipping to ${country.name}`} onSubmit={form.handleSubmit((input) => submit(input).catch(refuseFromServer), refuse)} className="space-y-4">
        <AdminCard className="px-5">
          <FormSection
            title={
              <span className="flex items-center gap-2">
                {country.name} <span className="font-mono text-xs text-muted-foreground">{country.code}</span>
                {active ? null : <AdminBadge tone="warning">not shipped to</AdminBadge>}
              </span>
            }
            description={`Phone code ${country.phoneCode}.`}
          >
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" id="field-active" className="size-4 accent-[var(--primary)]" {...form.register("active")} />
              Ship to {country.name}
              <span className="text-xs text-muted-foreground">(off: checkout no longer offers it)</span>
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" id="field-eu" className="size-4 accent-[var(--primary)]" {...form.register("eu")} />
              In the European Union
              <span className="text-xs text-muted-foreground">(no customs paperwork)</span>
            </label>
          </FormSection>
          <FormSection title="Untracked post" description="A letter without tracking: cheap, for parcels the post's own cover insures." bodyClassName={methodGrid}>
            {methodFields("untrackedCost", "untrackedEtaDays", "6.50")}
            {money("maxOrderUntracked", "Allowed up to (€)", "Dearer orders must go tracked", "100.00")}
          </FormSection>
          <FormSection title="Tracked parcel" description="Tracked and signed for; always allowed." bodyClassName={methodGrid}>
            {methodFields("tntCost", "tntEtaDays", "12.95")}
          </FormSection>
          {regions.fields.length ? (
            <FormSection
              title="States and provinces"
              description={`${servedRegions} of ${regions.fields.length} served. A customer chooses one at checkout. Leave "Untracked up to" empty for ${formatEuro(country.maxOrderUntracked)}, the country's limit.`}
            >
              <div className="relative max-w-xs">
                <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
                <AdminInput type="search" aria-label="Find a state or province" placeholder="Find a state or province…" value={regionSearch} onChange={(event) => setRegionSearch(event.target.value)} className="pl-8" />
              </div>
              <div className="max-h-[28rem] overflow-y-auto rounded-md border">
                <table className={cn("w-full text-sm tabular-nums", stackedTable)}>
                  <thead className="sticky top-0 z-10 bg-muted/95 backdrop-blur">
                    <tr className="text-left text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">
                      <th className="h-9 border-b px-3">State or province</th>
                      <th className="h-9 border-b px-3">Served</th>
                      <th className="h-9 border-b px-3">Untracked up to (€)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shownRegions.map(({ field, index }) => {
                      const message = errors.regions?.[index]?.maxOrderUntracked?.message;
                      const name = `regions.${index}.maxOrderUntracked`;
                      return (
                        <tr key={field.key} className={cn("hover:bg-accent/30", !regionValues[index]?.active && "text-muted-foreground")}>
                          <td className="border-b px-3 py-1.5">
                            <span className="inline-block w-10 font-mono text-xs text-muted-foreground">{field.code}</span>
                            {field.name}
                          </td>
                          <td data-label="Served" className="border-b px-3 py-1.5">
                            <input type="checkbox" aria-label={`Ship to ${field.name}`} className="size-4 accent-[var(--primary)]" {...form.register(`regions.${index}.active`)} />
                          </td>
                          <td data-label="Untracked up to (€)" className="border-b px-3 py-1.5">
                            <NumberInput
                              {...fieldProps(name, message)}
                              aria-label={`Untracked up to in ${field.name}`}
                              {...form.register(`regions.${index}.maxOrderUntracked`)}
                              {...euroRange}
                              placeholder={`${country.maxOrderUntracked.toFixed(2)} (country)`}
                              className="w-40"
                            />
                            {message ? (
                              <p id={`field-${name}-note`} className="mt-0.5 text-[11px] text-destructive">
                                {message}
                              </p>
                            ) : null}
                          </td>
                        </tr>
                      );
                    })}
                    {shownRegions.length === 0 ? (
                      <tr>
                        <td colSpan={3} className="px-3 py-6 text-center text-muted-foreground">
                          No state or province matches “{regionSearch}”.
                        </td>
                      </tr>
                    ) : null}
                  </tbody>
                </table>
              </div>
            </FormSection>
          ) : null}
        </AdminCard>
        <RefusalNote message={update.error?.message} />
        <FormActions
          sticky
          note={
            <>
              {isDirty ? "Unsaved changes." : "Checkout uses the saved figures."} <SaveShortcutHint />
            </>
          }
        >
          <Button type="button" variant="outline" size="sm" onClick={() => form.reset(initial)} disabled={!isDirty || update.isPending}>
            Discard changes
          </Button>
          <SubmitButton busy={update.isPending} disabled={!isDirty || update.isPending}>
            Save {country.name}
          </SubmitButton>
        </FormActions>
      </form>
    </>
  );
}
