/** Marks tags as changed now: every cached entry carrying one of them and read before now is no longer served. */
export function invalidateTags(tags: string[]): void;

/** Next's cache handler (next.config.ts `cacheHandler`); typed here for the tests that drive it. */
declare class ShopCacheHandler {
  constructor(options: { serverDistDir?: string });
  get(key: string): Promise<{ lastModified: number; value: unknown; cacheControl?: unknown } | null>;
  set(key: string, value: unknown, context?: { tags?: string[]; cacheControl?: { revalidate: number | false; expire?: number } }): Promise<void>;
  revalidateTag(tags: string | string[]): Promise<void>;
  resetRequestCache(): void;
}
export default ShopCacheHandler;
