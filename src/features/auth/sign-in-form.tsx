"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Fingerprint, MailCheck } from "lucide-react";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/components/toast";
import { z } from "zod";
import { signInEmailAddress } from "@/lib/email";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { LoadingOverlay } from "./loading-overlay";
import { promptForPasskey, usePasskeysSupported } from "./passkey-prompts";
import { useSignInProviders } from "./queries";
import { storedToken } from "@/lib/trpc/client";

const emailForm = z.object({ email: signInEmailAddress });
type EmailForm = z.infer<typeof emailForm>;

export const SIGN_IN_FAILED = "Something went wrong while signing in, please try again later";

/** Where to return after signing in: the page's own `callbackUrl` parameter, or the page itself. */
function callbackUrl(): string {
  return new URLSearchParams(window.location.search).get("callbackUrl") ?? window.location.href;
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden className="size-4">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.3 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

/**
 * Sign-in by e-mail link or Google (SPEC sections 2, 4 and 8): the global overlay while submitting, an error toast
 * on failure, and for the e-mail link the 'link sent' panel with the address. `onSent` lets a dialog retitle itself.
 */
export function SignInForm({ onSent }: { onSent?: (email: string) => void }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const providers = useSignInProviders();
  const passkeys = usePasskeysSupported();
  const form = useForm<EmailForm>({ resolver: zodResolver(emailForm), defaultValues: { email: "" } });

  async function withOverlay(work: () => Promise<void>) {
    setSubmitting(true);
    try {
      await work();
    } catch {
      toast.error("Error", { description: SIGN_IN_FAILED });
    } finally {
      setSubmitting(false);
    }
  }

  const sendLink = form.handleSubmit(({ email }) =>
    withOverlay(async () => {
      // The visitor token rides in the form, as Auth.js's client sends no headers of ours: the shop counts sign-in
      // e-mails per visitor as well as per address and network.
      const result = await signIn("nodemailer", { email, redirect: false, callbackUrl: callbackUrl(), visitorToken: storedToken() ?? "" });
      if (!result || result.error || !result.ok) {
        toast.error("Error", { description: SIGN_IN_FAILED });
        return;
      }
      toast.success("Success", { description: "Check your email for the sign in link" });
      setSentTo(email);
      onSent?.(email);
    }),
  );

  const signInWithPasskey = () =>
    withOverlay(async () => {
      const options = await fetch("/api/passkey", { cache: "no-store" });
      const started = (await options.json()) as { challengeId?: string; options?: Parameters<typeof promptForPasskey>[0]; error?: string };
      if (!options.ok || !started.challengeId || !started.options) throw new Error(started.error ?? SIGN_IN_FAILED);
      const response = await promptForPasskey(started.options);
      if (!response) return;
      const answer = await fetch("/api/passkey", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ challengeId: started.challengeId, response }) });
      if (!answer.ok) {
        const { error } = (await answer.json().catch(() => ({}))) as { error?: string };
        toast.error("Error", { description: error ?? SIGN_IN_FAILED });
        return;
      }
      window.location.assign(callbackUrl());
    });

  if (sentTo) {
    return (
      <div className="flex flex-col items-center gap-4 py-4 text-center" data-testid="link-sent">
        <span className="flex size-14 items-center justify-center rounded-full bg-accent text-primary">
          <MailCheck className="size-7" aria-hidden />
        </span>
        <p className="max-w-sm text-sm leading-relaxed">
          We&apos;ve sent you an email on <strong className="font-semibold">{sentTo}</strong> with a link to sign in. Click the link to sign in
          instantly.
        </p>
        <Button variant="link" onClick={() => setSentTo(null)}>
          Use another address
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-5">
      {submitting ? <LoadingOverlay label="Signing you in..." /> : null}
      <form noValidate onSubmit={sendLink} className="flex flex-col gap-3">
        <Label htmlFor="sign-in-email">E-mail address</Label>
        <Input
          id="sign-in-email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="name@example.com"
          aria-invalid={form.formState.errors.email ? true : undefined}
          aria-describedby={form.formState.errors.email ? "sign-in-email-error" : undefined}
          {...form.register("email")}
        />
        {form.formState.errors.email ? (
          <p id="sign-in-email-error" className="text-sm text-destructive">
            {form.formState.errors.email.message}
          </p>
        ) : null}
        <Button type="submit" disabled={submitting}>
          Email me a sign-in link
        </Button>
        <p className="text-xs text-muted-foreground">No password needed: we e-mail you a link that signs you in. New here? The link creates your account.</p>
      </form>
      {passkeys || providers.data?.google ? (
        <div className="flex items-center gap-3 text-xs uppercase tracking-wider text-muted-foreground">
          <span className="h-px flex-1 bg-border" />
          or
          <span className="h-px flex-1 bg-border" />
        </div>
      ) : null}
      {passkeys ? (
        <Button type="button" variant="outline" disabled={submitting} onClick={signInWithPasskey}>
          <Fingerprint className="size-4" aria-hidden />
          Sign in with a passkey
        </Button>
      ) : null}
      {providers.data?.google ? (
        <Button type="button" variant="outline" disabled={submitting} onClick={() => withOverlay(async () => void (await signIn("google", { callbackUrl: callbackUrl() })))}>
          <GoogleMark />
          Continue with Google
        </Button>
      ) : null}
    </div>
  );
}
