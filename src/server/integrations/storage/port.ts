/**
 * Object storage, in two places that never share an object. Keys are slash-separated paths such as
 * `products/{id}/1.webp`; the same key means the same object in the local sandbox folder and in the bucket.
 *
 * - The public storage (`StoragePort`) holds product pictures and the files staff publish (banners): browsers load
 *   them straight from it, at `publicUrl`.
 * - The private storage (`PrivateStoragePort`) holds shipping labels and every other document with customers' details
 *   (invoices, exports, backups, should the shop ever store them). It has no public address: the shop reads it and
 *   serves it to staff only (SECURITY-REVIEW N-H1).
 *
 * The two types differ in `visibility`, so one cannot be handed in for the other, and only the public one has
 * `publicUrl`. The public storage also refuses to store, or give an address to, a key in a private folder.
 */

import type { Probe } from "../port-status";

export type StoredObject = { body: Buffer; contentType: string };

export type StoredObjectInfo = { key: string; size: number; updatedAt: Date };

/** What both storages do. */
export interface ObjectStore {
  readonly kind: "sandbox" | "live";
  /** The owner's Test connection: lists at most one object, which needs the shop's credentials on the bucket. */
  probe: Probe;
  /** Writes the object, replacing any object under the same key. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none under the key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<StoredObjectInfo[]>;
}

/** The public storage: product pictures and files staff publish, readable by everyone. */
export interface StoragePort extends ObjectStore {
  readonly visibility: "public";
  /** The address a browser loads the object from; refused for a key in a private folder. */
  publicUrl(key: string): string;
}

/** The private storage: labels and other documents with customers' details, read by the shop only. */
export interface PrivateStoragePort extends ObjectStore {
  readonly visibility: "private";
  /**
   * Throws `PrivateStorageCheckError` when someone without the shop's credentials could list or read what is stored,
   * or when that cannot be confirmed; the shop runs this at start-up and does not start when it throws.
   */
  assertPrivate(): Promise<void>;
}

/** The folders of private documents. The public storage refuses them; labels are written under `labels`. */
export const privateFolders = { labels: "labels/", invoices: "invoices/", exports: "exports/", backups: "backups/" } as const;

/** Whether a key lies in a private folder. */
export function isPrivateDocumentKey(key: string): boolean {
  return Object.values(privateFolders).some((folder) => key.startsWith(folder));
}

export class PrivateStorageCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrivateStorageCheckError";
  }
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string, reason: string) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`);
    this.name = "InvalidStorageKeyError";
  }
}

/**
 * Why a key is unusable, or null when it is fine. Both adapters refuse the same keys, so that a key accepted in the
 * sandbox never fails in production: no escaping the storage root (`..`), no absolute paths, no backslashes or
 * control characters, no empty or hidden segments (the sandbox keeps its own bookkeeping in hidden files). Lengths
 * are the stricter of both: a bucket's object name holds 1024 bytes, a folder on disk 255 bytes per segment, and
 * the sandbox first writes beside the target under a name 21 bytes longer.
 */
export function storageKeyProblem(key: string): string | null {
  if (key.length === 0) return "empty";
  if (utf8Length(key) > 1024) return "longer than 1024 bytes";
  if (key.startsWith("/")) return "absolute path";
  if (/[\\\u0000-\u001f\u007f]/.test(key)) return "backslash or control character";
  for (const segment of key.split("/")) {
    if (segment === "") return "empty path segment";
    if (segment === "." || segment === "..") return "relative path segment";
    if (segment.startsWith(".")) return "hidden path segment";
    if (utf8Length(segment) > 200) return "path segment longer than 200 bytes";
  }
  return null;
}

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

export function assertStorageKey(key: string): void {
  const problem = storageKeyProblem(key);
  if (problem) throw new InvalidStorageKeyError(key, problem);
}

/** Why a key cannot go into the public storage, or null when it can: `storageKeyProblem`, or a private folder. */
export function publicKeyProblem(key: string): string | null {
  return storageKeyProblem(key) ?? (isPrivateDocumentKey(key) ? "a private folder: its documents are never public" : null);
}

/** The public storage's check before it stores an object or gives its address. */
export function assertPublicKey(key: string): void {
  const problem = publicKeyProblem(key);
  if (problem) throw new InvalidStorageKeyError(key, problem);
}

/**
 * The public storage over an adapter's objects, whose address is `addressBase` followed by the key: both adapters
 * refuse private folders the same way.
 */
export function publicStorage(objects: ObjectStore, addressBase: string): StoragePort {
  return {
    ...objects,
    visibility: "public",
    async put(key, body, contentType) {
      assertPublicKey(key);
      await objects.put(key, body, contentType);
    },
    publicUrl(key) {
      assertPublicKey(key);
      return `${addressBase}/${key.split("/").map(encodeURIComponent).join("/")}`;
    },
  };
}

/** The key of a product's image; the first image is the one the storefront shows. */
export function productImageKey(productId: number, position = 1): string {
  return `products/${productId}/${position}.webp`;
}

/** The position N of `products/{productId}/N.webp`; null for any other key, so stray files are never taken for pictures. */
export function productImagePosition(productId: number, key: string): number | null {
  const position = Number(/^products\/\d+\/(\d+)\.webp$/.exec(key)?.[1] ?? Number.NaN);
  return Number.isInteger(position) && position >= 1 && key === productImageKey(productId, position) ? position : null;
}

/** A product's pictures as stored, by position. */
export async function listProductImageObjects(
  storage: Pick<StoragePort, "list">,
  productId: number,
): Promise<(StoredObjectInfo & { position: number })[]> {
  return (await storage.list(`products/${productId}/`))
    .flatMap((object) => {
      const position = productImagePosition(productId, object.key);
      return position === null ? [] : [{ ...object, position }];
    })
    .sort((a, b) => a.position - b.position);
}

const contentTypesByExtension: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  avif: "image/avif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
};

/** The content type a key's extension suggests; for files that were copied into storage by hand. */
export function contentTypeForKey(key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return contentTypesByExtension[extension] ?? "application/octet-stream";
}
