"use client";

import { RotateCcw } from "lucide-react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/toast";
import type { FailedJobRow } from "@/server/jobs/schemas";
import { formatCount, formatDateTime } from "../kit/format";
import { ListTable } from "../kit/list-table";
import { useJobs, useRetryJob } from "./queries";

function Count({ value, tone }: { value: number; tone: "info" | "warning" | "danger" | "success" }) {
  return value === 0 ? <span className="text-muted-foreground">0</span> : <AdminBadge tone={tone}>{formatCount(value)}</AdminBadge>;
}

function RetryButton({ job }: { job: FailedJobRow }) {
  const retry = useRetryJob();
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={retry.isPending}
      onClick={() => retry.mutate({ queue: job.queue, id: job.id }, { onSuccess: () => toast.success(`Job ${job.queue} queued again`) })}
    >
      <RotateCcw /> Retry
    </Button>
  );
}

/** The background jobs: each kind with what waits, runs and failed, and the failed jobs staff can try again. */
export function JobsView() {
  const jobs = useJobs();
  const queues = jobs.data?.queues;
  const failed = jobs.data?.failed;
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader title="Queues" description="Each kind of background job. Failed jobs used every retry; they stay a week for you to retry." />
        <ListTable
          stacked
          columns={[{ label: "Job" }, { label: "Waiting" }, { label: "Running" }, { label: "Failed" }, { label: "Done (24 h)" }, { label: "Runs on its own" }]}
          loadingRows={queues ? 0 : 4}
          empty={queues?.length === 0 ? "No jobs have been queued yet." : null}
        >
          {queues?.map((queue) => (
            <AdminTableRow key={queue.name} data-testid="job-queue-row">
              <AdminTableCell className="font-mono text-xs">{queue.name}</AdminTableCell>
              <AdminTableCell data-label="Waiting">
                <Count value={queue.waiting} tone="info" />
              </AdminTableCell>
              <AdminTableCell data-label="Running">
                <Count value={queue.active} tone="warning" />
              </AdminTableCell>
              <AdminTableCell data-label="Failed">
                <Count value={queue.failed} tone="danger" />
              </AdminTableCell>
              <AdminTableCell data-label="Done (24 h)">
                <Count value={queue.doneLast24Hours} tone="success" />
              </AdminTableCell>
              <AdminTableCell data-label="Runs on its own" className="font-mono text-xs text-muted-foreground">{queue.schedule ? `${queue.schedule} (UTC)` : "—"}</AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </AdminCard>
      <AdminCard>
        <AdminCardHeader title="Failed jobs" description="The most recent first. Retry one once its cause is fixed (a carrier back up, an address corrected)." />
        <ListTable
          stacked
          columns={[{ label: "Failed" }, { label: "Job" }, { label: "Error" }, { label: "Tries" }, { label: "Data" }, { className: "w-24" }]}
          loadingRows={failed ? 0 : 2}
          empty={failed?.length === 0 ? "No failed jobs." : null}
        >
          {failed?.map((job) => (
            <AdminTableRow key={job.id} data-testid="failed-job-row">
              <AdminTableCell className="whitespace-nowrap text-muted-foreground" title={`Queued ${formatDateTime(job.queuedAt)}`}>
                {formatDateTime(job.failedAt)}
              </AdminTableCell>
              <AdminTableCell data-label="Job" className="font-mono text-xs">
                {job.queue}
              </AdminTableCell>
              <AdminTableCell data-label="Error" className="max-w-md text-destructive">
                {job.error}
              </AdminTableCell>
              <AdminTableCell data-label="Tries">{formatCount(job.attempts)}</AdminTableCell>
              <AdminTableCell data-label="Data" className="max-w-xs truncate font-mono text-xs text-muted-foreground" title={JSON.stringify(job.data)}>
                {JSON.stringify(job.data)}
              </AdminTableCell>
              <AdminTableCell>
                <RetryButton job={job} />
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </AdminCard>
    </div>
  );
}
