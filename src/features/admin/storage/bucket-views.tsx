"use client";

import { ChevronRight, File, FileImage, Folder, Loader2, Upload } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { toast } from "@/components/toast";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminInput, AdminLabel } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { plural } from "@/lib/plural";
import { cn } from "@/lib/utils";
import { showErrorToast } from "@/lib/trpc/client";
import { useUploadClient } from "@/lib/trpc/upload-client";
import { formatDateTime } from "../kit/format";
import { FormField } from "../kit/forms/form-field";
import { MISSING_FIELDS_TOAST } from "../kit/forms/is-filled";
import { DeleteRowButton, ListFrame, ListTable } from "../kit/list-table";
import { useBucketListing, useDeleteBucketObject, useRefreshBucket } from "./queries";

function folderOf(params: URLSearchParams): string {
  const prefix = (params.get("prefix") ?? "").replace(/^\/+/, "");
  return prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function Breadcrumbs({ prefix, base }: { prefix: string; base: string }) {
  const parts = prefix.split("/").filter(Boolean);
  return (
    <nav aria-label="Folder" className="flex flex-wrap items-center gap-1 text-sm">
      <Link href={base} className="text-primary hover:underline">
        bucket
      </Link>
      {parts.map((part, index) => (
        <span key={index} className="flex items-center gap-1">
          <ChevronRight className="size-3.5 text-muted-foreground" />
          <Link href={`${base}?prefix=${encodeURIComponent(`${parts.slice(0, index + 1).join("/")}/`)}`} className="text-primary hover:underline">
            {part}
          </Link>
        </span>
      ))}
    </nav>
  );
}

export function BucketBrowser() {
  const params = useSearchParams();
  const prefix = folderOf(new URLSearchParams(params.toString()));
  const listing = useBucketListing(prefix);
  const remove = useDeleteBucketObject();
  const data = listing.data;
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between">
        <Breadcrumbs prefix={prefix} base="/admin/google-bucket" />
        <Button asChild size="sm">
          <Link href={`/admin/google-bucket/upload${prefix ? `?prefix=${encodeURIComponent(prefix)}` : ""}`}>
            <Upload /> Upload here
          </Link>
        </Button>
      </div>
      <ListFrame
        scroll="max-h-[calc(100dvh-12rem)]"
        footer={data?.truncated ? <p className="border-t px-3 py-2 text-xs text-muted-foreground">Showing the first 500 files of this folder.</p> : null}
      >
        <ListTable
          columns={[{ className: "w-14" }, { label: "Name" }, { label: "Size", className: "text-right" }, { label: "Changed" }, { className: "w-10" }]}
          loadingRows={listing.isPending ? 1 : 0}
          empty={data && data.folders.length === 0 && data.files.length === 0 ? "This folder is empty." : null}
        >
          {data?.folders.map((folder) => (
            <AdminTableRow key={folder.prefix}>
              <AdminTableCell>
                <Folder className="size-5 text-brass" />
              </AdminTableCell>
              <AdminTableCell>
                <Link href={`/admin/google-bucket?prefix=${encodeURIComponent(folder.prefix)}`} className="font-medium hover:text-primary hover:underline">
                  {folder.name}/
                </Link>
              </AdminTableCell>
              <AdminTableCell className="text-right text-muted-foreground">{plural(folder.objects, "file")}</AdminTableCell>
              <AdminTableCell />
              <AdminTableCell />
            </AdminTableRow>
          ))}
          {data?.files.map((file) => (
            <AdminTableRow key={file.key}>
              <AdminTableCell>
                {file.contentType.startsWith("image/") ? (
                  // eslint-disable-next-line @next/next/no-img-element -- a preview of the stored object itself
                  <img src={file.url} alt="" loading="lazy" className="size-9 rounded bg-muted object-cover ring-1 ring-border" />
                ) : file.contentType === "application/pdf" ? (
                  <File className="size-5 text-muted-foreground" />
                ) : (
                  <FileImage className="size-5 text-muted-foreground" />
                )}
              </AdminTableCell>
              <AdminTableCell>
                <a href={file.url} target="_blank" rel="noreferrer" className="hover:text-primary hover:underline">
                  {file.name}
                </a>
              </AdminTableCell>
              <AdminTableCell className="text-right text-muted-foreground">{size(file.size)}</AdminTableCell>
              <AdminTableCell className="text-muted-foreground">{formatDateTime(file.updatedAt)}</AdminTableCell>
              <AdminTableCell>
                <DeleteRowButton label={`Delete ${file.name}`} question={`Delete ${file.key} from the bucket?`} onConfirm={() => remove.mutate({ key: file.key })} />
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </ListFrame>
    </div>
  );
}

export function BucketUpload() {
  const params = useSearchParams();
  const router = useRouter();
  const uploads = useUploadClient();
  const refreshBucket = useRefreshBucket();
  const [prefix, setPrefix] = useState(folderOf(new URLSearchParams(params.toString())));
  const [files, setFiles] = useState<File[]>([]);
  const [convert, setConvert] = useState(true);
  const [busy, setBusy] = useState(false);
  const [filesMissing, setFilesMissing] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFilesMissing(!files.length);
    if (!files.length) {
      toast.error(MISSING_FIELDS_TOAST.title, { description: MISSING_FIELDS_TOAST.description });
      return;
    }
    const folder = prefix.trim().replace(/^\/+/, "");
    const normalised = folder === "" || folder.endsWith("/") ? folder : `${folder}/`;
    const data = new FormData();
    data.set("prefix", normalised);
    data.set("convertToWebp", String(convert));
    for (const file of files) data.append("files", file);
    setBusy(true);
    try {
      const keys = await uploads.admin.bucket.upload.mutate(data);
      await refreshBucket();
      toast.success("Uploaded", { description: keys.join(", ") });
      router.push(`/admin/google-bucket${normalised ? `?prefix=${encodeURIComponent(normalised)}` : ""}`);
    } catch (error) {
      showErrorToast(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AdminCard className="max-w-2xl">
      <AdminCardHeader title="Upload files" description="Files keep their names (cleaned for addresses). Product pictures are better added on the product's Pictures tab." />
      <form noValidate onSubmit={submit} className="space-y-4 p-4">
        <div className="space-y-1">
          <AdminLabel htmlFor="upload-prefix">Folder</AdminLabel>
          <AdminInput id="upload-prefix" value={prefix} onChange={(event) => setPrefix(event.target.value)} placeholder="e.g. banners/ (empty for the top)" />
        </div>
        <FormField label="Files" htmlFor="upload-files" required error={filesMissing && !files.length ? "Choose at least one file" : undefined}>
          <label htmlFor="upload-files" className={cn("flex cursor-pointer flex-col items-center gap-2 rounded-lg border border-dashed bg-muted/30 px-4 py-8 text-center text-sm hover:bg-muted/60", filesMissing && !files.length && "border-destructive")}>
            <Upload className="size-6 text-brass" />
            {files.length ? `${files.length} file${files.length === 1 ? "" : "s"}: ${files.map((file) => file.name).join(", ")}` : "Choose files (JPEG, PNG, WebP, AVIF, GIF or PDF; up to 20 files, 25 MB each, 50 MB together)"}
          </label>
          <input id="upload-files" type="file" multiple accept=".jpg,.jpeg,.png,.webp,.avif,.gif,.pdf" className="sr-only" aria-invalid={filesMissing && !files.length ? true : undefined} aria-describedby={filesMissing && !files.length ? "upload-files-note" : undefined} onChange={(event) => setFiles([...(event.target.files ?? [])])} />
        </FormField>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-[var(--primary)]" checked={convert} onChange={(event) => setConvert(event.target.checked)} />
          Convert pictures to WebP (as the shop serves them)
        </label>
        <div className="flex justify-end">
          <Button type="submit" size="sm" disabled={busy}>
            {busy ? <Loader2 className="animate-spin" /> : <Upload />} Upload
          </Button>
        </div>
      </form>
    </AdminCard>
  );
}
