"use client";

import { useConfirm } from "@/components/confirm-dialog";
import * as Progress from "@radix-ui/react-progress";
import { Play, Square } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard } from "@/components/ui/admin-card";
import { AdminDialog, AdminDialogClose, AdminDialogContent } from "@/components/ui/admin-dialog";
import { AdminCheckbox } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import type { BulkOfferProgress, BulkRunView, BulkUpdateInput } from "@/server/marketplace/schemas";
import { formatCount, formatDateTime } from "../kit/format";
import { useBulkOfferProgress } from "../shell/queries";
import { plural } from "@/lib/plural";
import { useCancelBulkUpdate, useMarketplaceOverview, useStartBulkUpdate } from "./queries";

type Fields = BulkRunView["fields"];
const fieldLabels: Record<keyof Fields, string> = { price: "Price", quantity: "Quantity", description: "Description" };

/** "price and quantity". */
export function fieldsInWords(fields: Fields): string {
  const words = (Object.keys(fieldLabels) as (keyof Fields)[]).filter((key) => fields[key]).map((key) => fieldLabels[key].toLowerCase());
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "nothing");
}

const runStatusLabels: Record<BulkRunView["status"], string> = { RUNNING: "Running", DONE: "Done", CANCELLED: "Cancelled" };
const runStatusTones = { RUNNING: "info", DONE: "success", CANCELLED: "warning" } as const;

export function BulkRunStatusBadge({ status }: { status: BulkRunView["status"] }) {
  return <AdminBadge tone={runStatusTones[status]}>{runStatusLabels[status]}</AdminBadge>;
}

/** The running update: the same figures as the top bar, with the time left once the job knows its pace. */
function RunningUpdate({ run, progress }: { run: BulkRunView | null; progress: BulkOfferProgress["progress"] }) {
  const done = progress?.currentCount ?? run?.doneCount ?? 0;
  const total = progress?.totalCount ?? run?.totalCount ?? 0;
  const percent = progress ? Math.min(100, Math.max(0, Number.parseInt(progress.currentPercent, 10) || 0)) : total ? Math.floor((done / total) * 100) : 0;
  return (
    <div className="min-w-0 flex-1 space-y-1">
      <p className="text-sm">
        Updating the {run ? fieldsInWords(run.fields) : "offers"} of every published offer · <span className="tabular-nums">{formatCount(done)} of {formatCount(total)}</span>
        {run?.failedCount ? <span className="text-destructive"> · {formatCount(run.failedCount)} failed</span> : null}
      </p>
      <Progress.Root value={percent} max={100} className="h-1.5 max-w-md overflow-hidden rounded-full bg-muted" aria-label="Bulk update progress">
        <Progress.Indicator className="h-full bg-primary transition-transform" style={{ transform: `translateX(-${100 - percent}%)` }} />
      </Progress.Root>
      <p className="text-[11px] text-muted-foreground">
        {percent}%{progress?.estimatedTimeToCompletion ? ` · ${progress.estimatedTimeToCompletion} left` : ""}
        {run ? ` · started ${formatDateTime(run.startedAt)}` : ""} · it carries on if the server restarts
      </p>
    </div>
  );
}

/**
 * "Bulk update all offers" on the offers page: rewrite price, quantity and/or description of every published offer
 * as a job. While it runs it shows its progress (the top bar shows it too) and can be cancelled.
 */
export function BulkUpdatePanel() {
  const overview = useMarketplaceOverview();
  const progress = useBulkOfferProgress();
  const start = useStartBulkUpdate();
  const cancel = useCancelBulkUpdate();
  const [fields, setFields] = useState<BulkUpdateInput>({ price: true, quantity: true, description: false });
  const [confirming, setConfirming] = useState(false);

  const run = overview.data?.lastBulkRun ?? null;
  const running = run?.status === "RUNNING" || Boolean(progress.data?.progress);
  const nothingPicked = !fields.price && !fields.quantity && !fields.description;

  const begin = () =>
    start.mutate(fields, {
      onSuccess: (started) => {
        setConfirming(false);
        toast.success("Bulk update started", { description: `${plural(started.totalCount, "published offer")} to rewrite; the progress shows in the top bar.` });
      },
    });
  const [confirm, confirmDialog] = useConfirm();
  const stop = async () => {
    if (!(await confirm({ title: "Cancel the bulk update?", description: "Offers already rewritten stay as they are; the rest keep their old values.", confirmLabel: "Cancel the update", destructive: true }))) return;
    cancel.mutate(undefined, { onSuccess: (cancelled) => toast.success("Bulk update cancelled", { description: cancelled ? `Stopped after ${plural(cancelled.doneCount, "offer")}.` : "No update was running." }) });
  };

  return (
    <AdminCard aria-label="Bulk update all offers" className="flex flex-col gap-3 px-4 py-3 lg:flex-row lg:items-center">
      {confirmDialog}
      <h2 className="shrink-0 text-sm font-semibold">Bulk update all offers</h2>
      {running ? (
        <>
          <RunningUpdate run={run?.status === "RUNNING" ? run : null} progress={progress.data?.progress ?? null} />
          <Button size="sm" variant="outline" className="self-start lg:self-center" disabled={cancel.isPending} onClick={stop}>
            <Square /> Cancel
          </Button>
        </>
      ) : (
        <>
          <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <legend className="sr-only">What to rewrite</legend>
            {(Object.keys(fieldLabels) as (keyof Fields)[]).map((key) => (
              <label key={key} className="flex items-center gap-2 text-sm">
                <AdminCheckbox checked={fields[key]} onCheckedChange={(on) => setFields((current) => ({ ...current, [key]: on === true }))} />
                {fieldLabels[key]}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-wrap items-center gap-3 lg:ml-auto">
            {run ? (
              <p className="text-xs text-muted-foreground">
                Last run <BulkRunStatusBadge status={run.status} /> {formatDateTime(run.finishedAt ?? run.startedAt)} · {formatCount(run.doneCount)} of {formatCount(run.totalCount)}
                {run.failedCount ? <span className="text-destructive"> · {formatCount(run.failedCount)} failed</span> : null}
              </p>
            ) : null}
            <Button size="sm" disabled={nothingPicked || start.isPending} title={nothingPicked ? "Pick what to update first" : undefined} onClick={() => setConfirming(true)}>
              <Play /> Start
            </Button>
          </div>
        </>
      )}
      <AdminDialog open={confirming} onOpenChange={setConfirming}>
        <AdminDialogContent title="Update every published offer?" description={`The ${fieldsInWords(fields)} of each published offer is written to the marketplace again, from the shop's products.`}>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>It runs in the background, 25 offers per call, within eBay&apos;s call limits; you can leave this page.</li>
            <li>The progress shows in the top bar; a restart of the server picks up where it stopped.</li>
            <li>A listing already revised 250 times today (eBay&apos;s limit) is left as it is and counted as failed.</li>
          </ul>
          <div className="mt-5 flex justify-end gap-2">
            <AdminDialogClose asChild>
              <Button variant="outline" size="sm">
                Not now
              </Button>
            </AdminDialogClose>
            <Button size="sm" disabled={start.isPending} onClick={begin}>
              <Play /> Start the update
            </Button>
          </div>
        </AdminDialogContent>
      </AdminDialog>
    </AdminCard>
  );
}
