import { MailCheck } from "lucide-react";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Check your email", robots: { index: false } };

// Where Auth.js sends a browser that posted the sign-in form without JavaScript.
export default function CheckEmailPage() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-accent text-primary">
        <MailCheck className="size-7" aria-hidden />
      </span>
      <h1 className="font-serif text-3xl font-semibold">Check your email</h1>
      <p className="text-sm text-muted-foreground">We&apos;ve sent you an email with a link to sign in. Click the link to sign in instantly.</p>
    </div>
  );
}
