/**
 * The shop's security headers (SECURITY-REVIEW M5), in one place for next.config.ts (every response) and
 * src/proxy.ts (pages rendered per person). Plain functions with no server imports: next.config.ts loads this file.
 *
 * Two script policies:
 * - Pages rendered per request and per person (admin, checkout, account, cart, sign-in, the sandbox pages) get a
 *   fresh nonce from the proxy: only scripts carrying it run, and those they load ('strict-dynamic').
 * - Catalogue pages (home, listings, product pages) are to be served from cache, and a cached page cannot carry a
 *   per-response nonce. Next.js's subresource integrity covers its script files but not the inline payload it
 *   streams into every page (`self.__next_f.push(...)`), whose hash changes with each page's content, so those
 *   pages get a static policy: scripts only from the shop itself plus inline ones, every other directive as strict
 *   as on the personal pages.
 */

/** Paths whose pages are rendered per person, and so can carry a nonce. */
export const personalPagePrefixes = ["/admin", "/checkout", "/account", "/cart", "/sign-in", "/sandbox", "/dev"] as const;

export function isPersonalPage(pathname: string): boolean {
  return personalPagePrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export type PolicyOptions = {
  /** A fresh nonce for a personal page; none for a cached page. */
  nonce?: string;
  /** `next dev` needs eval (React's debugging) and its reload socket. */
  development: boolean;
  /** A storage bucket whose pictures pages show directly (Google Cloud Storage in production). */
  imageBucket?: string;
};

export function contentSecurityPolicy({ nonce, development, imageBucket }: PolicyOptions): string {
  const scripts = nonce ? [`'nonce-${nonce}'`, "'strict-dynamic'"] : ["'self'", "'unsafe-inline'"];
  if (development) scripts.push("'unsafe-eval'");
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": scripts,
    // React and Radix position popovers with style attributes, and the toaster adds a style element: styles stay
    // open to inline (a nonce here would switch 'unsafe-inline' off). Styles cannot run code.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...(imageBucket ? [`https://storage.googleapis.com/${imageBucket}/`] : [])],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...(development ? ["ws:"] : [])],
    "frame-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Headers for every response, whatever it is. */
export const alwaysHeaders: { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // Older browsers that know no frame-ancestors: the admin's buttons must never be clickable inside another site.
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
];

/** Two years, subdomains included: what browsers' preload lists ask for. Sent only over https. */
export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

/** A nonce of 128 random bits. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
