"use client";

import { useState, type ReactElement } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { SignInForm } from "./sign-in-form";

/**
 * The login dialog (SPEC section 2): 'Sign in', then 'Check your email' once the link is on its way. Loaded on first
 * use, open.
 */
export default function LoginDialog({ trigger }: { trigger: ReactElement }) {
  const [open, setOpen] = useState(true);
  const [sent, setSent] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setSent(false);
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{sent ? "Check your email" : "Sign in"}</DialogTitle>
          <DialogDescription>
            {sent ? "The link signs you in on this device." : "Keep your cart on every device and follow your orders."}
          </DialogDescription>
        </DialogHeader>
        {/* A fresh form each time the dialog opens. */}
        {open ? <SignInForm onSent={() => setSent(true)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
