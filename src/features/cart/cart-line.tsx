"use client";

import { Loader2, Minus, Plus, Trash2 } from "lucide-react";
import Image from "next/image";
import Link from "next/link";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { formatEuro } from "@/lib/money";
import { useHoldRepeat } from "@/lib/use-hold-repeat";
import { cn } from "@/lib/utils";
import type { CartLine as CartLineData } from "@/server/pricing/schemas";
import { useCart } from "./cart-context";

function Price({ line }: { line: CartLineData }) {
  const discounted = !line.unitPrice.equals(line.price);
  return (
    <p className="text-sm">
      <span className={cn("font-serif font-semibold", discounted && "text-primary")}>{formatEuro(line.unitPrice)}</span>
      {discounted ? (
        <>
          {" "}
          <s className="text-xs text-muted-foreground">{formatEuro(line.price)}</s>{" "}
          <span className="text-xs text-primary">{line.discountLabel}</span>
        </>
      ) : null}
    </p>
  );
}

function Thumbnail({ line, badge }: { line: CartLineData; badge?: number }) {
  return (
    <div className="relative size-16 shrink-0 overflow-hidden rounded-md border bg-muted sm:size-20">
      <Image src={line.image} alt="" fill sizes="80px" className="object-cover" />
      {badge !== undefined ? (
        <span aria-label={`Quantity ${badge}`} className="absolute -top-0 -right-0 flex min-w-6 items-center justify-center rounded-bl-md bg-primary px-1.5 py-0.5 text-xs font-semibold text-primary-foreground">
          {badge}
        </span>
      ) : null}
    </div>
  );
}

/**
 * A cart line (SPEC section 4): plus and minus change it by one, and repeat while held (SPEC section 9), the steps
 * counted in the field and sent as one change on letting go; a typed number is applied on leaving the field as
 * the difference from the stored quantity; while it changes the controls are disabled and show a spinner, and the
 * field returns to the stored quantity afterwards. `readOnly` shows the quantity as a badge instead.
 */
export function CartLine({ line, readOnly = false }: { line: CartLineData; readOnly?: boolean }) {
  const { changeQuantity, removeItem, pendingProductIds } = useCart();
  const busy = pendingProductIds.has(line.productId);
  // What the customer is typing; null shows the stored quantity, so the field resyncs once a change is done.
  const [typed, setTyped] = useState<string | null>(null);
  const max = Math.max(1, line.stock);
  // The steps of a held plus or minus not sent yet; a ref, since the repeating steps outrun rendering.
  const held = useRef(0);
  const [heldShown, setHeldShown] = useState(0);
  const shown = line.quantity + heldShown;

  /** One step of a held button; true while the next one stays between 1 and the stock. */
  const stepBy = (by: 1 | -1) => () => {
    const next = line.quantity + held.current + by;
    if (next < 1 || next > line.stock) return false;
    held.current += by;
    setHeldShown(held.current);
    return next + by >= 1 && next + by <= line.stock;
  };
  function sendHeld() {
    const delta = held.current;
    held.current = 0;
    setHeldShown(0);
    if (delta !== 0) void changeQuantity(line.productId, delta);
  }
  const fewer = useHoldRepeat(stepBy(-1), sendHeld);
  const more = useHoldRepeat(stepBy(1), sendHeld);

  function applyTyped() {
    if (typed === null) return;
    // An emptied field counts as 0, then the field's min and max hold (SPEC section 5).
    const value = typed.trim() === "" ? 0 : Number.parseInt(typed, 10);
    const wanted = Math.min(max, Math.max(1, Number.isNaN(value) ? line.quantity : value));
    setTyped(null);
    if (wanted !== line.quantity) void changeQuantity(line.productId, wanted - line.quantity);
  }

  return (
    <li className="flex gap-3 py-4" data-testid="cart-line" data-product-id={line.productId}>
      <Thumbnail line={line} badge={readOnly ? line.quantity : undefined} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex items-start justify-between gap-2">
          <Link href={`/product/${line.productId}`} className="line-clamp-2 text-sm font-medium leading-snug hover:underline">
            {line.name}
          </Link>
          {readOnly ? null : (
            <Button variant="ghost" size="icon" className="-mt-2 -mr-2 size-8 shrink-0 text-muted-foreground" aria-label={`Remove ${line.name}`} disabled={busy} onClick={() => void removeItem(line.productId)}>
              <Trash2 />
            </Button>
          )}
        </div>
        <Price line={line} />
        {line.quantity > line.stock ? (
          <p className="text-xs text-destructive">{line.stock > 0 ? `Only ${line.stock} in stock` : "Sold out"}</p>
        ) : null}
        <div className="mt-1 flex items-center justify-between gap-2">
          {readOnly ? (
            <span className="text-xs text-muted-foreground">
              {line.quantity} × {formatEuro(line.unitPrice)}
            </span>
          ) : (
            <div className="flex items-center rounded-md border" aria-busy={busy}>
              <Button variant="ghost" size="icon" className="size-8 touch-none rounded-r-none select-none" aria-label={`One fewer ${line.name}`} disabled={busy || shown <= 1} {...fewer}>
                <Minus />
              </Button>
              {busy ? (
                <span className="flex h-8 w-11 items-center justify-center" role="status" aria-label="Updating">
                  <Loader2 className="size-4 animate-spin text-primary" />
                </span>
              ) : (
                <input
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={max}
                  aria-label={`Quantity of ${line.name}`}
                  value={typed ?? String(shown)}
                  onChange={(event) => setTyped(event.target.value)}
                  onBlur={applyTyped}
                  onKeyDown={(event) => {
                    if (event.key === "Enter") event.currentTarget.blur();
                  }}
                  className="h-8 w-11 border-x bg-transparent text-center text-sm tabular-nums outline-none [appearance:textfield] focus-visible:bg-accent [&::-webkit-inner-spin-button]:appearance-none"
                />
              )}
              <Button variant="ghost" size="icon" className="size-8 touch-none rounded-l-none select-none" aria-label={`One more ${line.name}`} disabled={busy || shown >= line.stock} {...more}>
                <Plus />
              </Button>
            </div>
          )}
          <span className="font-serif text-sm font-semibold tabular-nums">{formatEuro(line.lineTotal)}</span>
        </div>
      </div>
    </li>
  );
}
