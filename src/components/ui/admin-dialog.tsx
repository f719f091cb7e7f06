"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type * as React from "react";
import { cn } from "@/lib/utils";

export const AdminDialog = DialogPrimitive.Root;
export const AdminDialogTrigger = DialogPrimitive.Trigger;
export const AdminDialogClose = DialogPrimitive.Close;

type ContentProps = React.ComponentProps<typeof DialogPrimitive.Content> & { title: React.ReactNode; description?: React.ReactNode };

/** Where a panel sits and how it is laid out; everything else (heading, body, close button) both panels share. */
type Layout = { overlay: string; content: string; header?: string; description: string; body: string };

const centredDialog: Layout = {
  overlay: "bg-black/40 backdrop-blur-[1px]",
  content:
    "top-1/2 left-1/2 w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-lg border p-5 shadow-xl data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95",
  description: "mt-1",
  body: "mt-4",
};

const sideSheet: Layout = {
  overlay: "bg-black/30",
  content: "inset-y-0 right-0 flex w-full max-w-3xl flex-col border-l shadow-2xl data-[state=open]:slide-in-from-right",
  header: "border-b px-5 py-4 pr-12",
  description: "mt-0.5",
  body: "min-h-0 flex-1 overflow-y-auto px-5 py-4",
};

function CloseButton() {
  return (
    <DialogPrimitive.Close className="absolute top-4 right-4 rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
      <X className="size-4" />
      <span className="sr-only">Close</span>
    </DialogPrimitive.Close>
  );
}

function Panel({ layout, className, children, title, description, ...props }: ContentProps & { layout: Layout }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={cn("fixed inset-0 z-50 data-[state=open]:animate-in data-[state=open]:fade-in-0", layout.overlay)} />
      <DialogPrimitive.Content className={cn("fixed z-50 bg-card data-[state=open]:animate-in", layout.content, className)} {...props}>
        <div className={layout.header}>
          <DialogPrimitive.Title className="font-serif text-lg font-semibold">{title}</DialogPrimitive.Title>
          {description ? <DialogPrimitive.Description className={cn("text-sm text-muted-foreground", layout.description)}>{description}</DialogPrimitive.Description> : null}
        </div>
        <div className={layout.body}>{children}</div>
        <CloseButton />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function AdminDialogContent(props: ContentProps) {
  return <Panel layout={centredDialog} {...props} />;
}

/** A side panel for details that sit beside a table (a logbook entry, a product's stock history). */
export function AdminSheetContent(props: ContentProps) {
  return <Panel layout={sideSheet} {...props} />;
}
