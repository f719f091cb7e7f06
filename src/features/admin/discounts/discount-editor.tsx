"use client";

import { History } from "lucide-react";
import Link from "next/link";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminSwitch } from "@/components/ui/admin-form-controls";
import { formatEuro } from "@/lib/money";
import { plural } from "@/lib/plural";
import { formatCount, formatDateTime } from "../kit/format";
import { WindowText } from "./discount-list";
import { DiscountForm } from "./discount-form";
import { discountStatusLabels, discountStatusTones, discountTypeLabels } from "./labels";
import { useDiscount, useSetDiscountActive } from "./queries";

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="rounded-md border bg-card px-3 py-2">
      <p className="text-[11px] tracking-wide text-muted-foreground uppercase">{label}</p>
      <p className="text-sm font-medium tabular-nums">{children}</p>
    </div>
  );
}

/** One discount: where it stands, what it brought in, the active switch, and the form to change it. */
export function DiscountEditor({ id }: { id: number }) {
  const discount = useDiscount(id);
  const setActive = useSetDiscountActive();

  if (discount.error) return <p className="text-sm text-destructive">{discount.error.message}</p>;
  if (!discount.data) return <div className="h-96 animate-pulse rounded-lg border bg-muted/40" aria-busy="true" />;
  const data = discount.data;
  const toggle = (active: boolean) =>
    setActive.mutate({ id, active }, { onSuccess: () => toast.success(active ? "Switched on" : "Switched off", { description: `${data.name} ${active ? "applies again within its window" : "no longer applies"}.` }) });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <h2 className={data.discountType === "COUPON" ? "font-mono text-2xl font-semibold" : "text-2xl font-semibold"}>{data.name}</h2>
        <AdminBadge tone="neutral">#{data.id}</AdminBadge>
        <AdminBadge tone="brass">{discountTypeLabels[data.discountType]}</AdminBadge>
        <AdminBadge tone={discountStatusTones[data.status]}>{discountStatusLabels[data.status]}</AdminBadge>
        <span className="text-lg font-semibold tabular-nums">{data.label}</span>
        <label className="ml-auto flex items-center gap-2 text-sm">
          <AdminSwitch checked={data.active} disabled={setActive.isPending} onCheckedChange={toggle} aria-label={data.active ? "Switch off" : "Switch on"} />
          {data.active ? "Active" : "Switched off"}
        </label>
      </div>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-5">
        <Figure label="Window (shop time)">
          <WindowText startsAt={data.startsAt} expiresAt={data.expiresAt} />
        </Figure>
        <Figure label="Uses">
          {formatCount(data.uses)}
          {data.usageLimit ? <span className="text-muted-foreground"> of {formatCount(data.usageLimit)}</span> : null}
        </Figure>
        <Figure label="Revenue">{formatEuro(data.revenue)}</Figure>
        <Figure label="Applies to">
          {data.discountType === "PRODUCT"
            ? plural(data.targets ?? 0, "product")
            : data.discountType === "USER"
              ? plural(data.targets ?? 0, "customer")
              : data.discountType === "GLOBAL"
                ? "Every product"
                : data.minOrderValue
                  ? `Carts from ${formatEuro(data.minOrderValue)}`
                  : "Any cart"}
        </Figure>
        <Figure label="Changed">
          <Link href={`/admin/logbook/level/info?entity=DISCOUNT&entityId=${data.id}`} className="inline-flex items-center gap-1 hover:text-primary hover:underline">
            {formatDateTime(data.updatedAt)} <History className="size-3.5" />
          </Link>
        </Figure>
      </div>
      <DiscountForm discount={data} />
    </div>
  );
}
