/**
 * Where the browser loads a listing's picture from. Pictures on the shop's own address are loaded from the page's
 * own origin (the shop may be opened as 127.0.0.1 while its configured address says localhost, and the pages'
 * content policy allows only their own origin and the bucket); any other address is used as given.
 */
export function listingImageSrc(url: string | null, shopUrl: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(shopUrl).origin ? `${parsed.pathname}${parsed.search}` : url;
  } catch {
    return null;
  }
}
