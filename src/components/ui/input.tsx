import type * as React from "react";
import { cn } from "@/lib/utils";

const inputClasses =
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 md:text-sm";

export function Input({ className, type, ...props }: React.ComponentProps<"input">) {
  // As in Button: tailwind-merge only when there is something to merge (the /search filters' fields add nothing).
  return <input type={type} className={className ? cn(inputClasses, className) : inputClasses} {...props} />;
}
