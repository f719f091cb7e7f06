"use client";

import { AlertTriangle, CircleCheck, CircleX, Download, Loader2, RotateCcw } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import type { MarketplaceOverview } from "@/server/marketplace/schemas";
import { formatCount, formatDateTime } from "../kit/format";
import { BulkRunStatusBadge, fieldsInWords } from "./bulk-update-panel";
import { plural } from "@/lib/plural";
import { useMarketplaceOverview, usePollOrdersNow, usePushQuantity } from "./queries";
import { ListingSettings } from "./listing-settings";
import { ReconciliationView } from "./reconciliation-view";

/** A card's facts: a term on the left, its value on the right. */
function Facts({ children }: { children: ReactNode }) {
  return <dl className="divide-y text-sm">{children}</dl>;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 px-4 py-2">
      <dt className="shrink-0 text-muted-foreground">{term}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}

const never = <span className="text-muted-foreground">Never</span>;

function Connection({ data }: { data: MarketplaceOverview }) {
  return (
    <AdminCard aria-label="Connection">
      <AdminCardHeader
        title="Connection"
        description={data.kind === "sandbox" ? "The sandbox marketplace in this shop's own database" : "eBay, through the seller's refresh token"}
        actions={<AdminBadge tone={data.kind === "live" ? "brass" : "info"}>{data.kind === "live" ? "Live" : "Sandbox"}</AdminBadge>}
      />
      <div className={cn("flex items-start gap-2.5 px-4 py-3 text-sm", !data.connected && "bg-destructive/5")}>
        {data.connected ? <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" /> : <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" />}
        <div className="min-w-0">
          <p className="font-medium">{data.connected ? "Connected" : "Not connected"}</p>
          {data.connectionProblem ? <p className="text-xs break-words text-destructive">{data.connectionProblem}</p> : null}
        </div>
      </div>
      <Facts>
        <Fact term="Token valid until">{data.tokenValidUntil ? formatDateTime(data.tokenValidUntil) : <span className="text-muted-foreground">{data.kind === "sandbox" ? "No token needed" : "No token yet"}</span>}</Fact>
        <Fact term="Last notification">{data.lastNotificationAt ? formatDateTime(data.lastNotificationAt) : never}</Fact>
      </Facts>
    </AdminCard>
  );
}

function OrderImport({ data }: { data: MarketplaceOverview }) {
  const poll = usePollOrdersNow();
  const check = () =>
    poll.mutate(undefined, {
      onSuccess: ({ imported }) =>
        imported ? toast.success(`${plural(imported, "new order")} imported`, { description: "They are in the order admin under shop eBay." }) : toast.success("No new orders on the marketplace"),
    });
  return (
    <AdminCard aria-label="Order import">
      <AdminCardHeader title="Order import" description="Notifications bring orders within seconds; a poll every minute catches what they miss." />
      <Facts>
        <Fact term="Last poll">{data.ordersPolledAt ? formatDateTime(data.ordersPolledAt) : never}</Fact>
        <Fact term="Orders read up to">{data.ordersModifiedUntil ? formatDateTime(data.ordersModifiedUntil) : never}</Fact>
      </Facts>
      {data.lastPollError ? (
        <p className="border-t bg-destructive/5 px-4 py-2 text-xs break-words text-destructive">
          Last failed poll{data.lastPollErrorAt ? ` (${formatDateTime(data.lastPollErrorAt)})` : ""}: {data.lastPollError}
        </p>
      ) : null}
      <div className="border-t px-4 py-2.5">
        <Button size="sm" variant="outline" disabled={poll.isPending} onClick={check}>
          {poll.isPending ? <Loader2 className="animate-spin" /> : <Download />} Check for orders now
        </Button>
      </div>
    </AdminCard>
  );
}

function RetryButton({ productId, name }: { productId: number; name: string }) {
  const push = usePushQuantity();
  return (
    <Button
      size="sm"
      variant="outline"
      className="h-7 shrink-0 px-2 text-xs"
      disabled={push.isPending}
      onClick={() => push.mutate({ productId }, { onSuccess: ({ queued }) => toast.success(queued ? `Pushing the quantity of ${name} again` : `A push for ${name} was already waiting`) })}
    >
      {push.isPending ? <Loader2 className="animate-spin" /> : <RotateCcw />} Retry
    </Button>
  );
}

