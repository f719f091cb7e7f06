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

// Any origin will do: only whether a value stays on it matters.
const probeOrigin = "https://shop.invalid";

/**
 * A path on this shop to send a signed-in visitor to, from a `callbackUrl` they brought along: the value resolved
 * as a browser would (so "/\evil.example", "/\t/evil.example" and "//evil.example" leave the shop and are refused),
 * kept only when it stays on the shop; "/" otherwise (SECURITY-REVIEW M3).
 */
export function localPath(value: string | undefined): string {
  if (!value) return "/";
  try {
    const target = new URL(value, probeOrigin);
    return target.origin === probeOrigin ? `${target.pathname}${target.search}${target.hash}` : "/";
  } catch {
    return "/";
  }
}
