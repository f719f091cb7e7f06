/**
 * Where Auth.js may send a browser after signing in or out: a path on this shop, or a full address on this shop's
 * own origin. Anything else (another origin, `//host` tricks, other schemes) falls back to the home page, so a
 * crafted link can never use the shop to redirect to a look-alike site.
 */
export function safeRedirect(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    return base.origin;
  }
  if (target.origin !== base.origin) return base.origin;
  return target.toString();
}
