import { AlertCircle, ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { env } from "@/env";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import { SandboxPage } from "@/features/sandbox/sandbox-page";
import { currentSession } from "@/server/auth/require-session";
import { AppError } from "@/server/errors";
import { getSandboxIdentity } from "@/server/integrations/identity/identity";
import { sandboxGooglePath, STAFF_ACCOUNT_REFUSED, type AuthorizationRequest, type SandboxIdentity } from "@/server/integrations/identity/sandbox";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";
import { demoUsers } from "@/server/setup/seed/reference-data";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in with Google (sandbox)", robots: { index: false, follow: false } };

type SearchParams = Record<string, string | string[] | undefined>;

/** Where the page's forms post the choice (a route handler: see its comment). */
const choose = `${sandboxGooglePath}/authorize/choose`;

/** What the choice adds to the address when it sends the tester back; not part of the shop's request. */
const noticeParams = ["notice", "address"];

/** The shop's sign-in request from the page's address, or why it cannot be answered. */
function readRequest(identity: SandboxIdentity, params: SearchParams): { request: AuthorizationRequest } | { problem: string } {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (noticeParams.includes(name)) continue;
    for (const one of [value].flat()) if (one !== undefined) query.append(name, one);
  }
  try {
    return { request: identity.readAuthorizationRequest(query) };
  } catch (error) {
    if (error instanceof AppError) return { problem: error.message };
    throw error;
  }
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="mt-5 flex gap-2 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive">
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{children}</span>
    </p>
  );
}

function Initial({ of }: { of: string }) {
  return (
    <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent font-serif text-lg font-semibold text-primary">
      {of.charAt(0).toUpperCase()}
    </span>
  );
}

/**
 * The Google stand-in's account chooser (the embedded default's sign-in page for "Continue with Google"): pick a
 * customer account or type any address, and the shop receives it as an address Google has verified. Staff accounts
 * are refused here; they sign in with the e-mail link only.
 */
export default async function SandboxGoogleAuthorizePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const identity = getSandboxIdentity({ demoCustomer: demoUsers.customer });
  if (!identity || !canUseSandboxPages(await headers(), await currentSession())) notFound();
  const params = await searchParams;
  const read = readRequest(identity, params);

  return (
    <SandboxPage label="Sandbox · stands in for Google" headingId="chooser-heading" standsInFor="Google">
      {"problem" in read ? (
        <>
          <h1 id="chooser-heading" className="mt-2 font-serif text-2xl font-semibold">
            This sign-in request cannot be answered
          </h1>
          <Notice>{read.problem}</Notice>
          <Button asChild variant="outline" className="mt-6 w-full">
            <Link href={SIGN_IN_PATH}>Back to sign-in</Link>
          </Button>
        </>
      ) : (
        <Chooser identity={identity} request={read.request} params={params} />
      )}
    </SandboxPage>
  );
}

async function Chooser({ identity, request, params }: { identity: SandboxIdentity; request: AuthorizationRequest; params: SearchParams }) {
  const accounts = await identity.accountsToChoose();
  const query = identity.authorizationQuery(request);
  const refused = params.notice === "staff" && typeof params.address === "string" ? params.address : null;

  return (
    <>
      <h1 id="chooser-heading" className="mt-2 font-serif text-2xl font-semibold">
        Choose an account
      </h1>
      <p className="mt-1 text-sm text-muted-foreground">to continue to {env.SHOP_NAME}</p>
      {refused ? (
        <Notice>
          {STAFF_ACCOUNT_REFUSED}: {refused} is a staff account. Ask for a sign-in link on the shop&apos;s sign-in page instead.
        </Notice>
      ) : null}

      <ul className="mt-6 divide-y border-y" aria-label="Accounts">
        {accounts.map((account) => (
          <li key={account.email}>
            <form method="post" action={choose}>
              <input type="hidden" name="request" value={query} />
              <input type="hidden" name="email" value={account.email} />
              {account.name ? <input type="hidden" name="name" value={account.name} /> : null}
              <button
                type="submit"
                className="flex w-full items-center gap-3 px-2 py-3 text-left transition-colors outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring"
              >
                <Initial of={account.name ?? account.email} />
                <span className="min-w-0">
                  <span className="block truncate font-medium">{account.name ?? account.email}</span>
                  {account.name ? <span className="block truncate text-sm text-muted-foreground">{account.email}</span> : null}
                </span>
              </button>
            </form>
          </li>
        ))}
      </ul>

      <form method="post" action={choose} className="mt-6 flex flex-col gap-3">
        <input type="hidden" name="request" value={query} />
        <h2 className="font-serif text-lg font-semibold">Use another account</h2>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="sandbox-google-email">E-mail address</Label>
          <Input
            id="sandbox-google-email"
            name="email"
            type="email"
            required
            autoComplete="off"
            placeholder="name@example.com"
            aria-invalid={params.notice === "invalid-email" ? true : undefined}
            aria-describedby={params.notice === "invalid-email" ? "sandbox-google-email-error" : undefined}
          />
          {params.notice === "invalid-email" ? (
            <p id="sandbox-google-email-error" className="text-sm text-destructive">
              Enter a valid e-mail address, like name@example.com
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="sandbox-google-name">
            Name <span className="font-normal text-muted-foreground">(optional)</span>
          </Label>
          <Input id="sandbox-google-name" name="name" autoComplete="off" placeholder="As Google would report it" />
        </div>
        <Button type="submit" className="mt-1">
          Continue
        </Button>
      </form>

      <div className="mt-6 flex gap-2 border-t pt-5 text-xs leading-relaxed text-muted-foreground">
        <ShieldCheck className="mt-px size-4 shrink-0 text-primary" aria-hidden />
        <p>
          The shop receives the address as one Google has verified. {STAFF_ACCOUNT_REFUSED}.{" "}
          <Link href={SIGN_IN_PATH} className="font-medium text-primary underline-offset-4 hover:underline">
            Back to sign-in
          </Link>
        </p>
      </div>
    </>
  );
}
