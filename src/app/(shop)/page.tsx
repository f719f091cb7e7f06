import Link from "next/link";
import { env } from "@/env";
import { shopIdentity } from "@/lib/shop";
import { ProductCard } from "@/features/catalog/product-card";
import { getManyProductsInput } from "@/server/catalog/schemas";
import { getManyProducts } from "@/server/catalog/service";
import { getDb } from "@/server/db/client";
import { getStorage } from "@/server/integrations/storage/storage";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const { page: pageParam } = await searchParams;
  const query = getManyProductsInput.safeParse({ page: Number(pageParam ?? 1), orderBy: { createdAt: "desc" } });
  const storage = getStorage();
  const { products, pagination } = await getManyProducts(
    getDb(),
    query.success ? query.data : getManyProductsInput.parse({ page: 1 }),
    { imageUrl: (key) => storage.publicUrl(key) },
  );

  return (
    <div className="mx-auto max-w-7xl px-4 sm:px-6">
      <section className="py-10 sm:py-14">
        <p className="text-sm font-medium uppercase tracking-widest text-primary">{env.SHOP_NAME}</p>
        <h1 className="mt-2 max-w-2xl text-3xl font-semibold sm:text-5xl">{shopIdentity.strapLine}</h1>
        <p className="mt-4 max-w-2xl text-muted-foreground">{shopIdentity.description}</p>
      </section>
      <section aria-labelledby="new-arrivals">
        <div className="mb-4 flex items-baseline justify-between">
          <h2 id="new-arrivals" className="text-2xl font-semibold">New arrivals</h2>
          <p className="text-sm text-muted-foreground">{pagination.totalItems} pieces in the shop</p>
        </div>
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
          {products.map((product, index) => (
            <li key={product.id} className="flex">
              <ProductCard product={product} priority={index < 4} />
            </li>
          ))}
        </ul>
        <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-4 text-sm">
          {pagination.page > 1 ? (
            <Link className="rounded-md border px-3 py-2 hover:bg-accent" href={`/?page=${pagination.page - 1}`}>Previous</Link>
          ) : null}
          <span className="text-muted-foreground">Page {pagination.page} of {pagination.totalPages}</span>
          {pagination.page < pagination.totalPages ? (
            <Link className="rounded-md border px-3 py-2 hover:bg-accent" href={`/?page=${pagination.page + 1}`}>Next</Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}
