import { decodeJwt } from "jose";

/** A token is refreshed this long before it runs out (SPEC section 9). */
export const REFRESH_BEFORE_EXPIRY_MS = 30_000;
/** After a failed refresh the next attempt waits this long, so an unreachable server is not hammered. */
export const RETRY_AFTER_FAILURE_MS = 30_000;
/** Two refreshes are never closer than this, whatever a token or the browser's clock says. */
export const MIN_TIME_BETWEEN_REFRESHES_MS = 30_000;

/** When a token runs out, in milliseconds; null when there is none or it cannot be decoded or has no `exp`. */
export function tokenExpiresAt(token: string | null | undefined): number | null {
  if (!token) return null;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * How long to wait before refreshing (SPEC section 4): at once with no token or an invalid or expired one,
 * otherwise 30 seconds before expiry, or at once when that moment has passed.
 */
export function refreshDelay(token: string | null | undefined, now: number): number {
  const expiresAt = tokenExpiresAt(token);
  if (expiresAt === null || expiresAt <= now) return 0;
  return Math.max(0, expiresAt - REFRESH_BEFORE_EXPIRY_MS - now);
}

/**
 * How long to wait before refreshing a token the server has just handed out. Its `exp` is on the server's clock, so it
 * is measured from its `iat`, not against the browser's clock: a browser set hours ahead would otherwise find every
 * new token already expired and ask again at once, in a loop. A token without `iat` falls back to the browser's clock.
 */
export function refreshDelayOfFreshToken(token: string, now: number): number {
  const expiresAt = tokenExpiresAt(token);
  const issuedAt = tokenIssuedAt(token);
  const delay = expiresAt !== null && issuedAt !== null ? expiresAt - REFRESH_BEFORE_EXPIRY_MS - issuedAt : refreshDelay(token, now);
  return Math.max(MIN_TIME_BETWEEN_REFRESHES_MS, delay);
}

function tokenIssuedAt(token: string): number | null {
  try {
    const { iat } = decodeJwt(token);
    return typeof iat === "number" ? iat * 1000 : null;
  } catch {
    return null;
  }
}

export type TokenLifecycleDependencies = {
  /** The stored token, if any. */
  read: () => string | null;
  /** Keeps a new token (in memory and under `token`). */
  write: (token: string) => void;
  /** Asks the server for a new token; `current` is undefined when there is no valid-looking one. */
  refresh: (current: string | undefined) => Promise<string>;
  now?: () => number;
  onError?: (error: unknown) => void;
};

/** Keeps a fresh token for as long as it runs; returns the function that stops it. */
export function startTokenLifecycle(deps: TokenLifecycleDependencies): () => void {
  const now = deps.now ?? Date.now;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(run, delay);
  };

  async function run() {
    const current = deps.read();
    try {
      const fresh = await deps.refresh(tokenExpiresAt(current) === null ? undefined : (current ?? undefined));
      if (stopped) return;
      deps.write(fresh);
      schedule(refreshDelayOfFreshToken(fresh, now()));
    } catch (error) {
      deps.onError?.(error);
      schedule(RETRY_AFTER_FAILURE_MS);
    }
  }

  schedule(refreshDelay(deps.read(), now()));
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
