"use client";

import { Fingerprint, KeyRound, Loader2, Smartphone, Trash2 } from "lucide-react";
import { useState } from "react";
import { useConfirm } from "@/components/confirm-dialog";
import { toast } from "@/components/toast";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { errorMessage } from "@/lib/error-message";
import { AuthenticatorSetup } from "./authenticator-setup";
import { promptForNewPasskey, suggestedPasskeyName, usePasskeysSupported } from "./passkey-prompts";
import { useSecondFactorActions, useSecondFactorStatus } from "./queries";
import { RecoveryCodes } from "./recovery-codes";

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

/**
 * A person's ways to sign in beyond the e-mail link: their passkeys, and for staff their authenticator app and
 * recovery codes (staff keep at least one second factor; the server refuses removing the last). On the account page
 * for customers and on the admin's security page for staff.
 */
export function SignInFactors({ shopName }: { shopName: string }) {
  const status = useSecondFactorStatus();
  const actions = useSecondFactorActions();
  const canUsePasskeys = usePasskeysSupported();
  const [name, setName] = useState(suggestedPasskeyName);
  const [adding, setAdding] = useState(false);
  const [settingUpApp, setSettingUpApp] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirm, confirmDialog] = useConfirm("shop");

  if (!status.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Loading…
      </p>
    );
  }
  const { passkeys, totp, recoveryCodesLeft, staff, email } = status.data;
  const failed = (failure: unknown) => toast.error("Error", { description: errorMessage(failure) });

  async function addPasskey() {
    setAdding(true);
    try {
      const { challengeId, options } = await actions.passkeyRegistrationOptions.mutateAsync();
      const response = await promptForNewPasskey(options);
      if (!response) return;
      const { recoveryCodes } = await actions.passkeyRegister.mutateAsync({ challengeId, response, name });
      toast.success("Passkey added", { description: `"${name}" now signs you in.` });
      if (recoveryCodes) setCodes(recoveryCodes);
    } catch (failure) {
      failed(failure);
    } finally {
      setAdding(false);
    }
  }

  if (codes) {
    return <RecoveryCodes codes={codes} shopName={shopName} email={email} onDone={() => setCodes(null)} doneLabel="I have saved them" />;
  }

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      <section className="flex flex-col gap-3" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading" className="flex items-center gap-2 font-medium">
          <Fingerprint className="size-4 text-primary" aria-hidden /> Passkeys
        </h2>
        <p className="text-sm text-muted-foreground">
          Sign in with your fingerprint, face or device PIN instead of waiting for an e-mail.{staff ? " For staff, a passkey is also the second factor." : ""}
        </p>
        {passkeys.length > 0 ? (
          <ul className="divide-y rounded-md border" data-testid="passkey-list">
            {passkeys.map((entry) => (
              <li key={entry.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <div className="min-w-0">
                  <p className="truncate font-medium">{entry.name}</p>
                  <p className="text-xs text-muted-foreground">
                    Added {day.format(entry.createdAt)}
                    {entry.lastUsedAt ? ` · last used ${day.format(entry.lastUsedAt)}` : " · not used yet"}
                    {entry.synced ? " · synced between your devices" : ""}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove ${entry.name}`}
                  disabled={actions.passkeyRemove.isPending}
                  onClick={async () => {
                    if (await confirm({ title: `Remove the passkey "${entry.name}"?`, description: "It will no longer sign you in.", confirmLabel: "Remove", destructive: true })) {
                      actions.passkeyRemove.mutate({ id: entry.id }, { onSuccess: () => toast.success("Passkey removed"), onError: failed });
                    }
                  }}
                >
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm italic text-muted-foreground">No passkeys yet.</p>
        )}
        {canUsePasskeys ? (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex flex-1 flex-col gap-1.5">
              <Label htmlFor="new-passkey-name">Name for a new passkey</Label>
              <Input id="new-passkey-name" value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />
            </div>
            <Button type="button" onClick={() => void addPasskey()} disabled={adding || name.trim().length === 0}>
              {adding ? <Loader2 className="size-4 animate-spin" aria-hidden /> : <Fingerprint className="size-4" aria-hidden />} Add a passkey
            </Button>
          </div>
        ) : (
          <p className="text-xs text-muted-foreground">This browser cannot make passkeys.</p>
        )}
      </section>

      {staff ? (
        <>
          <section className="flex flex-col gap-3" aria-labelledby="app-heading">
            <h2 id="app-heading" className="flex items-center gap-2 font-medium">
              <Smartphone className="size-4 text-primary" aria-hidden /> Authenticator app
            </h2>
            {settingUpApp ? (
              <AuthenticatorSetup
                onConfirmed={(recoveryCodes) => {
                  setSettingUpApp(false);
                  toast.success("Authenticator app set up");
                  if (recoveryCodes) setCodes(recoveryCodes);
                }}
                onCancel={() => setSettingUpApp(false)}
              />
            ) : totp ? (
              <div className="flex items-center justify-between gap-3 text-sm">
                <p>Set up: its six-digit codes confirm your sign-in.</p>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={actions.totpRemove.isPending}
                  onClick={async () => {
                    if (await confirm({ title: "Remove your authenticator app?", description: "Its codes will no longer confirm your sign-in.", confirmLabel: "Remove", destructive: true })) {
                      actions.totpRemove.mutate(undefined, { onSuccess: () => toast.success("Authenticator app removed"), onError: failed });
                    }
                  }}
                >
                  Remove
                </Button>
              </div>
            ) : (
              <div className="flex items-center justify-between gap-3 text-sm">
                <p className="text-muted-foreground">Not set up.</p>
                <Button type="button" variant="outline" size="sm" onClick={() => setSettingUpApp(true)}>
                  Set up
                </Button>
              </div>
            )}
          </section>

          <section className="flex flex-col gap-3" aria-labelledby="codes-heading">
            <h2 id="codes-heading" className="flex items-center gap-2 font-medium">
              <KeyRound className="size-4 text-primary" aria-hidden /> Recovery codes
            </h2>
            <div className="flex items-center justify-between gap-3 text-sm">
              <p className={recoveryCodesLeft <= 2 ? "text-destructive" : undefined}>
                {recoveryCodesLeft} of 10 left{recoveryCodesLeft <= 2 ? ": make a new set before you run out" : ""}.
              </p>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={actions.recoveryCodesRenew.isPending}
                onClick={async () => {
                  if (await confirm({ title: "Make a new set of recovery codes?", description: "The codes you have now will stop working.", confirmLabel: "Make new codes" })) {
                    actions.recoveryCodesRenew.mutate(undefined, { onSuccess: setCodes, onError: failed });
                  }
                }}
              >
                Make new codes
              </Button>
            </div>
          </section>
        </>
      ) : null}
    </div>
  );
}
