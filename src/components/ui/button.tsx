import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "@/lib/utils";

// What every button shares is the `.btn` class of globals.css rather than a dozen utilities on each: a listing's
// cached HTML has an add-to-cart button per card. A component class gives way to any utility a caller adds.
const buttonVariants = cva(
  "btn",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground hover:bg-primary/90",
        destructive: "bg-destructive text-destructive-foreground hover:bg-destructive/90",
        outline: "border border-input bg-background hover:bg-accent hover:text-accent-foreground",
        secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/80",
        ghost: "hover:bg-accent hover:text-accent-foreground",
        link: "text-primary underline-offset-4 hover:underline",
      },
      // The gap is part of the size so that a size can change it without a class that tailwind-merge must resolve.
      size: {
        default: "h-10 gap-2 px-4 py-2",
        sm: "h-9 gap-2 rounded-md px-3",
        lg: "h-11 gap-2 rounded-md px-8",
        icon: "h-10 w-10 gap-2",
        "icon-sm": "size-9 gap-2",
        /** A text button opening a menu, with its chevron close to the label. */
        menu: "h-10 gap-1 px-3 py-2",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

export function Button({
  className,
  variant,
  size,
  asChild = false,
  ...props
}: React.ComponentProps<"button"> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
  const Comp = asChild ? Slot : "button";
  // tailwind-merge's first call builds its lookup tables, a long task on a phone while the page hydrates: classes are
  // merged only when the caller adds some. Buttons on the storefront's first screen add none, or use buttonVariants.
  return <Comp className={className ? cn(buttonVariants({ variant, size }), className) : buttonVariants({ variant, size })} {...props} />;
}

export { buttonVariants };
