"use client";

import { ArrowLeft, ArrowRight, ImagePlus, Loader2, Star } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { Button } from "@/components/ui/button";
import { showErrorToast } from "@/lib/trpc/client";
import { useUploadClient } from "@/lib/trpc/upload-client";
import { MAX_IMAGES_PER_PRODUCT } from "@/server/catalog/admin-schemas";
import { DeleteRowButton } from "../kit/list-table";
import { useDeleteProductImage, useProductImages, useReorderProductImages, useSetProductImages } from "./queries";

/** A product's pictures: add several at once, move them, delete them. Position 1 is what the shop shows. */
export function ImagesManager({ productId }: { productId: number }) {
  const uploads = useUploadClient();
  const images = useProductImages(productId);
  const [uploading, setUploading] = useState(false);
  const setImages = useSetProductImages(productId);
  const reorder = useReorderProductImages(productId);
  const remove = useDeleteProductImage(productId);
  const list = images.data ?? [];
  const busy = uploading || reorder.isPending || remove.isPending;

  const upload = async (files: File[]) => {
    if (!files.length) return;
    setUploading(true);
    try {
      const data = new FormData();
      data.set("productId", String(productId));
      for (const file of files) data.append("files", file);
      setImages(await uploads.admin.product.uploadImages.mutate(data));
      toast.success("Pictures added", { description: `${files.length} converted to WebP and stored.` });
    } catch (error) {
      showErrorToast(error);
    } finally {
      setUploading(false);
    }
  };

  const move = (index: number, by: -1 | 1) => {
    const order = list.map((image) => image.position);
    const target = index + by;
    if (target < 0 || target >= order.length) return;
    [order[index], order[target]] = [order[target]!, order[index]!];
    reorder.mutate({ productId, order });
  };

  const makeFirst = (index: number) => {
    const order = list.map((image) => image.position);
    const [picked] = order.splice(index, 1);
    reorder.mutate({ productId, order: [picked!, ...order] });
  };

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <p className="text-sm text-muted-foreground">
          {list.length} of {MAX_IMAGES_PER_PRODUCT} pictures. The first is the shop&apos;s main picture (products/{productId}/1.webp).
        </p>
        <label className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground hover:bg-primary/90 has-[:disabled]:opacity-50">
          {uploading ? <Loader2 className="size-4 animate-spin" /> : <ImagePlus className="size-4" />} Add pictures
          <input
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            aria-label="Add pictures"
            disabled={busy || list.length >= MAX_IMAGES_PER_PRODUCT}
            onChange={(event) => {
              void upload([...(event.target.files ?? [])]);
              event.target.value = "";
            }}
          />
        </label>
      </div>
      {list.length === 0 && !images.isPending ? (
        <div className="rounded-lg border border-dashed p-10 text-center text-sm text-muted-foreground">
          No pictures yet. Square photos on a plain background look best in the shop grid.
        </div>
      ) : null}
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5" aria-busy={busy}>
        {list.map((image, index) => (
          <li key={image.key} className="group overflow-hidden rounded-lg border bg-card" data-testid="product-image">
            <div className="relative aspect-square bg-muted">
              {/* eslint-disable-next-line @next/next/no-img-element -- the stored WebP as it is, for checking */}
              <img src={image.url} alt={`Picture ${image.position}`} className="size-full object-contain" />
              {index === 0 ? (
                <AdminBadge tone="brass" className="absolute top-2 left-2 bg-card">
                  <Star className="size-3" /> Main
                </AdminBadge>
              ) : null}
            </div>
            <div className="flex items-center gap-1 border-t px-2 py-1.5">
              <span className="mr-auto text-xs text-muted-foreground tabular-nums">
                {image.position} · {Math.round(image.size / 1024)} kB
              </span>
              <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Move picture ${image.position} left`} disabled={busy || index === 0} onClick={() => move(index, -1)}>
                <ArrowLeft />
              </Button>
              <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Make picture ${image.position} the main picture`} disabled={busy || index === 0} onClick={() => makeFirst(index)}>
                <Star />
              </Button>
              <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={`Move picture ${image.position} right`} disabled={busy || index === list.length - 1} onClick={() => move(index, 1)}>
                <ArrowRight />
              </Button>
              <DeleteRowButton
                className="hover:bg-destructive/10"
                label={`Delete picture ${image.position}`}
                question={`Delete picture ${image.position}? This cannot be undone.`}
                disabled={busy}
                onConfirm={() => remove.mutate({ productId, position: image.position })}
              />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
