"use client";

import { Loader2, Tag, X } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import { formatEuro } from "@/lib/money";
import type { PricedCart } from "@/server/pricing/schemas";
import { useCart } from "./cart-context";

function CouponForm() {
  const { couponCode, applyCoupon, removeCoupon, isValidatingCoupon, cart } = useCart();
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<string | null>(null);

  if (couponCode) {
    return (
      <div className="flex flex-col gap-1">
        <div className="flex items-center justify-between gap-2 rounded-md border border-dashed border-primary/60 bg-accent/50 px-3 py-2 text-sm">
          <span className="flex items-center gap-2">
            <Tag className="size-4 text-primary" aria-hidden />
            <span>
              Code <strong className="font-semibold tracking-wide">{couponCode}</strong> {cart?.coupon ? `(${cart.coupon.label})` : null}
            </span>
          </span>
          <Button variant="ghost" size="icon" className="size-7" aria-label={`Remove code ${couponCode}`} onClick={removeCoupon}>
            <X />
          </Button>
        </div>
        {cart?.couponMessage ? <p className="text-xs text-muted-foreground">{cart.couponMessage}</p> : null}
      </div>
    );
  }

  return (
    <form
      noValidate
      className="flex flex-col gap-1"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!code.trim()) return;
        const failure = await applyCoupon(code);
        setMessage(failure);
        if (!failure) setCode("");
      }}
    >
      <div className="flex gap-2">
        <Input aria-label="Discount code" placeholder="Discount code" value={code} onChange={(event) => setCode(event.target.value)} className="h-9 uppercase placeholder:normal-case" autoComplete="off" />
        <Button type="submit" variant="outline" size="sm" disabled={isValidatingCoupon || !code.trim()}>
          {isValidatingCoupon ? <Loader2 className="animate-spin" /> : null}
          Apply
        </Button>
      </div>
      {message ? (
        <p role="alert" data-testid="coupon-error" className="text-xs text-destructive">
          {message}
        </p>
      ) : null}
    </form>
  );
}

function Row({ label, children, strong = false }: { label: React.ReactNode; children: React.ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? "flex items-baseline justify-between gap-4 text-base font-semibold" : "flex items-baseline justify-between gap-4 text-sm"}>
      <dt className={strong ? "" : "text-muted-foreground"}>{label}</dt>
      <dd className={strong ? "font-serif text-lg tabular-nums" : "tabular-nums"}>{children}</dd>
    </div>
  );
}

/** Subtotal, the discount line, shipping and total (SPEC section 2), all as the server computed them. */
export function CartTotals({ cart }: { cart: PricedCart }) {
  const { isSignedIn, isValidatingCoupon } = useCart();
  return (
    <div className="flex flex-col gap-3">
      {isSignedIn ? (
        <CouponForm />
      ) : (
        <p className="text-xs text-muted-foreground">
          <Link className="font-medium text-primary underline-offset-4 hover:underline" href={`${SIGN_IN_PATH}?callbackUrl=${encodeURIComponent("/")}`}>
            Sign in
          </Link>{" "}
          to use a discount code and keep this cart on every device.
        </p>
      )}
      <dl className="flex flex-col gap-1.5" data-testid="cart-totals">
        <Row label="Subtotal">{formatEuro(cart.subtotal)}</Row>
        <Row label={cart.discount && !isValidatingCoupon ? `Discount: ${cart.discount.name} (${cart.discount.label})` : "Discount"}>
          <span data-testid="cart-discount">{isValidatingCoupon ? "Validating..." : cart.discount ? `−${formatEuro(cart.discount.amount)}` : formatEuro(0)}</span>
        </Row>
        <Row label="Shipping">
          <span className="text-muted-foreground">Select a shipping method</span>
        </Row>
        <div className="my-1 h-px bg-border" />
        <Row label="Total" strong>
          <span data-testid="cart-total">{formatEuro(cart.total)}</span>
        </Row>
      </dl>
    </div>
  );
}
