import "server-only";
import { listProductImageObjects } from "@/server/integrations/storage/port";
import { getStorage } from "@/server/integrations/storage/storage";

/**
 * Where a browser loads a stored picture from: the bucket in production, /storage/... in the embedded default.
 * Every procedure and page that shows pictures passes this as its `imageUrl`.
 */
export function storageImageUrl(key: string): string {
  return getStorage().publicUrl(key);
}

/** A product's picture keys as the storage holds them, by position. */
export async function storedProductImageKeys(productId: number): Promise<string[]> {
  return (await listProductImageObjects(getStorage(), productId)).map((object) => object.key);
}
