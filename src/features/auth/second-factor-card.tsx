"use client";

import { Fingerprint, KeyRound, Loader2, ShieldCheck, Smartphone } from "lucide-react";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { errorMessage } from "@/lib/error-message";
import { AuthenticatorSetup } from "./authenticator-setup";
import { CodeField } from "./code-field";
import { promptForNewPasskey, promptForPasskey, suggestedPasskeyName, usePasskeysSupported } from "./passkey-prompts";
import { useSecondFactorActions, useSecondFactorStatus } from "./queries";
import { RecoveryCodes } from "./recovery-codes";

type Step = { kind: "confirm" } | { kind: "recovery-code" } | { kind: "choose" } | { kind: "authenticator" } | { kind: "codes"; codes: string[] };

/**
 * The second factor's page (SECURITY: staff sign in with a second factor). A member of staff signed in by e-mail link
 * confirms it with a passkey, their authenticator app or a recovery code; on the first sign-in, with none yet, they
 * add one (a passkey, or an app) and keep the recovery codes made with it. Then on to where they were going.
 */
export function SecondFactorCard({ callbackUrl, shopName }: { callbackUrl: string; shopName: string }) {
  const status = useSecondFactorStatus();
  const actions = useSecondFactorActions();
  const [step, setStep] = useState<Step | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [passkeyName, setPasskeyName] = useState(suggestedPasskeyName);
  const [busy, setBusy] = useState(false);
  const canUsePasskeys = usePasskeysSupported();

  const done = () => window.location.assign(callbackUrl);
  const afterAdding = (codes: string[] | null) => (codes ? setStep({ kind: "codes", codes }) : done());

  if (status.isPending) {
    return (
      <Frame title="Confirm it's you">
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" aria-hidden /> One moment…
        </p>
      </Frame>
    );
  }
  if (!status.data) {
    return (
      <Frame title="Confirm it's you">
        <p role="alert" className="text-sm text-destructive">
          {status.error?.message ?? "Your sign-in could not be read; sign in again."}
        </p>
      </Frame>
    );
  }
  const { email, passkeys, totp, demoCode } = status.data;
  const hasFactor = passkeys.length > 0 || totp;
  const current: Step = step ?? (hasFactor ? { kind: "confirm" } : { kind: "choose" });

  async function withPasskey(work: () => Promise<void>) {
    setError(null);
    setBusy(true);
    try {
      await work();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const confirmWithPasskey = () =>
    withPasskey(async () => {
      const { challengeId, options } = await actions.passkeyOptions.mutateAsync();
      const response = await promptForPasskey(options);
      if (!response) return;
      await actions.passkeyVerify.mutateAsync({ challengeId, response });
      done();
    });

  const addPasskey = () =>
    withPasskey(async () => {
      const { challengeId, options } = await actions.passkeyRegistrationOptions.mutateAsync();
      const response = await promptForNewPasskey(options);
      if (!response) return;
      const { recoveryCodes } = await actions.passkeyRegister.mutateAsync({ challengeId, response, name: passkeyName });
      afterAdding(recoveryCodes);
    });

  const verifyCode = (code: string) => {
    setError(null);
    actions.totpVerify.mutate({ code }, { onSuccess: done, onError: (failure) => setError(failure.message) });
  };

  if (current.kind === "codes") {
    return (
      <Frame title="Your recovery codes" intro="Your second factor is set up. Save these codes now: they are how you get in if you lose it.">
        <RecoveryCodes codes={current.codes} shopName={shopName} email={email} onDone={done} doneLabel="I have saved them, continue" />
      </Frame>
    );
  }

  if (current.kind === "authenticator") {
    return (
      <Frame title="Set up your authenticator app" intro={`For ${email}.`}>
        <AuthenticatorSetup onConfirmed={afterAdding} onCancel={() => setStep({ kind: "choose" })} />
      </Frame>
    );
  }

  if (current.kind === "choose") {
    return (
      <Frame
        title="Protect your staff account"
        intro={`The e-mail link proved you read ${email}. Staff accounts also need a second factor, so that a mailbox alone never opens the back office. Add one now; you will use it each time you sign in.`}
      >
        <div className="flex flex-col gap-3 rounded-lg border p-4">
          <p className="flex items-center gap-2 font-medium">
            <Fingerprint className="size-4 text-primary" aria-hidden /> A passkey on this device
          </p>
          <p className="text-sm text-muted-foreground">Your fingerprint, face or device PIN. The quickest, and it signs you in without an e-mail next time.</p>
          <Label htmlFor="passkey-name">Name it</Label>
          <Input id="passkey-name" value={passkeyName} maxLength={60} onChange={(event) => setPasskeyName(event.target.value)} />
          <Button type="button" onClick={addPasskey} disabled={busy || !canUsePasskeys || passkeyName.trim().length === 0}>
            {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <Fingerprint className="size-4" aria-hidden />} Add a passkey
          </Button>
          {!canUsePasskeys ? <p className="text-xs text-muted-foreground">This browser cannot make passkeys; use an authenticator app.</p> : null}
        </div>
        <div className="flex flex-col gap-3 rounded-lg border p-4">
          <p className="flex items-center gap-2 font-medium">
            <Smartphone className="size-4 text-primary" aria-hidden /> An authenticator app
          </p>
          <p className="text-sm text-muted-foreground">Six-digit codes from an app on your phone.</p>
          <Button type="button" variant="outline" onClick={() => setStep({ kind: "authenticator" })}>
            Set up an authenticator app
          </Button>
        </div>
        <ErrorLine error={error} />
        <SignOutLink />
      </Frame>
    );
  }

  if (current.kind === "recovery-code") {
    return (
      <Frame title="Use a recovery code" intro="One of the codes you saved when you set up your second factor. Each works once.">
        <CodeField
          kind="recovery"
          label="Recovery code"
          submitLabel="Confirm"
          pending={actions.recoveryCodeVerify.isPending}
          error={error}
          onSubmit={(code) => {
            setError(null);
            actions.recoveryCodeVerify.mutate({ code }, { onSuccess: done, onError: (failure) => setError(failure.message) });
          }}
        />
        <Button type="button" variant="link" onClick={() => setStep({ kind: "confirm" })}>
          Back
        </Button>
      </Frame>
    );
  }

  return (
    <Frame title="Confirm it's you" intro={`Signed in as ${email} by e-mail link. Confirm with your second factor to open the back office.`}>
      {passkeys.length > 0 ? (
        <Button type="button" onClick={confirmWithPasskey} disabled={busy || !canUsePasskeys}>
          {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <Fingerprint className="size-4" aria-hidden />} Use your passkey
        </Button>
      ) : null}
      {totp ? (
        <>
          {passkeys.length > 0 ? <Divider /> : null}
          <CodeField label="Code from your authenticator app" submitLabel="Confirm" pending={actions.totpVerify.isPending} error={error} onSubmit={verifyCode} />
          {demoCode ? (
            <div className="flex flex-col gap-2 rounded-md border border-dashed border-primary/50 bg-accent/40 p-3 text-sm" data-testid="demo-code">
              <p>
                <strong>Demo shop:</strong> the demo admin&apos;s authenticator secret is published in the README, so the code it shows now is{" "}
                <span className="font-mono">{demoCode}</span>. A real shop has no such shortcut: staff type the code from their own app.
              </p>
              <Button type="button" variant="outline" size="sm" onClick={() => verifyCode(demoCode)} disabled={actions.totpVerify.isPending}>
                Use the demo code
              </Button>
            </div>
          ) : null}
        </>
      ) : (
        <ErrorLine error={error} />
      )}
      <Button type="button" variant="link" className="self-start px-0" onClick={() => (setError(null), setStep({ kind: "recovery-code" }))}>
        <KeyRound className="size-4" aria-hidden /> Lost it? Use a recovery code
      </Button>
      <SignOutLink />
    </Frame>
  );
}

function Frame({ title, intro, children }: { title: string; intro?: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6 px-4 py-12 sm:py-16">
      <div className="flex flex-col gap-4 rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <div>
          <h1 className="flex items-center gap-2 font-serif text-3xl font-semibold">
            <ShieldCheck className="size-7 text-primary" aria-hidden />
            {title}
          </h1>
          {intro ? <p className="mt-2 text-sm text-muted-foreground">{intro}</p> : null}
        </div>
        {children}
      </div>
    </div>
  );
}

function Divider() {
  return (
    <div className="flex items-center gap-3 text-xs uppercase tracking-wider text-muted-foreground">
      <span className="h-px flex-1 bg-border" />
      or
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}

function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="text-sm text-destructive">
      {error}
    </p>
  ) : null;
}

function SignOutLink() {
  return (
    <Button type="button" variant="link" className="self-start px-0 text-muted-foreground" onClick={() => void signOut({ callbackUrl: "/" })}>
      Not you? Sign out
    </Button>
  );
}
