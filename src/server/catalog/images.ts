import "server-only";
import { getStorage } from "@/server/integrations/storage/storage";
import { productImageKeys } from "./service";

/** Where a browser loads a stored picture from: the bucket in production, /storage/... in the embedded default. */
export function storageImageUrl(key: string): string {
  return getStorage().publicUrl(key);
}

/** A product's picture keys as the storage holds them. */
export function storedProductImageKeys(productId: number): Promise<string[]> {
  return productImageKeys(getStorage(), productId);
}
