"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { AlertTriangle, Loader2, Plus, RotateCcw, Trash2 } from "lucide-react";
import { Decimal } from "decimal.js";
import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { useFieldArray, useForm, useWatch, type FieldErrors } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import { euroText, percentAsTyped } from "@/lib/amount-text";
import { formatEuro } from "@/lib/money";
import { surchargeAmount } from "@/lib/surcharge";
import { cn } from "@/lib/utils";
import { saveSurchargeBandsInput, type SaveSurchargeBandsInput, type SaveSurchargeBandsValues, type SurchargeBandList } from "@/server/shipping/costs-schemas";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { showRefusal } from "../kit/forms/filled-resolver";
import { stackedTable } from "../kit/list-table";
import { FormActions, RefusalNote, SaveShortcutHint, SubmitButton, useSaveShortcut } from "../kit/forms/form-layout";
import { useSaveSurchargeBands, useSurchargeBands } from "./queries";
import { ShippingCostsNav } from "./shipping-costs-nav";
import { NumberInput } from "../kit/forms/number-input";
import { euroRange, surchargePercentRange } from "@/lib/amount-text";

type BandField = "minPrice" | "maxPrice" | "percentage";
type Values = SaveSurchargeBandsInput;

const columnLabels: Record<BandField, string> = { minPrice: "From", maxPrice: "Up to", percentage: "Surcharge" };

function valuesOf(list: SurchargeBandList): Values {
  return {
    version: list.version,
    bands: list.bands.map((band) => ({ id: band.id, minPrice: band.minPrice.toFixed(2), maxPrice: band.maxPrice.toFixed(2), percentage: percentAsTyped(band.percentage) })),
  };
}

const resolver = zodResolver(saveSurchargeBandsInput, undefined, { raw: true });

/**
 * /admin/shippingSurcharge/manage: the surcharge bands as one table, edited and saved as a whole, so that a boundary
 * between two bands moves in one save. The set is checked as it is typed with the server's own schema (the same
 * rule as checkout's choice of band); the server checks it again against the bands as they are when it saves.
 */
