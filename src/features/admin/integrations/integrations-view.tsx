"use client";

import { AlertTriangle, Copy, KeyRound } from "lucide-react";
import type { ReactNode } from "react";
import { toast } from "@/components/toast";
import { AdminBadge, type AdminBadgeTone } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import type { EbayTokens, ExpiryState, WebhookAddress } from "@/server/admin/integrations-schemas";
import { formatDateTime } from "../kit/format";
import { PortCard, SettingChip } from "./port-card";
import { useIntegrations } from "./queries";

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 px-4 py-2 text-sm">
      <dt className="shrink-0 text-muted-foreground">{term}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}

const expiryBadges: Record<ExpiryState, { label: string; tone: AdminBadgeTone }> = {
  ok: { label: "Valid", tone: "success" },
  soon: { label: "Ends soon", tone: "warning" },
  expired: { label: "Expired", tone: "danger" },
  unknown: { label: "Unknown", tone: "neutral" },
};

function Expiry({ at, state }: { at: Date | null; state: ExpiryState }) {
  const badge = expiryBadges[state];
  return (
    <span className="inline-flex flex-wrap items-baseline justify-end gap-2">
      {at ? <span>{formatDateTime(at)}</span> : null}
      <AdminBadge tone={badge.tone}>{badge.label}</AdminBadge>
    </span>
  );
}

function EbayTokensCard({ tokens }: { tokens: EbayTokens }) {
  const warn = tokens.refreshToken === "soon" || tokens.refreshToken === "expired";
  const live = tokens.mode === "live";
  return (
    <AdminCard aria-label="eBay tokens" data-testid="ebay-tokens">
      <AdminCardHeader
        title="eBay tokens"
        description={
          live
            ? "The access token is renewed from the refresh token by itself; the refresh token holds the seller's consent for 18 months."
            : "The sandbox marketplace needs no tokens."
        }
      />
      {warn ? (
        <p className="flex items-start gap-2 border-b bg-amber-500/10 px-4 py-2 text-xs text-amber-900 dark:text-amber-200" role="alert">
          <AlertTriangle className="mt-px size-4 shrink-0" aria-hidden />
          {tokens.refreshToken === "expired"
            ? "The refresh token has expired: the shop cannot reach eBay until the seller signs in to eBay again and EBAY_REFRESH_TOKEN is replaced."
            : `The refresh token ends in ${tokens.refreshTokenDaysLeft} day${tokens.refreshTokenDaysLeft === 1 ? "" : "s"}: have the seller sign in to eBay again and replace EBAY_REFRESH_TOKEN before then.`}
        </p>
      ) : null}
      <dl className="divide-y">
        {live ? (
          <>
            <Fact term="Access token valid until">
              {tokens.accessTokenExpiresAt ? <Expiry at={tokens.accessTokenExpiresAt} state={tokens.accessToken} /> : <span className="text-muted-foreground">None yet: fetched at the first call</span>}
            </Fact>
            <Fact term="Refresh token valid until">
              {tokens.refreshTokenExpiresAt ? <Expiry at={tokens.refreshTokenExpiresAt} state={tokens.refreshToken} /> : <span className="text-muted-foreground">Unknown: set EBAY_REFRESH_TOKEN_EXPIRES_AT</span>}
            </Fact>
          </>
        ) : null}
        <Fact term="Signing key">
          <span className="inline-flex flex-col items-end gap-0.5">
            <AdminBadge tone={tokens.signingKey.state === "ready" ? "success" : "warning"}>
              <KeyRound className="size-3" aria-hidden /> {tokens.signingKey.state === "ready" ? "Ready" : "Not set up"}
            </AdminBadge>
            <span className="text-xs text-muted-foreground">{tokens.signingKey.detail}</span>
          </span>
        </Fact>
      </dl>
    </AdminCard>
  );
}

function WebhookRow({ webhook }: { webhook: WebhookAddress }) {
  const copy = () =>
    void navigator.clipboard.writeText(webhook.url).then(
      () => toast.success("Copied", { description: webhook.url }),
      () => toast.error("Your browser would not copy it", { description: "Select the address and copy it by hand." }),
    );
  return (
    <li className="space-y-1.5 px-4 py-3" data-testid="webhook-address">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium">{webhook.provider}</p>
        <Button size="sm" variant="ghost" onClick={copy} aria-label={`Copy ${webhook.provider}'s address`}>
          <Copy /> Copy
        </Button>
      </div>
      <p className="rounded bg-muted px-2 py-1 font-mono text-xs break-all select-all">{webhook.url}</p>
      <p className="text-xs text-muted-foreground">{webhook.how}</p>
      {webhook.setting ? (
        <ul className="-mx-4 border-t">
          <SettingChip setting={webhook.setting} />
        </ul>
      ) : null}
    </li>
  );
}

/** The owner's page of outside services: each port's mode, settings and Test connection, webhooks and eBay's tokens. */
export function IntegrationsView() {
  const { data } = useIntegrations();
  if (!data) {
    return (
      <div className="grid gap-4 lg:grid-cols-2">
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-40" />
        ))}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <AdminCard aria-label="Integrations">
        <AdminCardHeader
          title={data.integrations === "live" ? "Live integrations" : "Sandbox integrations"}
          description={
            data.integrations === "live"
              ? "The shop talks to the providers below with the keys in its configuration. Secrets are never shown: only whether they are set."
              : "Every outside service is a stand-in inside the shop: nothing leaves it and nothing is charged."
          }
          actions={<AdminBadge tone={data.integrations === "live" ? "brass" : "info"}>INTEGRATIONS={data.integrations}</AdminBadge>}
        />
        <dl>
          <Fact term="Shop address (AUTH_URL)">
            <span className="font-mono text-xs break-all">{data.shopUrl}</span>
          </Fact>
        </dl>
      </AdminCard>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <AdminCard aria-label="Webhook addresses">
          <AdminCardHeader title="Webhook addresses" description="Where providers call the shop, built on the shop address above." />
          <ul className="divide-y">
            {data.webhooks.map((webhook) => (
              <WebhookRow key={webhook.provider} webhook={webhook} />
            ))}
          </ul>
        </AdminCard>
        <EbayTokensCard tokens={data.ebay} />
      </div>
      <div className="grid items-stretch gap-4 md:grid-cols-2 2xl:grid-cols-3">
        {data.rows.map((row) => (
          <PortCard key={row.port} row={row} />
        ))}
      </div>
    </div>
  );
}
