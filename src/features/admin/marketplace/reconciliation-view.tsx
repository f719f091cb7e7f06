"use client";

import { Check, Loader2, Scale, Wrench } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import type { QuantityMismatch } from "@/server/marketplace/schemas";
import { formatCount } from "../kit/format";
import { ListTable } from "../kit/list-table";
import { plural } from "@/lib/plural";
import { useForgetLaterReconciliationPages, usePushQuantity, useReconciliationPages } from "./queries";

const columns = [{ label: "Product" }, { label: "SKU" }, { label: "Shop", className: "text-right" }, { label: "Marketplace", className: "text-right" }, { label: "", className: "w-28" }];

function FixButton({ mismatch, pushed, onPushed }: { mismatch: QuantityMismatch; pushed: boolean; onPushed: () => void }) {
  const push = usePushQuantity();
  if (pushed) {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-emerald-700 dark:text-emerald-400">
        <Check className="size-3.5" /> Push queued
      </span>
    );
  }
  return (
    <Button
      size="sm"
      variant="outline"
      className="h-7 px-2 text-xs"
      disabled={push.isPending}
      title={`Push the shop's ${formatCount(mismatch.shopQuantity)} to the marketplace`}
      onClick={() =>
        push.mutate(
          { productId: mismatch.productId },
          {
            onSuccess: ({ queued }) => {
              onPushed();
              toast.success(queued ? `Pushing ${formatCount(mismatch.shopQuantity)} for ${mismatch.name}` : `A push for ${mismatch.name} was already waiting`);
            },
          },
        )
      }
    >
      {push.isPending ? <Loader2 className="animate-spin" /> : <Wrench />} Fix
    </Button>
  );
}

/**
 * Published offers whose quantity on the marketplace is not the shop's stock, compared page by page: each page asks
 * the marketplace for up to 100 offers, so the comparison goes on only when staff ask for more.
 */
export function ReconciliationView() {
  const [afterIds, setAfterIds] = useState<number[]>([]);
  const [pushed, setPushed] = useState<ReadonlySet<number>>(new Set());
  const pages = useReconciliationPages(afterIds);
  const forgetLaterPages = useForgetLaterReconciliationPages();

  const loading = pages.some((page) => page.isFetching);
  const failed = pages.find((page) => page.isError);
  const last = pages.at(-1)?.data;
  const checked = pages.reduce((sum, page) => sum + (page.data?.checked ?? 0), 0);
  const mismatches = pages.flatMap((page) => page.data?.mismatches ?? []);
  const started = afterIds.length > 0;
  const more = last?.nextAfterId ?? null;

  const compare = () => {
    if (started) {
      forgetLaterPages();
      void pages[0]?.refetch();
    }
    setPushed(new Set());
    setAfterIds([0]);
  };

  return (
    <AdminCard aria-label="Compare quantities">
      <AdminCardHeader
        title="Compare quantities"
        description="Offers whose quantity on the marketplace is not the shop's stock; Fix pushes the shop's."
        actions={
          <Button size="sm" variant={started ? "outline" : "default"} disabled={loading} onClick={compare}>
            {loading && afterIds.length === 1 ? <Loader2 className="animate-spin" /> : <Scale />}
            {started ? (
              "Compare again"
            ) : (
              <>
                <span className="sm:hidden">Compare</span>
                <span className="hidden sm:inline">Compare quantities</span>
              </>
            )}
          </Button>
        }
      />
      {!started ? (
        <p className="px-4 py-6 text-center text-sm text-muted-foreground">Compare to ask the marketplace for each published offer&apos;s quantity, 100 offers at a time.</p>
      ) : (
        <>
          <div className="max-h-[28rem] overflow-auto">
            <ListTable
              columns={columns}
              loadingRows={loading && mismatches.length === 0 ? 3 : 0}
              empty={
                failed ? (
                  <span className="text-destructive">The comparison stopped: {failed.error?.message}</span>
                ) : !loading && mismatches.length === 0 ? (
                  `All ${plural(checked, "published offer")} checked so far match the shop's stock.`
                ) : null
              }
            >
              {mismatches.map((mismatch) => (
                <AdminTableRow key={mismatch.productId}>
                  <AdminTableCell>
                    <Link href={`/admin/products/edit?id=${mismatch.productId}`} className="block max-w-72 min-w-40 truncate font-medium hover:text-primary hover:underline" title={mismatch.name}>
                      {mismatch.name}
                    </Link>
                  </AdminTableCell>
                  <AdminTableCell className="font-mono text-xs whitespace-nowrap">{mismatch.sku}</AdminTableCell>
                  <AdminTableCell className="text-right font-medium">{formatCount(mismatch.shopQuantity)}</AdminTableCell>
                  <AdminTableCell className="text-right">
                    {mismatch.marketplaceQuantity === null ? <AdminBadge tone="danger">No offer</AdminBadge> : <span className="font-medium text-amber-700 dark:text-amber-400">{formatCount(mismatch.marketplaceQuantity)}</span>}
                  </AdminTableCell>
                  <AdminTableCell>
                    <FixButton mismatch={mismatch} pushed={pushed.has(mismatch.productId)} onPushed={() => setPushed((current) => new Set(current).add(mismatch.productId))} />
                  </AdminTableCell>
                </AdminTableRow>
              ))}
            </ListTable>
          </div>
          <footer className="flex flex-wrap items-center justify-between gap-2 border-t bg-muted/40 px-3 py-2 text-xs text-muted-foreground">
            <span>
              {plural(checked, "published offer")} checked · {plural(mismatches.length, "difference")}
              {!loading && !failed && more === null ? " · every published offer checked" : ""}
            </span>
            {more !== null && !failed ? (
              <Button size="sm" variant="outline" className="h-7 px-2 text-xs" disabled={loading} onClick={() => setAfterIds((current) => [...current, more])}>
                {loading ? <Loader2 className="animate-spin" /> : null} Check more
              </Button>
            ) : null}
          </footer>
        </>
      )}
    </AdminCard>
  );
}
