import type * as React from "react";
import { cn } from "@/lib/utils";

// Data-table primitives for the back office: compact rows, a header that stays in view while the rows scroll,
// tabular figures so columns of numbers line up.

export function AdminTable({ className, ...props }: React.ComponentProps<"table">) {
  return <table className={cn("w-full caption-bottom border-separate border-spacing-0 text-sm tabular-nums", className)} {...props} />;
}

export function AdminTableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead className={cn("sticky top-0 z-10 [&_th]:bg-muted/95 [&_th]:backdrop-blur", className)} {...props} />;
}

export function AdminTableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody className={cn("[&_tr:last-child_td]:border-b-0", className)} {...props} />;
}

export function AdminTableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr className={cn("group transition-colors hover:bg-accent/40 data-[state=selected]:bg-accent/60", className)} {...props} />;
}

export function AdminTableHead({ className, ...props }: React.ComponentProps<"th">) {
  return (
    <th
      className={cn(
        "h-9 border-b px-3 text-left align-middle text-[11px] font-semibold uppercase tracking-wide whitespace-nowrap text-muted-foreground",
        className,
      )}
      {...props}
    />
  );
}

export function AdminTableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td className={cn("h-10 border-b px-3 py-1.5 align-middle", className)} {...props} />;
}
