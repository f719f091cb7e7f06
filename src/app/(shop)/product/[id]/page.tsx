import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { cache } from "react";
import { shopUrl } from "@/server/config/shop-url";
import { AddToCartButton } from "@/features/catalog/add-to-cart-button";
import { ProductGallery } from "@/features/catalog/product-gallery";
import { ProductListing } from "@/features/catalog/product-listing";
import { Price } from "@/features/catalog/price";
import { StockStatus } from "@/features/catalog/price-text";
import { toCardView } from "@/features/catalog/product-view";
import { attributeLabel, attributeNames, descriptionFieldLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { descriptionFields, productIdInput, type ProductDetail } from "@/server/catalog/schemas";
import { cachedProductDetail } from "@/server/catalog/visitor-cache";
import { getDb } from "@/server/db/client";
import { foundOrNull } from "@/server/http/found-or-null";
import { categoryHref, manufacturerHref } from "@/server/navbar/service";

// Rendered on a product's first visit and kept in Next's cache until the product, its stock or its prices change
// (src/server/cache/catalogue.ts); see the home page for `force-static` and `revalidate`.
export const dynamic = "force-static";
export const revalidate = 1;
export function generateStaticParams(): { id: string }[] {
  return [];
}

type Props = { params: Promise<{ id: string }> };

/**
 * Only a product's own address is rendered and cached (SECURITY-REVIEW N-M2): another way of writing its id
 * (`/product/01`, `/product/1.0`) is sent to it (308) by the page, and an id no product has is a 404, which the cache
 * does not keep. The metadata leaves the redirect to the page: both throwing it would send two Location headers.
 */
function canonicalId(idParam: string): number | null {
  const id = productIdInput.safeParse(idParam);
  return id.success && String(id.data) === idParam ? id.data : null;
}

/** One read per request, shared by the metadata and the page. */
const loadProduct = cache(async (id: number): Promise<ProductDetail | null> => foundOrNull(cachedProductDetail(getDb(), id)));

function summary(product: ProductDetail): string {
  const facts = [product.manufacturer, attributeLabel("itemType", product.itemType), product.caliber && product.caliber !== "UNKNOWN" ? attributeLabel("caliber", product.caliber) : null]
    .filter(Boolean)
    .join(" · ");
  const condition = product.description.condition ? ` ${product.description.condition}` : "";
  return `${product.name} — ${facts}. ${formatEuro(product.discount?.discountedPrice ?? product.price)}.${condition}`.slice(0, 300);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = canonicalId((await params).id);
  const product = id === null ? null : await loadProduct(id);
  if (!product) return { title: "Product not found", robots: { index: false } };
  const url = `/product/${product.id}`;
  return {
    title: product.name,
    description: summary(product),
    alternates: { canonical: url },
    openGraph: { type: "website", url, title: product.name, description: summary(product), images: product.images.slice(0, 1).map((image) => ({ url: image, width: 800, height: 800, alt: product.name })) },
  };
}

/** schema.org Product with an Offer in euros, for search engines (SPEC section 1). */
function productJsonLd(product: ProductDetail) {
  const base = shopUrl();
  const absolute = (address: string) => (address.startsWith("http") ? address : `${base}${address}`);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    sku: String(product.id),
    name: product.name,
    description: summary(product),
    image: product.images.map(absolute),
    ...(product.manufacturer ? { brand: { "@type": "Brand", name: product.manufacturer } } : {}),
    ...(product.category ? { category: product.category } : {}),
    itemCondition: product.state === "NEW" ? "https://schema.org/NewCondition" : product.state === "USED" ? "https://schema.org/UsedCondition" : undefined,
    offers: {
      "@type": "Offer",
      url: `${base}/product/${product.id}`,
      priceCurrency: "EUR",
      price: (product.discount?.discountedPrice ?? product.price).toFixed(2),
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    },
  };
}

export default async function ProductPage({ params }: Props) {
  const idParam = (await params).id;
  const id = canonicalId(idParam);
  if (id === null) {
    const written = productIdInput.safeParse(idParam);
    if (written.success) permanentRedirect(`/product/${written.data}`);
    notFound();
  }
  const product = await loadProduct(id);
  if (!product) notFound();
  const view = toCardView(product);
  const attributes = (["itemType", "caliber", "state", "gender"] as const).map((key) => [attributeNames[key], attributeLabel(key, product[key])] as const);
  const fields = descriptionFields
    .map((field) => [descriptionFieldLabels[field], product.description[field]?.trim()] as const)
    .filter((entry): entry is readonly [string, string] => Boolean(entry[1]) && entry[1] !== "N/A");

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-10">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(productJsonLd(product)).replace(/</g, "\\u003c") }} />
      <nav aria-label="Breadcrumb" className="mb-4 text-sm text-muted-foreground">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link href="/" className="hover:text-foreground hover:underline">
              Home
            </Link>
          </li>
          {product.category && product.categoryId ? (
            <li className="before:mr-1.5 before:content-['/']">
              <Link href={categoryHref(product.categoryId)} className="hover:text-foreground hover:underline">
                {product.category}
              </Link>
            </li>
          ) : null}
        </ol>
      </nav>

      <div className="grid gap-8 lg:grid-cols-2 lg:gap-12">
        <ProductGallery images={product.images} name={product.name} />
        <div>
          {product.manufacturer && product.manufacturerId ? (
            <Link href={manufacturerHref(product.manufacturerId)} className="text-sm font-medium uppercase tracking-widest text-primary hover:underline">
              {product.manufacturer}
            </Link>
          ) : null}
          <h1 className="mt-1 text-2xl font-semibold leading-tight sm:text-4xl">{product.name}</h1>
          <div className="mt-4 flex flex-wrap items-baseline gap-3">
            <Price price={view.price} discountedPrice={view.discount?.discountedPrice} className="text-3xl" />
            {view.discount ? <span className="rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground">{view.discount.value}</span> : product.isNew ? <span className="rounded-full bg-foreground px-2.5 py-0.5 text-xs font-semibold text-background">New</span> : null}
          </div>
          <p className="mt-2 text-sm">
            <StockStatus stock={product.stock} /> · Shipped from the Netherlands
          </p>
          <AddToCartButton className="mt-6 w-full sm:w-auto" productId={product.id} name={product.name} price={view.discount?.discountedPrice ?? view.price} inStock={product.stock > 0} />

          <dl className="mt-8 grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border bg-card p-4 text-sm" aria-label="Attributes">
            {attributes.map(([name, value]) => (
              <div key={name}>
                <dt className="text-xs uppercase tracking-wide text-muted-foreground">{name}</dt>
                <dd className="font-medium">{value}</dd>
              </div>
            ))}
          </dl>

          <section aria-labelledby="description-heading" className="mt-8">
            <h2 id="description-heading" className="text-xl font-semibold">
              Description
            </h2>
            <dl className="mt-3 divide-y text-sm">
              {fields.map(([name, value]) => (
                <div key={name} className="grid grid-cols-[9rem_1fr] gap-3 py-2.5">
                  <dt className="text-muted-foreground">{name}</dt>
                  <dd className="whitespace-pre-line">{value}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      </div>

      {product.related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mt-14">
          <h2 id="related-heading" className="mb-5 text-2xl font-semibold">
            Related pieces
          </h2>
          <ProductListing products={product.related.map(toCardView)} priorityCount={0} />
        </section>
      ) : null}
    </div>
  );
}