export function SurchargeBandsEditor() {
  const list = useSurchargeBands();
  const save = useSaveSurchargeBands();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<Values, unknown, Values>({ defaultValues: { version: "", bands: [] }, resolver, shouldFocusError: false });
  // What the server refuses all the same (a rule only it checks) is put on its field too.
  const { refuseFromServer } = useFieldRefusals(form);
  const rows = useFieldArray({ control: form.control, name: "bands", keyName: "key" });
  const values = useWatch({ control: form.control }) as Values;
  const { isDirty, isSubmitted } = form.formState;
  useSaveShortcut(formRef);

  // A refetch (another tab saved, the window regained focus) shows the new bands, unless staff are editing.
  useEffect(() => {
    if (list.data && !form.formState.isDirty) form.reset(valuesOf(list.data));
  }, [list.data, form]);

  // The server's schema on the table as it stands: each problem beside the band it belongs to.
  const live = useMemo(() => saveSurchargeBandsInput.safeParse(values), [values]);
  const issuesByRow = useMemo(() => {
    const byRow = new Map<number, { field: BandField; message: string }[]>();
    const general: string[] = [];
    for (const issue of live.error?.issues ?? []) {
      const [, index, field] = issue.path;
      if (typeof index !== "number" || typeof field !== "string") {
        general.push(`Bands: ${issue.message}`);
        continue;
      }
      // A field not typed yet in a new row is not a mistake until the table is saved.
      if (!isSubmitted && values.bands[index]?.[field as BandField] === "") continue;
      byRow.set(index, [...(byRow.get(index) ?? []), { field: field as BandField, message: issue.message }]);
    }
    return { byRow, general };
  }, [live, values, isSubmitted]);

  const submit = async (input: Values) => {
    const saved = await save.mutateAsync(input);
    form.reset(valuesOf(saved));
    toast.success("Surcharge bands saved", { description: "Checkout charges the new bands from the next quote; orders already placed keep theirs." });
  };
  const refuse = (errors: FieldErrors<Values>) => {
    save.reset();
    showRefusal(errors, undefined, (path) => {
      const [, index, field] = path.split(".");
      return field ? `Band ${Number(index) + 1}, ${columnLabels[field as BandField] ?? field}` : "Bands";
    });
  };
  const addBand = () => {
    const last = values.bands.at(-1);
    rows.append({ minPrice: last?.maxPrice ?? "0.00", maxPrice: "", percentage: "" }, { focusName: `bands.${values.bands.length}.maxPrice` });
  };
  const discard = () => list.data && form.reset(valuesOf(list.data));

  const coverage = live.success && live.data.bands.length ? uncovered(live.data.bands) : null;

  return (
    <>
      <ShippingCostsNav />
      <form ref={formRef} noValidate aria-label="Surcharge bands" onSubmit={form.handleSubmit((input) => submit(input).catch(refuseFromServer), refuse)} className="space-y-4">
        <AdminCard>
          <AdminCardHeader
            title="Surcharge bands"
            description="The order value (goods after discounts, without shipping) picks a band; its percentage of that value is added to shipping to insure the parcel. A band starts where the one before it ends; where two meet, the higher band applies."
            actions={
              <>
                {list.isFetching || save.isPending ? <Loader2 className="size-4 animate-spin text-muted-foreground" /> : null}
                <Button type="button" variant="outline" size="sm" onClick={addBand} disabled={!list.data}>
                  <Plus /> Add a band
                </Button>
              </>
            }
          />
          {list.data?.problems.length ? (
            <div className="flex gap-2 border-b bg-amber-500/10 px-4 py-2 text-sm text-amber-900 dark:text-amber-200">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" />
              <p>The saved bands break the rule, and checkout charges them as they are: {list.data.problems.join("; ")}. Correct them below.</p>
            </div>
          ) : null}
          <div className="relative md:overflow-x-auto">
            <table className={cn("w-full text-sm tabular-nums", stackedTable)}>
              <thead>
                <tr className="text-left text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">
                  <th className="h-9 border-b bg-muted/60 px-3">#</th>
                  <th className="h-9 border-b bg-muted/60 px-3">From (€)</th>
                  <th className="h-9 border-b bg-muted/60 px-3">Up to (€)</th>
                  <th className="h-9 border-b bg-muted/60 px-3">Surcharge (%)</th>
                  <th className="h-9 border-b bg-muted/60 px-3">On the order value</th>
                  <th className="h-9 border-b bg-muted/60 px-3">
                    <span className="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.isPending
                  ? Array.from({ length: 4 }, (_, index) => (
                      <tr key={index}>
                        <td colSpan={6} className="border-b px-3 py-2">
                          <div className="h-7 animate-pulse rounded bg-muted" />
                        </td>
                      </tr>
                    ))
                  : null}
                {list.data && rows.fields.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="h-28 border-b px-3 text-center text-muted-foreground">
                      No surcharge bands: shipping costs the country&apos;s price alone, whatever the order is worth. Add a band to insure valuable parcels.
                    </td>
                  </tr>
                ) : null}
                {rows.fields.map((row, index) => {
                  const issues = issuesByRow.byRow.get(index) ?? [];
                  const invalid = (field: BandField) => issues.some((issue) => issue.field === field);
                  const input = (field: BandField, placeholder: string) => (
                    <NumberInput
                      {...form.register(`bands.${index}.${field}`)}
                      id={`field-bands.${index}.${field}`}
                      aria-label={`${columnLabels[field]}, band ${index + 1}`}
                      aria-invalid={invalid(field) || undefined}
                      {...(field === "percentage" ? surchargePercentRange : euroRange)}
                      placeholder={placeholder}
                      className="w-32"
                    />
                  );
                  const band = values.bands[index];
                  return (
                    <RowGroup key={row.key} issues={issues} isNew={band?.id === undefined}>
                      <td className="px-3 py-1.5 text-xs text-muted-foreground">
                        <span className="md:hidden">Band </span>
                        {index + 1}
                      </td>
                      <td data-label="From (€)" className="px-3 py-1.5">
                        {input("minPrice", "0.00")}
                      </td>
                      <td data-label="Up to (€)" className="px-3 py-1.5">
                        {input("maxPrice", "1000.00")}
                      </td>
                      <td data-label="Surcharge (%)" className="px-3 py-1.5">
                        {input("percentage", "5")}
                      </td>
                      <td data-label="On the order value" className="px-3 py-1.5 text-xs text-muted-foreground">
                        {band ? example(band) : null}
                      </td>
                      <td data-corner className="px-3 py-1.5 text-right">
                        <Button type="button" variant="ghost" size="icon" className="size-9" aria-label={`Remove band ${index + 1}`} onClick={() => rows.remove(index)}>
                          <Trash2 />
                        </Button>
                      </td>
                    </RowGroup>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="space-y-1 px-4 py-3 text-xs text-muted-foreground">
            {issuesByRow.general.map((message) => (
              <p key={message} className="text-destructive">
                {message}
              </p>
            ))}
            {coverage ? <p>{coverage} A band of 0% says in so many words that its range pays none.</p> : null}
          </div>
        </AdminCard>
        <RefusalNote message={save.error?.message} />
        <FormActions
          sticky
          note={
            <>
              {isDirty ? "Unsaved changes." : "Checkout uses the saved bands."} <SaveShortcutHint />
            </>
          }
        >
          <Button type="button" variant="outline" size="sm" onClick={discard} disabled={!isDirty || save.isPending}>
            <RotateCcw /> Discard changes
          </Button>
          <SubmitButton busy={save.isPending} disabled={!isDirty || save.isPending}>
            Save bands
          </SubmitButton>
        </FormActions>
      </form>
    </>
  );
}

/** A band's row and, under it, what is wrong with it. */
function RowGroup({ issues, isNew, children }: { issues: { field: BandField; message: string }[]; isNew: boolean; children: ReactNode }) {
  return (
    <>
      <tr className={cn("group transition-colors hover:bg-accent/30", isNew && "bg-brass/5", issues.length && "bg-destructive/5 max-md:border-b-0!")}>{children}</tr>
      {/* On a phone (stackedTable) an empty row would still take a card's padding. */}
      <tr className={cn(issues.length === 0 && "max-md:hidden!", issues.length > 0 && "bg-destructive/5")}>
        <td colSpan={6} className={cn("border-b px-3", issues.length ? "pb-2" : "p-0")}>
          {issues.map((issue) => (
            <p key={`${issue.field}:${issue.message}`} className="pl-8 text-[11px] text-destructive">
              {columnLabels[issue.field]}: {issue.message}
            </p>
          ))}
        </td>
      </tr>
    </>
  );
}

/** What a band charges at its two ends, as typed, by checkout's own rule; nothing while a figure is not an amount yet. */
function example(band: { minPrice: string; maxPrice: string; percentage: string }): string | null {
  // Read as typed numbers, the percentage too (as a fraction below).
  const amount = (text: string) => {
    const read = euroText.safeParse(text);
    return read.success ? read.data : null;
  };
  const [min, max, percent] = [amount(band.minPrice), amount(band.maxPrice), amount(band.percentage)];
  if (!min || !max || !percent || max.lessThanOrEqualTo(min)) return null;
  if (percent.isZero()) return "No surcharge";
  const at = (value: Decimal) => formatEuro(surchargeAmount(value, { percentage: percent.dividedBy(100) }));
  return `${at(min)} on ${formatEuro(min)} to ${at(max)} on ${formatEuro(max)}`;
}

/** What no band covers: below the lowest minimum and above the highest maximum. */
function uncovered(bands: SaveSurchargeBandsValues["bands"]): string {
  const from = Decimal.min(...bands.map((band) => band.minPrice));
  const to = Decimal.max(...bands.map((band) => band.maxPrice));
  return from.isZero() ? `Orders above ${formatEuro(to)} pay no surcharge.` : `Orders below ${formatEuro(from)} and above ${formatEuro(to)} pay no surcharge.`;
}
