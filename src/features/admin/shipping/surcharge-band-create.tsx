"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/toast";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { percentAsTyped } from "@/lib/amount-text";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import { surchargeBandInput, type SurchargeBandInput } from "@/server/shipping/costs-schemas";
import { useFieldRefusals } from "../kit/forms/field-refusals";
import { filledThenSchema, showRefusal } from "../kit/forms/filled-resolver";
import { FormField, fieldProps } from "../kit/forms/form-field";
import { CancelButton, FormActions, RefusalNote, RequiredNote, SubmitButton, useSaveShortcut } from "../kit/forms/form-layout";
import { useCreateSurchargeBand, useSurchargeBands } from "./queries";
import { ShippingCostsNav } from "./shipping-costs-nav";
import { NumberInput } from "../kit/forms/number-input";
import { euroRange, surchargePercentRange } from "@/lib/amount-text";

const required = ["minPrice", "maxPrice", "percentage"] as const;
const fieldLabels: Record<string, string> = { minPrice: "From", maxPrice: "Up to", percentage: "Surcharge" };
const resolver = filledThenSchema<SurchargeBandInput, SurchargeBandInput>(surchargeBandInput, required, (values) => values);

/**
 * /admin/shippingSurcharge/create: one new band, usually on top of the highest (its minimum is filled in as the
 * highest band's maximum). The bands already there are listed beside it; the server refuses a band that would
 * overlap one of them or leave a gap, naming the bands. Moving a boundary between bands is done on the manage page.
 */
export function SurchargeBandCreate() {
  const router = useRouter();
  const list = useSurchargeBands();
  const create = useCreateSurchargeBand();
  const formRef = useRef<HTMLFormElement>(null);
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const form = useForm<SurchargeBandInput, unknown, SurchargeBandInput>({ defaultValues: { minPrice: "", maxPrice: "", percentage: "" }, resolver, shouldFocusError: false });
  // What the server refuses all the same (a rule only it checks) is put on its field too.
  const { refuseFromServer } = useFieldRefusals(form);
  const { errors } = form.formState;
  useSaveShortcut(formRef);

  // The next band usually starts where the highest one ends.
  const highest = list.data?.bands.at(-1);
  useEffect(() => {
    if (highest && !form.getValues("minPrice")) form.setValue("minPrice", highest.maxPrice.toFixed(2));
  }, [highest, form]);

  const submit = async (input: SurchargeBandInput) => {
    setMissing(new Set());
    const band = await create.mutateAsync(input);
    toast.success("Surcharge band added", { description: `${formatEuro(band.minPrice)}–${formatEuro(band.maxPrice)} at ${percentAsTyped(band.percentage)}%. Checkout charges it from the next quote.` });
    router.push("/admin/shippingSurcharge/manage");
  };
  const error = (field: (typeof required)[number]) => (missing.has(field) ? "Required" : errors[field]?.message);

  return (
    <>
      <ShippingCostsNav />
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <form
          ref={formRef}
          noValidate
          aria-label="New surcharge band"
          onSubmit={form.handleSubmit(
            (input) => submit(input).catch(refuseFromServer),
            (refused) => {
              create.reset();
              showRefusal(refused, setMissing, (path) => fieldLabels[path] ?? path);
            },
          )}
          className="space-y-4"
        >
          <AdminCard>
            <AdminCardHeader title="New surcharge band" description="Orders whose value lies in the range pay this percentage of their value on top of shipping, to insure the parcel." />
            <div className="grid gap-4 p-4 sm:grid-cols-3">
              <FormField label="From (€)" htmlFor="field-minPrice" required error={error("minPrice")} hint="Where the band before it ends">
                <NumberInput {...fieldProps("minPrice", error("minPrice"), true)} {...form.register("minPrice")} {...euroRange} placeholder="500.00" />
              </FormField>
              <FormField label="Up to (€)" htmlFor="field-maxPrice" required error={error("maxPrice")} hint="Where the next band starts">
                <NumberInput {...fieldProps("maxPrice", error("maxPrice"), true)} {...form.register("maxPrice")} {...euroRange} placeholder="1000.00" />
              </FormField>
              <FormField label="Surcharge (%)" htmlFor="field-percentage" required error={error("percentage")} hint="Of the order value, 0 to 100">
                <NumberInput {...fieldProps("percentage", error("percentage"), true)} {...form.register("percentage")} {...surchargePercentRange} placeholder="5" />
              </FormField>
            </div>
          </AdminCard>
          <RefusalNote message={create.error?.message} />
          <FormActions note={<RequiredNote shortcut />}>
            <CancelButton />
            <SubmitButton busy={create.isPending} icon={<Plus />}>
              Add band
            </SubmitButton>
          </FormActions>
        </form>
        <AdminCard aria-label="Current bands">
          <AdminCardHeader title="Current bands" description="The new band must join these without overlapping one or leaving a gap." />
          {list.isPending ? <div className="m-4 h-24 animate-pulse rounded bg-muted" /> : null}
          {list.data && list.data.bands.length === 0 ? <p className="px-4 py-6 text-sm text-muted-foreground">No bands yet: the first can cover any range.</p> : null}
          <ul className="divide-y text-sm tabular-nums">
            {list.data?.bands.map((band) => (
              <li key={band.id} className={cn("flex items-center justify-between gap-3 px-4 py-2")}>
                <span>
                  {formatEuro(band.minPrice)}–{formatEuro(band.maxPrice)}
                </span>
                <span className="font-medium text-primary">{percentAsTyped(band.percentage)}%</span>
              </li>
            ))}
          </ul>
        </AdminCard>
      </div>
    </>
  );
}
