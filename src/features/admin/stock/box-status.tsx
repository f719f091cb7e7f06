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
    <ol className="flex items-center gap-2" aria-label="Box progress">
      {boxStatuses.map((step, index) => (
        <li key={step} className="flex items-center gap-2" aria-current={index === current ? "step" : undefined}>
          <span
            className={cn(
              "flex size-6 items-center justify-center rounded-full border text-[11px] font-semibold",
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
          {index < boxStatuses.length - 1 ? <span className={cn("mx-1 h-px w-10", index < current ? "bg-primary" : "bg-border")} /> : null}
        </li>
      ))}
    </ol>
  );
}
