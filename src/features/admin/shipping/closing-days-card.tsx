"use client";

import { Ban, Loader2, X } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminInput, AdminLabel } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { formatShippingDay } from "@/lib/labels";
import { plural } from "@/lib/plural";
import type { ClosedDay, ShippingDayChange } from "@/server/shipping/schemas";
import { useAddClosingDay, useRemoveClosingDay } from "./shipping-calendar-queries";

/** What a change did to the orders waiting to ship, in sentences for the toast. */
export function describeReplan(change: ShippingDayChange): string[] {
  const parts: string[] = [];
  if (change.replan.released.length) parts.push(`${plural(change.replan.released.length, "future shipment")} now ready to ship: ${change.replan.released.join(", ")}.`);
  if (change.replan.moved.length) parts.push(`${plural(change.replan.moved.length, "order")} planned on another day.`);
  return parts;
}

/** What closing or opening a day did, for the toast. */
function describe(change: ShippingDayChange, closing: boolean): string {
  const day = formatShippingDay(change.date);
  if (!change.changed) return `${day} ${closing ? "was already" : "was not"} a closing day.`;
  return [closing ? `Nothing ships on ${day}.` : `${day} is open again.`, ...describeReplan(change)].join(" ");
}

/**
 * The days the shop closes beside the calendar: the public holidays it knows by itself and the closing days staff
 * add with a reason (a holiday of the owner's, stock-taking). Closing a day moves the orders planned on it.
 */
export function ClosingDaysCard({ today, monthLabel, closed }: { today: string | null; monthLabel: string; closed: ClosedDay[] }) {
  const add = useAddClosingDay();
  const remove = useRemoveClosingDay();
  const [date, setDate] = useState("");
  const [reason, setReason] = useState("");
  const busy = add.isPending || remove.isPending;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    add.mutate(
      { date, reason },
      {
        onSuccess: (change) => {
          toast.success(change.changed ? "Closing day added" : "Nothing changed", { description: describe(change, true) });
          setDate("");
          setReason("");
        },
      },
    );
  };

  return (
    <AdminCard aria-label="Closing days">
      <AdminCardHeader title="Closing days" description="Nothing ships on public holidays or on a day you close; orders planned on it move to the next shipping day." />
      <form onSubmit={submit} className="grid gap-3 border-b p-4">
        <div className="grid gap-1.5">
          <AdminLabel htmlFor="closing-day-date" required>
            Day
          </AdminLabel>
          <AdminInput id="closing-day-date" type="date" required min={today ?? undefined} value={date} onChange={(event) => setDate(event.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <AdminLabel htmlFor="closing-day-reason" required>
            Reason
          </AdminLabel>
          <AdminInput id="closing-day-reason" required maxLength={120} placeholder="Stock-taking" value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
        <Button type="submit" size="sm" disabled={busy || !date || !reason.trim()} className="justify-self-start">
          {add.isPending ? <Loader2 className="animate-spin" /> : <Ban />} Close the shop that day
        </Button>
      </form>
      {closed.length ? (
        <ul className="divide-y" aria-label={`Closed days in ${monthLabel}`}>
          {closed.map((day) => (
            <li key={day.date} className="flex items-center gap-2 px-4 py-2 text-sm">
              <span className="min-w-0 flex-1">
                <span className="block">{formatShippingDay(day.date)}</span>
                <span className="block truncate text-xs text-muted-foreground">{day.reason}</span>
              </span>
              {day.kind === "holiday" ? (
                <AdminBadge>public holiday</AdminBadge>
              ) : (
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-9"
                  disabled={busy || (today !== null && day.date < today)}
                  aria-label={`Open again on ${formatShippingDay(day.date)}`}
                  onClick={() => remove.mutate({ date: day.date }, { onSuccess: (change) => toast.success("Closing day removed", { description: describe(change, false) }) })}
                >
                  <X />
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-4 py-3 text-sm text-muted-foreground">No closed days in {monthLabel}.</p>
      )}
    </AdminCard>
  );
}
