"use client";

import { Loader2, Lock, Tag, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { CartLine } from "@/features/cart/cart-line";
import type { ShippingMethod } from "@/lib/enums";
import { shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import type { OrderTotals } from "@/server/orders/schemas";
import type { PricedCart } from "@/server/pricing/schemas";

function Row({ label, children, strong = false }: { label: React.ReactNode; children: React.ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? "flex items-baseline justify-between gap-4 text-base font-semibold" : "flex items-baseline justify-between gap-4 text-sm"}>
      <dt className={strong ? "" : "text-muted-foreground"}>{label}</dt>
      <dd className={strong ? "font-serif text-xl tabular-nums" : "text-right tabular-nums"}>{children}</dd>
    </div>
  );
}

/** The code field: applied codes show with a remove button; a code that does not apply says why. */
function CouponField({
  applied,
  cart,
  validating,
  onApply,
  onRemove,
}: {
  applied: string | null;
  cart: PricedCart;
  validating: boolean;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const [code, setCode] = useState("");
  if (applied && (validating || cart.coupon)) {
    return (
      <div className="flex items-center justify-between gap-2 rounded-md border border-dashed border-primary/60 bg-accent/50 px-3 py-2 text-sm">
        <span className="flex items-center gap-2">
          <Tag className="size-4 text-primary" aria-hidden />
          <span>
            Code <strong className="font-semibold tracking-wide">{applied}</strong> {cart.coupon ? `(${cart.coupon.label})` : null}
          </span>
        </span>
        <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Remove code ${applied}`} onClick={onRemove}>
          <X />
        </Button>
      </div>
    );
  }
  const refusal = applied && !validating ? (cart.couponMessage ?? `The code ${applied} is not valid.`) : null;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex gap-2">
        <Input
          aria-label="Discount code"
          placeholder="Discount code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          onKeyDown={(event) => {
            // The code field sits outside the order form's fields: Enter applies the code, it never places the order.
            if (event.key !== "Enter") return;
            event.preventDefault();
            if (code.trim()) onApply(code.trim());
          }}
          className="h-9 uppercase placeholder:normal-case"
          autoComplete="off"
        />
        <Button type="button" variant="outline" size="sm" disabled={!code.trim() || validating} onClick={() => onApply(code.trim())}>
          Apply
        </Button>
      </div>
      {refusal ? (
        <p role="alert" data-testid="coupon-error" className="text-xs text-destructive">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The order as it will be placed: the lines, the discount code, and the totals as the server priced them for the
 * chosen destination and method (the quote's named totals; nothing is added up here). Shipping reads 'Select a
 * shipping method' until a method is chosen, and the total is then the cart's.
 */
export function OrderSummary({
  cart,
  shipping,
  appliedCoupon,
  validatingCoupon,
  onApplyCoupon,
  onRemoveCoupon,
  placing,
  formError,
}: {
  cart: PricedCart;
  /** The chosen method and the order's totals with it, from the quote; null until a method is chosen. */
  shipping: { method: ShippingMethod; totals: OrderTotals } | null;
  appliedCoupon: string | null;
  validatingCoupon: boolean;
  onApplyCoupon: (code: string) => void;
  onRemoveCoupon: () => void;
  placing: boolean;
  formError: string | null;
}) {
  const total = shipping ? shipping.totals.total : cart.total;
  return (
    <aside aria-labelledby="order-summary" className="flex h-fit flex-col gap-4 rounded-xl border bg-card p-5 lg:sticky lg:top-6">
      <h2 id="order-summary" className="font-serif text-xl font-semibold">
        Your order
      </h2>
      <ul className="-mx-1 max-h-80 divide-y overflow-y-auto px-1" data-testid="checkout-lines">
        {cart.items.map((line) => (
          <li key={line.productId}>
            <CartLine line={line} readOnly />
          </li>
        ))}
      </ul>
      <CouponField applied={appliedCoupon} cart={cart} validating={validatingCoupon} onApply={onApplyCoupon} onRemove={onRemoveCoupon} />
      <dl className="flex flex-col gap-1.5" data-testid="checkout-totals">
        <Row label="Subtotal">{formatEuro(cart.subtotal)}</Row>
        <Row label={cart.discount && !validatingCoupon ? `Discount: ${cart.discount.name} (${cart.discount.label})` : "Discount"}>
          <span data-testid="checkout-discount">{validatingCoupon ? "Validating..." : cart.discount ? `−${formatEuro(cart.discount.amount)}` : formatEuro(0)}</span>
        </Row>
        <Row label={shipping ? `Shipping: ${shippingMethodLabels[shipping.method]}` : "Shipping"}>
          {shipping ? (
            <span data-testid="checkout-shipping">{formatEuro(shipping.totals.shipping)}</span>
          ) : (
            <span className="text-muted-foreground" data-testid="checkout-shipping">
              Select a shipping method
            </span>
          )}
        </Row>
        {shipping && !shipping.totals.surcharge.isZero() ? (
          <Row label="Insurance surcharge">
            <span data-testid="checkout-surcharge">{formatEuro(shipping.totals.surcharge)}</span>
          </Row>
        ) : null}
        <div className="my-1 h-px bg-border" />
        <Row label="Total" strong>
          <span data-testid="checkout-total">{formatEuro(total)}</span>
        </Row>
      </dl>
      {formError ? (
        <p role="alert" data-testid="checkout-error" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {formError}
        </p>
      ) : null}
      <Button type="submit" form="checkout-form" size="lg" disabled={placing || validatingCoupon}>
        {placing ? <Loader2 className="animate-spin" /> : <Lock />}
        {placing ? "Placing your order..." : `Place order and pay ${formatEuro(total)}`}
      </Button>
      <p className="text-center text-xs text-muted-foreground">You will be taken to the payment page. We hold the pieces for you while you pay.</p>
    </aside>
  );
}
