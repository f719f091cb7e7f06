"use client";

import { EyeOff, Loader2, Rocket } from "lucide-react";
import { useState, type ReactNode } from "react";
import { toast } from "@/components/toast";
import { AdminDialog, AdminDialogClose, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { Button } from "@/components/ui/button";
import type { AdminProduct, PublishChannels } from "@/server/catalog/admin-schemas";
import { usePublishProduct, useUnpublishProduct } from "./queries";

/**
 * Asks where to publish: the web shop, ticked, and eBay, which staff tick when the piece is for eBay too. `onPublish`
 * resolves true when it went through (the dialog closes) and false when it was refused (the dialog stays for a retry).
 */
export function PublishDialog({
  trigger,
  title,
  description,
  onPublish,
}: {
  trigger: ReactNode;
  title: string;
  description: string;
  onPublish: (channels: PublishChannels) => Promise<boolean>;
}) {
  const [open, setOpen] = useState(false);
  const [channels, setChannels] = useState<PublishChannels>({ web: true, ebay: false });
  const [busy, setBusy] = useState(false);
  const none = !channels.web && !channels.ebay;
  const publish = async () => {
    setBusy(true);
    try {
      if (await onPublish(channels)) setOpen(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AdminDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setChannels({ web: true, ebay: false });
      }}
    >
      <AdminDialogTrigger asChild>{trigger}</AdminDialogTrigger>
      <AdminDialogContent title={title} description={description}>
        <fieldset className="space-y-2 text-sm">
          <legend className="mb-2 font-medium">Publish on</legend>
          <label className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-[var(--primary)]" checked={channels.web} onChange={(event) => setChannels({ ...channels, web: event.target.checked })} />
            The web shop
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-[var(--primary)]" checked={channels.ebay} onChange={(event) => setChannels({ ...channels, ebay: event.target.checked })} />
            eBay <span className="text-xs text-muted-foreground">(the listing itself is made on the eBay offers page)</span>
          </label>
          {none ? <p className="text-xs text-destructive">Choose the web shop, eBay or both.</p> : null}
        </fieldset>
        <div className="mt-4 flex justify-end gap-2">
          <AdminDialogClose asChild>
            <Button type="button" variant="outline" size="sm">
              Cancel
            </Button>
          </AdminDialogClose>
          <Button type="button" size="sm" disabled={busy || none} onClick={() => void publish()}>
            {busy ? <Loader2 className="animate-spin" /> : <Rocket />} Publish
          </Button>
        </div>
      </AdminDialogContent>
    </AdminDialog>
  );
}

/**
 * A product page's Publish and Unpublish. `beforePublish` saves what staff typed first (false: it could not be
 * saved); a refusal (a placeholder left) is toasted and handed to `onRefused`, which marks the fields.
 */
export function PublishControls({ product, beforePublish, onRefused }: { product: AdminProduct; beforePublish: () => Promise<boolean>; onRefused: (message: string) => void }) {
  const publish = usePublishProduct();
  const unpublish = useUnpublishProduct();
  const online = product.wsStatus === "ONLINE" || product.ebayStatus === "ONLINE";
  const onPublish = async (channels: PublishChannels) => {
    if (!(await beforePublish())) return false;
    try {
      await publish.mutateAsync({ id: product.id, channels });
    } catch (error) {
      // Toasted as "Not published" with the server's reason (usePublishProduct); the fields are marked here.
      onRefused((error as Error).message);
      return false;
    }
    toast.success("Published", { description: `${product.name} is on ${[channels.web && "the web shop", channels.ebay && "eBay"].filter(Boolean).join(" and ")}.` });
    return true;
  };
  return (
    <>
      {online ? (
        <Button
          type="button"
          variant="outline"
          disabled={unpublish.isPending}
          onClick={() =>
            unpublish.mutate({ id: product.id }, { onSuccess: () => toast.success("Unpublished", { description: `${product.name} is off the web shop and eBay.` }) })
          }
        >
          <EyeOff /> Unpublish
        </Button>
      ) : null}
      <PublishDialog
        title={product.publishedAt ? "Publish again" : "Publish this draft"}
        description="Once published the product is on the channels you choose. A template's placeholders such as {size} must be filled in first."
        onPublish={onPublish}
        trigger={
          <Button type="button" variant={product.publishedAt ? "outline" : "default"}>
            <Rocket /> Publish…
          </Button>
        }
      />
    </>
  );
}
