import { clsx } from "clsx";

/**
 * A price already written as the shop writes it (formatEuro), or under a discount the new price in brass with the
 * old one struck through beside it. Cards get their amounts formatted on the server: formatting money in the browser
 * loads the number formatter's locale data, a long pause on a phone while a listing hydrates.
 */
export function PriceText({ text, discountedText, className }: { text: string; discountedText?: string; className?: string }) {
  if (!discountedText) return <span className={clsx("font-serif font-semibold", className)}>{text}</span>;
  return (
    <span className={clsx("font-serif font-semibold", className)}>
      <span className="text-primary">{discountedText}</span>{" "}
      <s className="font-sans text-[0.8em] font-normal text-muted-foreground">
        <span className="sr-only">was </span>
        {text}
      </s>
    </span>
  );
}

export function StockStatus({ stock, className }: { stock: number; className?: string }) {
  return (
    <span className={clsx(stock > 0 ? "text-muted-foreground" : "font-medium text-destructive", className)}>
      {stock > 0 ? `${stock} in stock` : "Sold out"}
    </span>
  );
}
