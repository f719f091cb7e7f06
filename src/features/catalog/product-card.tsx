"use client";

import { clsx } from "clsx";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { attributeLabel } from "@/lib/labels";
import { AddToCartButton } from "./add-to-cart-button";
import { PriceText, StockStatus } from "./price-text";
import { ProductImage, type PictureEmphasis } from "./product-image";
import type { ProductCardView } from "./product-view";

/** 'New' without a discount, the discount (-15%) otherwise (SPEC section 4). */
function Badge({ product }: { product: ProductCardView }) {
  const text = product.discount ? product.discount.value : product.isNew ? "New" : null;
  if (!text) return null;
  return (
    <span
      className={clsx(
        "product-card-badge",
        product.discount ? "bg-primary text-primary-foreground" : "bg-foreground text-background",
      )}
    >
      {text}
    </span>
  );
}

/**
 * The card's link, stretched over the whole card. The product page is fetched ahead when the visitor points at,
 * touches or tabs to the card, not as soon as the card scrolls into view: a listing shows up to 24 cards, and
 * fetching every visible one would compete with the page's own pictures and scripts on a phone.
 */
function ProductLink({ product }: { product: ProductCardView }) {
  const router = useRouter();
  const href = `/product/${product.id}`;
  const prefetch = () => router.prefetch(href);
  return (
    <Link
      href={href}
      prefetch={false}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      className="product-card-link"
    >
      {product.name}
    </Link>
  );
}

/** The maker (the category when none is known) over the product's name, the card's link. */
function MakerAndName({ product, className }: { product: ProductCardView; className?: string }) {
  return (
    <>
      <p className="product-card-maker">{product.manufacturer ?? product.category ?? "\u00a0"}</p>
      <h3 className={clsx("product-card-name", className)}>
        <ProductLink product={product} />
      </h3>
    </>
  );
}

/*
 * Cards join their classes with clsx, not cn: none of them override another, and a listing hydrates many cards. The
 * classes every card repeats are named once in globals.css (`.product-card…`): a listing's cached HTML has two dozen
 * cards, and spelt out they were a third of it.
 */
const cardShell = "reveal-on-scroll product-card";

/** A product in the grid: square picture, maker, name, price and stock, and an add-to-cart button. */
export function ProductGridCard({ product, emphasis }: { product: ProductCardView; emphasis?: PictureEmphasis }) {
  return (
    <article className={`${cardShell} flex flex-col`} data-testid="product-card">
      <div className="reveal-fade relative aspect-square bg-muted">
        <ProductImage src={product.image} alt={product.name} emphasis={emphasis} sizes="(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw" widest={800} />
        <Badge product={product} />
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        <MakerAndName product={product} />
        <div className="mt-auto flex flex-wrap items-baseline justify-between gap-x-2 pt-2">
          <PriceText text={product.priceText} discountedText={product.discount?.discountedPriceText} className="text-lg" />
          <StockStatus stock={product.stock} className="text-xs" />
        </div>
        {/* The grid card adds at the price the visitor sees, the discounted one (SPEC section 7). */}
        <AddToCartButton
          compact
          className="mt-2 w-full"
          productId={product.id}
          name={product.name}
          price={product.discount?.discountedPrice ?? product.price}
          inStock={product.stock > 0}
        />
      </div>
    </article>
  );
}

/** A product in the list: picture beside the details a collector scans for (caliber, state, item type). */
export function ProductListCard({ product, emphasis }: { product: ProductCardView; emphasis?: PictureEmphasis }) {
  return (
    <article className={`${cardShell} flex gap-3 p-2 sm:gap-5 sm:p-3`} data-testid="product-card">
      <div className="reveal-fade relative aspect-square w-28 shrink-0 overflow-hidden rounded-md bg-muted sm:w-40">
        <ProductImage src={product.image} alt={product.name} emphasis={emphasis} sizes="(min-width: 640px) 160px, 112px" widest={340} />
        <Badge product={product} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1 py-1">
        <MakerAndName product={product} className="sm:text-base" />
        <p className="hidden text-xs text-muted-foreground sm:block">
          {attributeLabel("itemType", product.itemType)} · {attributeLabel("caliber", product.caliber)} · {attributeLabel("state", product.state)}
        </p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-1">
          <div className="flex flex-col">
            <PriceText text={product.priceText} discountedText={product.discount?.discountedPriceText} className="text-lg" />
            <StockStatus stock={product.stock} className="text-xs" />
          </div>
          {/* The list card adds at the full price (SPEC section 7); the server applies the discount. */}
          <AddToCartButton compact productId={product.id} name={product.name} price={product.price} inStock={product.stock > 0} />
        </div>
      </div>
    </article>
  );
}
