"use client";

import { Download } from "lucide-react";
import { useState } from "react";
import { AdminDialog, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { AdminInput, AdminLabel } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";

/** YYYY-MM-DD of a date in the browser's own calendar. */
const isoDay = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

/** Last month: what the accountant asks for at the start of this one. */
function lastMonth(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDay(new Date(today.getFullYear(), today.getMonth() - 1, 1)), to: isoDay(new Date(today.getFullYear(), today.getMonth(), 0)) };
}

/**
 * The accountant's CSV of paid orders for a period (`/admin/orders/export`), starting from the table's own date
 * filter, or last month without one. The browser downloads the file; the server streams it.
 */
export function ExportDialog({ from, to }: { from?: string; to?: string }) {
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState(() => (from && to ? { from, to } : lastMonth()));
  const valid = range.from !== "" && range.to !== "" && range.from <= range.to;
  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => {
        if (next) setRange(from && to ? { from, to } : lastMonth());
        setOpen(next);
      }}
    >
      <AdminDialogTrigger asChild>
        <Button size="sm" variant="outline" className="h-9">
          <Download /> Export CSV
        </Button>
      </AdminDialogTrigger>
      <AdminDialogContent title="Export paid orders" description="One line per order paid in the period (by the day it was paid, shop time): number, date, customer, country, items, discount, shipping, surcharge, total, payment method and fees.">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-1">
            <AdminLabel htmlFor="export-from">First day</AdminLabel>
            <AdminInput id="export-from" type="date" value={range.from} max={range.to} onChange={(event) => setRange({ ...range, from: event.target.value })} />
          </div>
          <div className="space-y-1">
            <AdminLabel htmlFor="export-to">Last day</AdminLabel>
            <AdminInput id="export-to" type="date" value={range.to} min={range.from} onChange={(event) => setRange({ ...range, to: event.target.value })} />
          </div>
        </div>
        <div className="mt-4 flex justify-end">
          {valid ? (
            <Button asChild onClick={() => setOpen(false)}>
              <a href={`/admin/orders/export?from=${range.from}&to=${range.to}`} download>
                <Download /> Download CSV
              </a>
            </Button>
          ) : (
            <Button disabled>
              <Download /> Download CSV
            </Button>
          )}
        </div>
      </AdminDialogContent>
    </AdminDialog>
  );
}
