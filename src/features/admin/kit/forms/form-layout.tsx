"use client";

import { Loader2, Save } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, type ReactNode, type RefObject } from "react";
import { AdminKbd, keyboardOnly } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/**
 * A part of a staff form: its title and what it is for on the left, its fields on the right (stacked on a narrow
 * screen). `bodyClassName` replaces the fields' default stacking, for a grid of fields.
 */
export function FormSection({
  title,
  description,
  className,
  bodyClassName = "min-w-0 space-y-3",
  children,
}: {
  title: ReactNode;
  description: string;
  className?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  return (
    <section className={cn("grid gap-x-8 gap-y-3 border-b py-5 last:border-b-0 lg:grid-cols-[14rem_1fr]", className)}>
      <div>
        <h3 className="font-sans text-sm font-semibold tracking-normal">{title}</h3>
        <p className="mt-1 text-xs text-muted-foreground">{description}</p>
      </div>
      <div className={bodyClassName}>{children}</div>
    </section>
  );
}

/**
 * A form's buttons, right-aligned after a note on the left. `sticky` keeps them in view at the bottom of a long
 * form, across the page's padding.
 */
export function FormActions({ note, sticky = false, className, children }: { note?: ReactNode; sticky?: boolean; className?: string; children: ReactNode }) {
  return (
    <div className={cn("flex flex-wrap items-center justify-end gap-3", sticky && "sticky bottom-0 z-10 -mx-5 border-t bg-background/90 px-5 py-3 backdrop-blur", className)}>
      {note ? <p className="mr-auto basis-full text-xs text-muted-foreground md:basis-auto">{note}</p> : null}
      {children}
    </div>
  );
}

/** A server refusal beside the form it refused, in the words the server gave (the toast shows them too). */
export function RefusalNote({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}

/** SPEC section 5's note on the required mark, with the save shortcut where the form has one (`useSaveShortcut`). */
export function RequiredNote({ shortcut = false }: { shortcut?: boolean }) {
  return (
    <>
      Fields marked <span className="text-destructive">*</span> are required.{shortcut ? <> <SaveShortcutHint /></> : null}
    </>
  );
}

/** The hint for `useSaveShortcut`, where there is a keyboard. */
export function SaveShortcutHint() {
  return (
    <span className={keyboardOnly}>
      <AdminKbd>Ctrl</AdminKbd> <AdminKbd>S</AdminKbd> saves.
    </span>
  );
}

/** A form's submit button: a spinner instead of its icon (a floppy disk unless told) while the save runs. */
export function SubmitButton({ busy, disabled = busy, icon = <Save />, className, children }: { busy: boolean; disabled?: boolean; icon?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <Button type="submit" size="sm" disabled={disabled} className={className}>
      {busy ? <Loader2 className="animate-spin" /> : icon}
      {children}
    </Button>
  );
}

/** Leaves the form unsaved, back to where staff came from. */
export function CancelButton() {
  const router = useRouter();
  return (
    <Button type="button" variant="outline" size="sm" onClick={() => router.back()}>
      Cancel
    </Button>
  );
}

/** Ctrl+S / ⌘S submits the form from anywhere on the page. */
export function useSaveShortcut(form: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        form.current?.requestSubmit();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [form]);
}
