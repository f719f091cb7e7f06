/** Marks tags as changed now: every cached entry carrying one of them and read before now is no longer served. */
export function invalidateTags(tags: string[]): void;

/** The tag of entries kept in this process only, never in Redis (typed searches: anyone can make up another). */
export const INSTANCE_ONLY_TAG: string;

/** A catalogue read could not reach the database: pages are served as last rendered until one does again. */
export function databaseUnreachable(): void;
/** A catalogue read reached the database again. */
export function databaseReachable(): void;
/** Whether a catalogue read found the database unreachable, and none has reached it since. */
export function isDatabaseUnreachable(): boolean;

/** Next's cache handler (next.config.ts `cacheHandler`); typed here for the tests that drive it. */
declare class ShopCacheHandler {
  constructor(options: { serverDistDir?: string });
  get(key: string): Promise<{ lastModified: number; value: unknown; cacheControl?: unknown } | null>;
  set(key: string, value: unknown, context?: { tags?: string[]; cacheControl?: { revalidate: number | false; expire?: number } }): Promise<void>;
  revalidateTag(tags: string | string[]): Promise<void>;
  resetRequestCache(): void;
}
export default ShopCacheHandler;
