import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import type { OfferRow } from "@/server/marketplace/schemas";

/** The shop's price with eBay's beside it: the fixed eBay price, or the shop price with the markup ("+10%"). */
export function ChannelPrice({ row, className }: { row: OfferRow; className?: string }) {
  const same = row.channelPrice.equals(row.price);
  return (
    <div className={cn("text-right whitespace-nowrap tabular-nums", className)}>
      <p className="font-medium" title="The web shop's list price">
        {formatEuro(row.price)}
      </p>
      <p className={cn("text-[11px]", same ? "text-muted-foreground" : "text-foreground")} title={`The eBay price (${row.channelPriceBasis})`}>
        eBay {formatEuro(row.channelPrice)} <span className="text-muted-foreground">· {row.channelPriceBasis}</span>
      </p>
    </div>
  );
}
