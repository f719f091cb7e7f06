import type * as React from "react";
import { cn } from "@/lib/utils";

/**
 * `min-w-0`: a card is often a grid or flex item, whose automatic minimum width is its content's; a wide table in its
 * own scroller would otherwise stretch the card, and a phone's page, past the screen.
 */
export function AdminCard({ className, ...props }: React.ComponentProps<"section">) {
  return <section className={cn("min-w-0 rounded-lg border bg-card text-card-foreground shadow-xs", className)} {...props} />;
}

export function AdminCardHeader({ className, title, description, actions }: { className?: string; title: React.ReactNode; description?: React.ReactNode; actions?: React.ReactNode }) {
  return (
    // The actions go under the title where both do not fit side by side (a phone), rather than squeezing it to a sliver.
    <header className={cn("flex flex-wrap items-start justify-between gap-3 border-b px-4 py-3", className)}>
      <div className="min-w-0 flex-1 basis-56">
        <h2 className="font-sans text-sm font-semibold tracking-normal">{title}</h2>
        {description ? <p className="mt-0.5 text-xs text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
    </header>
  );
}
