import Image from "next/image";
import Link from "next/link";
import { formatEuro } from "@/lib/money";
import type { ProductCard as ProductCardData } from "@/server/catalog/schemas";

/** A product in a listing: image, maker, name, price (with the old price struck through under a discount), stock. */
export function ProductCard({ product, priority = false }: { product: ProductCardData; priority?: boolean }) {
  const badge = product.discount ? product.discount.value : product.isNew ? "New" : null;
  return (
    <article className="group relative flex w-full flex-col overflow-hidden rounded-lg border bg-card transition-shadow hover:shadow-md">
      <div className="relative aspect-square bg-muted">
        <Image
          src={product.image}
          alt={product.name}
          fill
          sizes="(min-width: 1024px) 25vw, (min-width: 768px) 33vw, 50vw"
          className="object-cover"
          priority={priority}
        />
        {badge ? (
          <span className="absolute left-2 top-2 rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground">
            {badge}
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        <p className="text-xs uppercase tracking-wide text-muted-foreground">{product.manufacturer ?? product.category ?? " "}</p>
        <h3 className="line-clamp-2 font-sans text-sm font-medium leading-snug">
          <Link href={`/product/${product.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {product.name}
          </Link>
        </h3>
        <div className="mt-auto flex items-baseline justify-between gap-2 pt-2">
          <p className="font-serif text-lg font-semibold">
            {product.discount ? (
              <>
                <span className="text-primary">{formatEuro(product.discount.discountedPrice)}</span>{" "}
                <s className="text-sm font-normal text-muted-foreground">{formatEuro(product.price)}</s>
              </>
            ) : (
              formatEuro(product.price)
            )}
          </p>
          <p className={product.stock > 0 ? "text-xs text-muted-foreground" : "text-xs font-medium text-destructive"}>
            {product.stock > 0 ? `${product.stock} in stock` : "Sold out"}
          </p>
        </div>
      </div>
    </article>
  );
}
