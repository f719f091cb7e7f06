"use client";

import { CircleCheck, CircleX, Clock, Loader2, PlugZap } from "lucide-react";
import { useState } from "react";
import { AdminBadge, type AdminBadgeTone } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import type { ConnectionTest, IntegrationRow, PortMode, PortSetting } from "@/server/admin/integrations-schemas";
import { formatDateTime } from "../kit/format";
import { useTestConnection } from "./queries";

const modeBadges: Record<PortMode, { label: string; tone: AdminBadgeTone }> = {
  live: { label: "Live", tone: "brass" },
  sandbox: { label: "Sandbox", tone: "info" },
  off: { label: "Off", tone: "neutral" },
};

/** One setting: its name, and "set", the part of it that may be shown, or "missing". */
export function SettingChip({ setting }: { setting: PortSetting }) {
  const missing = setting.state === "missing";
  return (
    <li className={cn("flex min-w-0 items-baseline justify-between gap-3 px-4 py-1.5 text-xs", missing && "bg-amber-500/5")} data-testid="integration-setting">
      <span className="min-w-0 font-mono break-all text-muted-foreground">{setting.name}</span>
      <span className={cn("shrink-0 text-right", missing ? "font-medium text-amber-800 dark:text-amber-300" : "text-foreground")}>
        {missing ? "missing" : setting.shown ? <span className="font-mono">{setting.shown}</span> : "set"}
      </span>
    </li>
  );
}

function TestResult({ test }: { test: ConnectionTest }) {
  const Icon = test.outcome === "ok" ? CircleCheck : test.outcome === "timeout" ? Clock : CircleX;
  const headline = test.outcome === "ok" ? `OK in ${test.ms} ms` : test.outcome === "timeout" ? `Timed out after ${Math.round(test.ms / 1000)} s` : `Failed after ${test.ms} ms`;
  return (
    <div
      role="status"
      data-testid="connection-test-result"
      data-outcome={test.outcome}
      className={cn("flex items-start gap-2 border-t px-4 py-2.5 text-xs", test.outcome === "ok" ? "bg-emerald-600/5" : "bg-destructive/5")}
    >
      <Icon className={cn("mt-px size-4 shrink-0", test.outcome === "ok" ? "text-emerald-700 dark:text-emerald-400" : "text-destructive")} aria-hidden />
      <div className="min-w-0">
        <p className="font-medium">
          {headline} <span className="font-normal text-muted-foreground">· {formatDateTime(test.testedAt)}</span>
        </p>
        <p className={cn("break-words", test.outcome === "ok" ? "text-muted-foreground" : "text-destructive")}>{test.message}</p>
      </div>
    </div>
  );
}

/** A port: its mode, where it talks to, its settings, and Test connection with the last answer. */
export function PortCard({ row }: { row: IntegrationRow }) {
  const test = useTestConnection();
  const [last, setLast] = useState<ConnectionTest | null>(null);
  const badge = modeBadges[row.mode];
  return (
    <AdminCard aria-label={row.name} data-testid="integration-port" data-port={row.port} data-mode={row.mode} className="flex flex-col">
      <AdminCardHeader
        title={
          <span className="flex items-baseline gap-2">
            {row.name} <span className="text-xs font-normal text-muted-foreground">{row.group}</span>
          </span>
        }
        description={row.detail}
        actions={<AdminBadge tone={badge.tone}>{badge.label}</AdminBadge>}
      />
      {row.endpoint ? <p className="border-b px-4 py-1.5 font-mono text-[11px] break-all text-muted-foreground">{row.endpoint}</p> : null}
      {row.settings.length > 0 ? (
        <ul className="divide-y border-b" aria-label={`${row.name} settings`}>
          {row.settings.map((setting) => (
            <SettingChip key={setting.name} setting={setting} />
          ))}
        </ul>
      ) : null}
      <div className="mt-auto px-4 py-2.5">
        <Button size="sm" variant="outline" disabled={test.isPending} onClick={() => test.mutate({ port: row.port }, { onSuccess: setLast })}>
          {test.isPending ? <Loader2 className="animate-spin" /> : <PlugZap />} Test connection
        </Button>
      </div>
      {last ? <TestResult test={last} /> : null}
    </AdminCard>
  );
}
