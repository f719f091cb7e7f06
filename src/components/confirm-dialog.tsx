"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useCallback, useRef, useState, type ReactNode } from "react";
import { AdminDialogContent } from "@/components/ui/admin-dialog";
import { Button } from "@/components/ui/button";
import { DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/** What a confirmation asks: the question, what follows a yes, and the yes button's words ("Delete", "Void label"). */
export type ConfirmQuestion = { title: string; description?: string; confirmLabel: string; destructive?: boolean };

type Pending = { question: ConfirmQuestion; resolve: (yes: boolean) => void };

/**
 * The shop's own yes-or-no question in place of the browser's `confirm()` (which blocks the page, cannot be styled
 * and names the site's address as its title): `const [confirm, dialog] = useConfirm()`, render `dialog`, and
 * `if (await confirm({ … })) act()`. Closing the dialog, Escape or Cancel answer no; Cancel has the focus first,
 * so a stray Enter does not delete. The back office asks in its
 * centred dialog; the shop's pages (`look: "shop"`) in the shop's, a side sheet on a phone.
 */
export function useConfirm(look: "admin" | "shop" = "admin"): [(question: ConfirmQuestion) => Promise<boolean>, ReactNode] {
  const [pending, setPending] = useState<Pending | null>(null);
  const current = useRef<Pending | null>(null);
  const confirm = useCallback(
    (question: ConfirmQuestion) =>
      new Promise<boolean>((resolve) => {
        current.current?.resolve(false);
        current.current = { question, resolve };
        setPending(current.current);
      }),
    [],
  );
  const answer = (yes: boolean) => {
    current.current?.resolve(yes);
    current.current = null;
    setPending(null);
  };
  const question = pending?.question;
  const buttons = question ? (
    <>
      <Button type="button" variant="outline" onClick={() => answer(false)}>
        Cancel
      </Button>
      <Button type="button" variant={question.destructive ? "destructive" : "default"} onClick={() => answer(true)}>
        {question.confirmLabel}
      </Button>
    </>
  ) : null;
  const dialog = (
    <DialogPrimitive.Root open={pending !== null} onOpenChange={(open) => !open && answer(false)}>
      {question ? (
        look === "admin" ? (
          <AdminDialogContent role="alertdialog" title={question.title} description={question.description}>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{buttons}</div>
          </AdminDialogContent>
        ) : (
          <DialogContent role="alertdialog">
            <DialogHeader>
              <DialogTitle>{question.title}</DialogTitle>
              {question.description ? <DialogDescription>{question.description}</DialogDescription> : <DialogDescription className="sr-only">{question.title}</DialogDescription>}
            </DialogHeader>
            <DialogFooter>{buttons}</DialogFooter>
          </DialogContent>
        )
      ) : null}
    </DialogPrimitive.Root>
  );
  return [confirm, dialog];
}
