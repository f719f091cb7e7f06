import { Ban } from "lucide-react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { blockerReasons, isBlocked, notInStockReason, type OfferRow } from "@/server/marketplace/schemas";
import { formatDateTime } from "../kit/format";

/*
 * What the offers table says needs attention on a product: the marketplace's last refusal, and what keeps it off the
 * marketplace before eBay is even asked (a required eBay item specific it does not fill, a condition its eBay category
 * does not take, no picture, ...), each reason on a line of its own, naming the product field to fill.
 */

/** A badge beside the offer's status: this product cannot be published (or revised) as it is. */
export function BlockedBadge({ row }: { row: OfferRow }) {
  // A product that only lacks stock is not blocked: the Stock column says it.
  if (!isBlocked(row.blocker)) return null;
  const reasons = blockerReasons(row.blocker).filter((reason) => reason !== notInStockReason);
  return (
    <AdminBadge tone="warning" title={reasons.join("\n")}>
      <Ban className="size-3" aria-hidden="true" />
      Blocked{reasons.length > 1 ? ` · ${reasons.length}` : ""}
    </AdminBadge>
  );
}

/** The last failed write (red) and every reason the product is blocked (amber). */
export function Attention({ row }: { row: OfferRow }) {
  const error = row.offer?.lastError;
  const reasons = blockerReasons(row.blocker);
  if (!error && reasons.length === 0) return null;
  return (
    <div className="max-w-72 min-w-40 space-y-0.5 text-xs">
      {error ? (
        <p className="line-clamp-2 text-destructive" title={error}>
          {error}
          {row.offer?.lastErrorAt ? <span className="text-[11px] text-muted-foreground"> · {formatDateTime(row.offer.lastErrorAt)}</span> : null}
        </p>
      ) : null}
      {reasons.length ? (
        <div className="text-amber-800 dark:text-amber-300">
          <p className="font-medium">Cannot publish:</p>
          <ul className="list-disc space-y-0.5 pl-4">
            {reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
