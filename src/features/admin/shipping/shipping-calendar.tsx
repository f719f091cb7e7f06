"use client";

import { Ban, CalendarDays, ChevronLeft, ChevronRight, Loader2, Truck, X } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import { formatShippingDay } from "@/lib/labels";
import { plural } from "@/lib/plural";
import { cn } from "@/lib/utils";
import type { ShippingDayChange } from "@/server/shipping/schemas";
import { ClosingDaysCard, describeReplan } from "./closing-days-card";
import { useAddShippingDay, useRemoveShippingDay, useShippingCalendar } from "./shipping-calendar-queries";

const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const monthName = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/** YYYY-MM-DD of a UTC date. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The month `?month=YYYY-MM` names, or this month: its first and last day and the days of its grid (Monday first). */
function monthOf(param: string | null) {
  const [year, month] = /^\d{4}-\d{2}$/.test(param ?? "") ? param!.split("-").map(Number) : [new Date().getFullYear(), new Date().getMonth() + 1];
  const first = new Date(Date.UTC(year!, month! - 1, 1));
  const last = new Date(Date.UTC(year!, month!, 0));
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [...Array.from({ length: lead }, () => null)];
  for (let day = 1; day <= last.getUTCDate(); day++) cells.push(isoDay(new Date(Date.UTC(year!, month! - 1, day))));
  while (cells.length % 7) cells.push(null);
  const shift = (by: number) => isoDay(new Date(Date.UTC(year!, month! - 1 + by, 1))).slice(0, 7);
  return { label: monthName.format(first), from: isoDay(first), to: isoDay(last), cells, previous: shift(-1), next: shift(1) };
}

/** What a change did, in a sentence for the toast. */
function describe(change: ShippingDayChange, added: boolean): string {
  const day = formatShippingDay(change.date);
  if (!change.changed) return `${day} ${added ? "was already" : "was not"} a shipping day.`;
  return [`${day} is ${added ? "now" : "no longer"} a shipping day.`, ...describeReplan(change)].join(" ");
}

/**
 * /admin/orders/shipping-calendar: the days parcels go out. A month to click days on and off, and the next
 * shipping days with the orders planned on each. Days before today are history and cannot change.
 */
