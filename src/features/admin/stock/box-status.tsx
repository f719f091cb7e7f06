import { Check } from "lucide-react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { boxStatuses, type BoxStatus } from "@/lib/enums";
import { cn } from "@/lib/utils";

const tone = { OPEN: "brass", SHIPPED: "info", EXPLODED: "success" } as const;
const label = { OPEN: "Open", SHIPPED: "Shipped", EXPLODED: "Exploded" } as const;

export function BoxStatusBadge({ status }: { status: BoxStatus }) {
  return <AdminBadge tone={tone[status]}>{label[status]}</AdminBadge>;
}

const explain = { OPEN: "Being filled", SHIPPED: "In transit", EXPLODED: "Booked into stock" } as const;

/** OPEN -> SHIPPED -> EXPLODED, with where the box is now. */
export function BoxStepper({ status }: { status: BoxStatus }) {
  const current = boxStatuses.indexOf(status);
  return (
    // On a phone the steps share the card's width, the lines between them shortening, rather than run past it.
    <ol className="flex w-full items-center gap-2 sm:w-auto" aria-label="Box progress">
      {boxStatuses.map((step, index) => (
        <li key={step} className={cn("flex items-center gap-2", index < boxStatuses.length - 1 && "flex-1 sm:flex-none")} aria-current={index === current ? "step" : undefined}>
          <span
            className={cn(
              "flex size-6 shrink-0 items-center justify-center rounded-full border text-[11px] font-semibold",
              index < current && "border-primary bg-primary text-primary-foreground",
              index === current && "border-primary bg-primary/15 text-primary ring-4 ring-primary/10",
              index > current && "text-muted-foreground",
            )}
          >
            {index < current ? <Check className="size-3.5" /> : index + 1}
          </span>
          <span className="leading-tight">
            <span className={cn("block text-xs font-semibold", index > current && "text-muted-foreground")}>{label[step]}</span>
            <span className="block text-[10px] text-muted-foreground">{explain[step]}</span>
          </span>
          {index < boxStatuses.length - 1 ? <span className={cn("mx-1 h-px min-w-2 flex-1 sm:w-10 sm:flex-none", index < current ? "bg-primary" : "bg-border")} /> : null}
        </li>
      ))}
    </ol>
  );
}
