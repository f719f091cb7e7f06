import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "@/lib/utils";

const badgeVariants = cva("inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-[11px] font-medium whitespace-nowrap", {
  variants: {
    tone: {
      neutral: "border-border bg-muted text-muted-foreground",
      brass: "border-brass/30 bg-brass/10 text-primary",
      success: "border-emerald-600/20 bg-emerald-600/10 text-emerald-800 dark:text-emerald-300",
      info: "border-sky-600/20 bg-sky-600/10 text-sky-800 dark:text-sky-300",
      warning: "border-amber-500/30 bg-amber-500/10 text-amber-800 dark:text-amber-300",
      danger: "border-destructive/30 bg-destructive/10 text-destructive",
    },
  },
  defaultVariants: { tone: "neutral" },
});

export type AdminBadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

export function AdminBadge({ className, tone, ...props }: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