export function ShippingCalendar() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const month = monthOf(params.get("month"));
  const calendar = useShippingCalendar({ from: month.from, to: month.to });
  const add = useAddShippingDay();
  const remove = useRemoveShippingDay();
  const busy = add.isPending || remove.isPending;
  const data = calendar.data;
  const shipping = new Set(data?.days);
  const planned = new Map(data?.plannedOrders.map((entry) => [entry.date, entry.count]));
  const closed = new Map(data?.closed.map((entry) => [entry.date, entry]));

  const change = (day: string, adding: boolean) => {
    const mutation = adding ? add : remove;
    mutation.mutate({ date: day }, { onSuccess: (change) => toast.success(adding ? "Shipping day added" : "Shipping day removed", { description: describe(change, adding) }) });
  };
  const goTo = (target: string) => router.replace(`${pathname}?month=${target}`, { scroll: false });

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <AdminCard aria-label="Shipping calendar">
        <AdminCardHeader
          title={month.label}
          description="Click a day to make it a shipping day, or to take it off."
          actions={
            <>
              {calendar.isFetching || busy ? <Loader2 className="size-4 animate-spin text-muted-foreground" /> : null}
              <Button variant="outline" size="icon" className="size-9" aria-label="Previous month" onClick={() => goTo(month.previous)}>
                <ChevronLeft />
              </Button>
              <Button variant="outline" size="icon" className="size-9" aria-label="Next month" onClick={() => goTo(month.next)}>
                <ChevronRight />
              </Button>
            </>
          }
        />
        <div className="p-2 sm:p-4">
          <div className="grid grid-cols-7 gap-1 sm:gap-2" aria-label={`Shipping days in ${month.label}`}>
            {weekdays.map((day) => (
              <div key={day} aria-hidden="true" className="pb-1 text-center text-[11px] font-medium tracking-wide text-muted-foreground uppercase">
                {day}
              </div>
            ))}
            {month.cells.map((day, index) => {
              if (!day) return <div key={`blank-${index}`} aria-hidden="true" />;
              const isShipping = shipping.has(day);
              const past = data ? day < data.today : false;
              const orders = planned.get(day);
              const closedDay = closed.get(day);
              return (
                <button
                  key={day}
                  type="button"
                  disabled={past || busy || !data || closedDay !== undefined}
                  aria-pressed={isShipping}
                  title={closedDay ? `Closed: ${closedDay.reason}` : undefined}
                  aria-label={`${formatShippingDay(day)}${isShipping ? ", shipping day" : ""}${closedDay ? `, closed: ${closedDay.reason}` : ""}${orders ? `, ${plural(orders, "order")} planned` : ""}`}
                  onClick={() => change(day, !isShipping)}
                  className={cn(
                    "relative flex aspect-square min-h-11 flex-col items-center justify-center rounded-md border text-sm transition-colors sm:aspect-[4/3]",
                    isShipping ? "border-primary bg-primary text-primary-foreground hover:bg-primary/90" : "bg-card hover:border-primary hover:bg-accent/40",
                    closedDay && "cursor-not-allowed border-dashed border-destructive/50 bg-destructive/5 text-destructive hover:border-destructive/50 hover:bg-destructive/5",
                    past && "cursor-not-allowed opacity-45 hover:border-border hover:bg-card",
                    past && isShipping && "hover:bg-primary",
                    day === data?.today && "ring-2 ring-brass ring-offset-1 ring-offset-background",
                  )}
                >
                  <span className="font-medium tabular-nums">{Number(day.slice(8))}</span>
                  {isShipping ? <Truck className="size-3.5 opacity-80" aria-hidden="true" /> : null}
                  {closedDay ? <Ban className="size-3.5 opacity-70" aria-hidden="true" /> : null}
                  {orders ? (
                    <span className={cn("absolute top-0.5 right-1 text-[10px] font-semibold tabular-nums", isShipping ? "text-primary-foreground" : "text-primary")}>{orders}</span>
                  ) : null}
                </button>
              );
            })}
          </div>
          <p className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <span className="flex items-center gap-1.5">
              <span className="inline-block size-3 rounded-sm bg-primary" /> shipping day
            </span>
            <span className="flex items-center gap-1.5">
              <span className="inline-block size-3 rounded-sm ring-2 ring-brass" /> today
            </span>
            <span className="flex items-center gap-1.5">
              <span className="inline-block size-3 rounded-sm border border-dashed border-destructive/60 bg-destructive/5" /> closed: a public holiday or closing day
            </span>
            <span>A number: orders planned to leave that day.</span>
          </p>
        </div>
      </AdminCard>
      <div className="grid gap-4">
      <AdminCard aria-label="Upcoming shipping days">
        <AdminCardHeader
          title="Upcoming shipping days"
          description={data?.nextShippingDay ? `Orders paid now leave ${formatShippingDay(data.nextShippingDay)}.` : "No shipping day is planned: plan one so orders get a date."}
        />
        {data?.upcoming.length ? (
          <ul className="divide-y">
            {data.upcoming.map((day) => (
              <li key={day} className="flex items-center gap-2 px-4 py-2 text-sm">
                <CalendarDays className="size-4 shrink-0 text-brass" />
                <span className="flex-1">{formatShippingDay(day)}</span>
                {day === data.nextShippingDay ? <AdminBadge tone="success">next</AdminBadge> : null}
                <Button variant="ghost" size="icon" className="size-9" disabled={busy} aria-label={`Remove ${formatShippingDay(day)}`} onClick={() => change(day, false)}>
                  <X />
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-4 py-3 text-sm text-muted-foreground">{data ? "None planned." : "Loading…"}</p>
        )}
      </AdminCard>
      <ClosingDaysCard today={data?.today ?? null} monthLabel={month.label} closed={data?.closed ?? []} />
      </div>
    </div>
  );
}
