import { Hourglass } from "lucide-react";
import Link from "next/link";

/**
 * The page of an admin route whose work belongs to a later part of the back office (orders, discounts, shipping
 * surcharges, marketplace ads). It says so plainly instead of pretending.
 */
export function ArrivesLater({ area, what }: { area: string; what: string }) {
  return (
    <div className="mx-auto mt-10 max-w-xl rounded-xl border border-dashed bg-card/60 p-8 text-center">
      <div className="mx-auto flex size-11 items-center justify-center rounded-full bg-primary/10 text-primary">
        <Hourglass className="size-5" />
      </div>
      <h2 className="mt-4 text-xl font-semibold">This page arrives with the {area} work</h2>
      <p className="mt-2 text-sm text-muted-foreground">{what}</p>
      <p className="mt-4 text-sm">
        <Link href="/admin/dashboard" className="text-primary hover:underline">
          Back to the dashboard
        </Link>
      </p>
    </div>
  );
}
