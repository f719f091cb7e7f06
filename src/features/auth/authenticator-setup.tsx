"use client";

import { Loader2, Smartphone } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import type { TotpSetup } from "@/server/auth/second-factor-schemas";
import { CodeField } from "./code-field";
import { useSecondFactorActions } from "./queries";

/**
 * Setting up an authenticator app: the QR code (drawn by the server from the otpauth address) and the secret to type
 * in instead, then the app's first code to confirm it. `onConfirmed` gets the recovery codes made with it, if any.
 */
export function AuthenticatorSetup({ onConfirmed, onCancel }: { onConfirmed: (recoveryCodes: string[] | null) => void; onCancel?: () => void }) {
  const actions = useSecondFactorActions();
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { mutate: start } = actions.totpStart;

  useEffect(() => {
    start(undefined, { onSuccess: setSetup, onError: (failure) => setError(failure.message) });
  }, [start]);

  if (!setup) {
    return error ? (
      <p role="alert" className="text-sm text-destructive">
        {error}
      </p>
    ) : (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Preparing your authenticator app…
      </p>
    );
  }

  return (
    <div className="flex flex-col gap-4" data-testid="authenticator-setup">
      <p className="flex items-start gap-2 text-sm">
        <Smartphone className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        Scan this code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…), or type the key in.
      </p>
      {/* The server draws the QR code from the otpauth address; it is plain SVG of its own making. */}
      <div className="mx-auto w-48 rounded-md border bg-white p-2" aria-label="QR code for your authenticator app" role="img" dangerouslySetInnerHTML={{ __html: setup.qrSvg }} />
      <p className="text-center text-xs text-muted-foreground">
        Key: <span className="select-all font-mono text-sm text-foreground" data-testid="totp-secret">{setup.secret}</span>
      </p>
      <CodeField
        label="The six digits your app now shows"
        submitLabel="Confirm the app"
        pending={actions.totpConfirm.isPending}
        error={error}
        onSubmit={(code) => {
          setError(null);
          actions.totpConfirm.mutate({ code }, { onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes), onError: (failure) => setError(failure.message) });
        }}
      />
      {onCancel ? (
        <Button type="button" variant="link" onClick={onCancel}>
          Choose another way
        </Button>
      ) : null}
    </div>
  );
}
