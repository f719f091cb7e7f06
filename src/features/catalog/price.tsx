import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";

/** The price, or under a discount the new price in brass with the old one struck through beside it. */
export function Price({ price, discountedPrice, className }: { price: string; discountedPrice?: string; className?: string }) {
  if (!discountedPrice) return <span className={cn("font-serif font-semibold", className)}>{formatEuro(price)}</span>;
  return (
    <span className={cn("font-serif font-semibold", className)}>
      <span className="text-primary">{formatEuro(discountedPrice)}</span>{" "}
      <s className="font-sans text-[0.8em] font-normal text-muted-foreground">
        <span className="sr-only">was </span>
        {formatEuro(price)}
      </s>
    </span>
  );
}

export function StockStatus({ stock, className }: { stock: number; className?: string }) {
  return (
    <span className={cn(stock > 0 ? "text-muted-foreground" : "font-medium text-destructive", className)}>
      {stock > 0 ? `${stock} in stock` : "Sold out"}
    </span>
  );
}
