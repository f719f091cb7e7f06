"use client";

import { AlertCircle } from "lucide-react";
import { useState } from "react";
import { SignInForm } from "./sign-in-form";

/** The sign-in page's card: the same form as the login dialog, for links that need a session. */
export function SignInCard({ error }: { error: string | null }) {
  const [sent, setSent] = useState(false);
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-4 py-12 sm:py-16">
      <div className="rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <h1 className="font-serif text-3xl font-semibold">{sent ? "Check your email" : "Sign in"}</h1>
        <p className="mt-1 mb-6 text-sm text-muted-foreground">
          {sent ? "The link signs you in on this device." : "Keep your cart on every device and follow your orders."}
        </p>
        {error && !sent ? (
          <p role="alert" className="mb-5 flex gap-2 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive">
            <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
            {error}
          </p>
        ) : null}
        <SignInForm onSent={() => setSent(true)} />
      </div>
    </div>
  );
}
