"use client";

import * as Tabs from "@radix-ui/react-tabs";
import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { AdminBadge } from "@/components/ui/admin-badge";
import { formatEuro } from "@/lib/money";
import { formatDateTime } from "../kit/format";
import { StockPanel } from "../stock/stock-panel";
import { ImagesManager } from "./images-manager";
import { ProductForm } from "./product-form";
import { useAdminProduct } from "./queries";

const tabs = [
  { value: "details", label: "Details" },
  { value: "images", label: "Pictures" },
  { value: "stock", label: "Stock" },
] as const;

const tabClass =
  "relative h-9 px-3 text-sm font-medium text-muted-foreground hover:text-foreground data-[state=active]:text-foreground data-[state=active]:after:absolute data-[state=active]:after:inset-x-2 data-[state=active]:after:-bottom-px data-[state=active]:after:h-0.5 data-[state=active]:after:bg-primary";

/** A product's tabs; `tab` is the address's ?tab=, read by the page on the server (see the create page for why). */
export function ProductEditor({ id, tab: asked }: { id: number; tab: string | undefined }) {
  const router = useRouter();
  const pathname = usePathname();
  const product = useAdminProduct(id);
  const tab = tabs.find((entry) => entry.value === asked)?.value ?? "details";

  if (product.error) return <p className="text-sm text-destructive">{product.error.message}</p>;
  if (!product.data) return <div className="h-96 animate-pulse rounded-lg border bg-muted/40" />;
  const data = product.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <h2 className="text-2xl font-semibold">{data.name}</h2>
        <AdminBadge tone="neutral">#{data.id}</AdminBadge>
        {data.publishedAt === null ? (
          <AdminBadge tone="warning" data-testid="product-status">
            Draft
          </AdminBadge>
        ) : (
          <>
            <AdminBadge tone={data.wsStatus === "ONLINE" ? "success" : "neutral"} data-testid="product-status">
              {data.wsStatus === "ONLINE" ? "On the shop" : "Off the shop"}
            </AdminBadge>
            <AdminBadge tone={data.ebayStatus === "ONLINE" ? "info" : "neutral"}>{data.ebayStatus === "ONLINE" ? "On eBay" : "Off eBay"}</AdminBadge>
          </>
        )}
        <AdminBadge tone={data.stock === 0 ? "danger" : "neutral"}>{data.stock} in stock</AdminBadge>
        <span className="text-sm font-medium tabular-nums">{formatEuro(data.price)}</span>
        <span className="ml-auto flex items-center gap-3 text-xs text-muted-foreground">
          Changed {formatDateTime(data.updatedAt)}
          <Link href={`/product/${data.id}`} target="_blank" className="inline-flex items-center gap-1 text-primary hover:underline">
            View in shop <ExternalLink className="size-3" />
          </Link>
        </span>
      </div>
      <Tabs.Root value={tab} onValueChange={(value) => router.replace(`${pathname}?id=${id}${value === "details" ? "" : `&tab=${value}`}`, { scroll: false })}>
        <Tabs.List className="mb-4 flex gap-1 border-b" aria-label="Product sections">
          {tabs.map((entry) => (
            <Tabs.Trigger key={entry.value} value={entry.value} className={tabClass}>
              {entry.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="details">
          <ProductForm product={data} />
        </Tabs.Content>
        <Tabs.Content value="images">
          <ImagesManager productId={id} />
        </Tabs.Content>
        <Tabs.Content value="stock">
          <StockPanel productId={id} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
