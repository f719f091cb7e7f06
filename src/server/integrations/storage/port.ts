/**
 * Object storage for product images, shipping labels and exports. Keys are slash-separated paths such as
 * `products/{id}/1.webp`; the same key means the same object in the local sandbox folder and in the bucket.
 */

export type StoredObject = { body: Buffer; contentType: string };

export type StoredObjectInfo = { key: string; size: number; updatedAt: Date };

export interface StoragePort {
  readonly kind: "sandbox" | "live";
  /** Writes the object, replacing any object under the same key. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none under the key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<StoredObjectInfo[]>;
  /** The address a browser loads the object from. */
  publicUrl(key: string): string;
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
