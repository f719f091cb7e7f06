import { ArrowRight, Boxes, CircleDollarSign, Mail, Package, ShoppingBag, StickyNote, Tag, Webhook, type LucideIcon } from "lucide-react";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { cn } from "@/lib/utils";
import type { TimelineEntry, TimelineKind } from "@/server/orders/admin-schemas";
import { formatDateTime } from "../kit/format";
import { orderStatusLabels } from "./order-status";

const icons: Record<TimelineKind, LucideIcon> = {
  placed: ShoppingBag,
  status: Package,
  payment: CircleDollarSign,
  webhook: Webhook,
  email: Mail,
  label: Tag,
  stock: Boxes,
  note: StickyNote,
};

const levelTone = { INFO: "bg-muted text-muted-foreground", WARNING: "bg-amber-500/15 text-amber-700 dark:text-amber-300", ERROR: "bg-destructive/15 text-destructive" } as const;

/** Everything that happened to the order, oldest first: the logbook, the provider's callbacks and the stock ledger. */
export function OrderTimeline({ entries }: { entries: TimelineEntry[] }) {
  return (
    <AdminCard>
      <AdminCardHeader title="Timeline" description="Status changes, payments and their callbacks, e-mails, labels and stock, as they happened." />
      <ol className="space-y-0 px-4 py-3" aria-label="Timeline">
        {entries.map((entry, index) => {
          const Icon = icons[entry.kind];
          return (
            <li key={index} className="relative flex gap-3 pb-4 last:pb-0">
              {index < entries.length - 1 ? <span className="absolute top-7 bottom-0 left-3.5 w-px bg-border" aria-hidden="true" /> : null}
              <span className={cn("relative flex size-7 shrink-0 items-center justify-center rounded-full", levelTone[entry.level])}>
                <Icon className="size-3.5" aria-hidden="true" />
              </span>
              <div className="min-w-0 flex-1 pt-0.5">
                {entry.change ? (
                  <p className="flex flex-wrap items-center gap-1 text-sm font-medium">
                    {orderStatusLabels[entry.change.from]} <ArrowRight className="size-3.5 text-muted-foreground" aria-label="to" /> {orderStatusLabels[entry.change.to]}
                  </p>
                ) : null}
                <p className={cn("text-sm break-words", entry.change && "text-xs text-muted-foreground", entry.level === "ERROR" && "text-destructive")}>{entry.text}</p>
                <p className="mt-0.5 text-[11px] text-muted-foreground">
                  <time dateTime={entry.at.toISOString()}>{formatDateTime(entry.at)}</time>
                  {entry.by ? ` · ${entry.by}` : ""}
                </p>
              </div>
            </li>
          );
        })}
        {entries.length === 0 ? <li className="text-sm text-muted-foreground">Nothing recorded yet.</li> : null}
      </ol>
    </AdminCard>
  );
}