function Pushes({ data }: { data: MarketplaceOverview }) {
  const failed = data.failedOffers;
  return (
    <AdminCard aria-label="Quantity pushes">
      <AdminCardHeader
        title="Quantity pushes"
        description="Each stock change sends the new quantity to the marketplace at once."
        actions={<AdminBadge tone={data.pushesWaiting ? "info" : "neutral"}>{data.pushesWaiting ? `${formatCount(data.pushesWaiting)} waiting` : "None waiting"}</AdminBadge>}
      />
      {failed.length === 0 ? (
        <p className="px-4 py-3 text-sm text-muted-foreground">No failed offers: every last write went through.</p>
      ) : (
        <>
          <p className="px-4 pt-3 text-xs font-medium text-destructive">{plural(failed.length, "offer")} whose last write failed</p>
          <ul className="max-h-64 divide-y overflow-y-auto" aria-label="Failed offers">
            {failed.map((offer) => (
              <li key={offer.productId} className="flex items-start gap-3 px-4 py-2">
                <div className="min-w-0 flex-1">
                  <Link href={`/admin/products/edit?id=${offer.productId}`} className="block truncate text-sm font-medium hover:text-primary hover:underline" title={offer.name}>
                    {offer.name}
                  </Link>
                  <p className="line-clamp-2 text-xs break-words text-destructive" title={offer.error}>
                    {offer.error}
                  </p>
                  <p className="text-[11px] text-muted-foreground">{formatDateTime(offer.at)}</p>
                </div>
                <RetryButton productId={offer.productId} name={offer.name} />
              </li>
            ))}
          </ul>
          <p className="border-t px-4 py-2 text-xs">
            <Link href="/admin/ebay/manage-ads?failing=1" className="text-primary hover:underline">
              See them in the offers table
            </Link>
          </p>
        </>
      )}
    </AdminCard>
  );
}

function Oversold({ data }: { data: MarketplaceOverview }) {
  const orders = data.oversoldOrders;
  return (
    <AdminCard aria-label="Sold twice" className={cn(orders.length > 0 && "border-amber-500/50")}>
      <AdminCardHeader title="Sold twice" description="Marketplace orders that came in for pieces the web shop had already sold: each needs a refund." />
      {orders.length === 0 ? (
        <p className="px-4 py-3 text-sm text-muted-foreground">No piece sold twice.</p>
      ) : (
        <ul className="max-h-64 divide-y overflow-y-auto">
          {orders.map((order) => (
            <li key={order.orderId} className="flex items-center gap-2.5 px-4 py-2 text-sm">
              <AlertTriangle className="size-4 shrink-0 text-amber-600" aria-hidden="true" />
              <Link href={`/admin/orders/${encodeURIComponent(order.orderNumber)}`} className="font-medium hover:text-primary hover:underline">
                {order.orderNumber}
              </Link>
              <span className="ml-auto text-xs text-muted-foreground">{formatDateTime(order.oversoldAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </AdminCard>
  );
}

function LastBulkRun({ data }: { data: MarketplaceOverview }) {
  const run = data.lastBulkRun;
  return (
    <AdminCard aria-label="Last bulk update">
      <AdminCardHeader
        title="Last bulk update"
        actions={
          <Button asChild size="sm" variant="ghost" className="h-7 px-2 text-xs">
            <Link href="/admin/ebay/manage-ads">Manage ads</Link>
          </Button>
        }
      />
      {run ? (
        <Facts>
          <Fact term="Status">
            <BulkRunStatusBadge status={run.status} />
          </Fact>
          <Fact term="Rewrote">{fieldsInWords(run.fields)}</Fact>
          <Fact term="Offers">
            {formatCount(run.doneCount)} of {formatCount(run.totalCount)}
            {run.failedCount ? <span className="text-destructive"> · {formatCount(run.failedCount)} failed</span> : null}
          </Fact>
          <Fact term="Started">{formatDateTime(run.startedAt)}</Fact>
          <Fact term="Finished">{run.finishedAt ? formatDateTime(run.finishedAt) : <span className="text-muted-foreground">Not yet</span>}</Fact>
          {run.lastError ? (
            <div className="px-4 py-2 text-xs break-words text-destructive">
              <dt className="sr-only">Last error</dt>
              <dd>{run.lastError}</dd>
            </div>
          ) : null}
        </Facts>
      ) : (
        <p className="px-4 py-3 text-sm text-muted-foreground">No bulk update yet. Start one on the Manage ads page.</p>
      )}
    </AdminCard>
  );
}

/** /admin/ebay: whether the marketplace is reachable and how orders, pushes and the bulk update are doing. */
export function OverviewView() {
  const overview = useMarketplaceOverview();
  const data = overview.data;
  if (!data) {
    return overview.isError ? (
      <AdminCard className="p-6 text-sm">
        <p className="font-medium text-destructive">The marketplace overview could not be loaded.</p>
        <p className="mt-1 text-muted-foreground">{overview.error.message} Reload the page to try again.</p>
      </AdminCard>
    ) : (
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label="Loading the marketplace overview">
        {Array.from({ length: 6 }, (_, index) => (
          <div key={index} className="h-40 animate-pulse rounded-lg border bg-muted/40" />
        ))}
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <div className="grid items-start gap-3 md:grid-cols-2 xl:grid-cols-3">
        <Connection data={data} />
        <OrderImport data={data} />
        <Pushes data={data} />
        <Oversold data={data} />
        <LastBulkRun data={data} />
        <ListingSettings />
      </div>
      <ReconciliationView />
    </div>
  );
}
