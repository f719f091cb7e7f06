import type { ReactNode } from "react";

/** One line of a card's list of facts: the name on the left, the value right-aligned. Used inside a `dl`. */
export function CardField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1 text-sm">
      <dt className="min-w-0 text-muted-foreground">{label}</dt>
      <dd className="max-w-[65%] shrink-0 text-right break-words tabular-nums">{children}</dd>
    </div>
  );
}
