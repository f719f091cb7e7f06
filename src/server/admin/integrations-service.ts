import "server-only";
import { env, liveIntegrationSecrets } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { describeMarketplace } from "@/server/integrations/marketplace/marketplace";
import { signingKeyState, type SigningKeyState } from "@/server/integrations/marketplace/signing-key-store";
import { marketplaceTokenStore } from "@/server/integrations/marketplace/token-store";
import { idSetting, secretSetting } from "@/server/integrations/port-status";
import { logChange } from "@/server/logbook/service";
import { hitRateLimit, type RateLimitRule } from "@/server/rate-limit/service";
import { integrationPortEntries } from "./integration-ports";
import { integrationPorts, type ConnectionTest, type EbayTokens, type ExpiryState, type IntegrationPort, type IntegrationsOverview, type WebhookAddress } from "./integrations-schemas";

/**
 * The owner's integrations page: each outside service's mode and settings as its chooser set them up, the webhook
 * addresses to give the providers, eBay's tokens, and Test connection. Read from configuration and the ports alone,
 * so it owns no table; its only write is the logbook entry of each test.
 */

/**
 * Test connection calls a provider on a staff member's click, and a provider counts (and bills, for geocoding) the
 * calls: a few a minute per person and provider is plenty to retry after fixing a key, and the cap on all of them
 * together leaves room to test every port once after setting up and retry a couple.
 */
export const connectionTestLimit: RateLimitRule = { limit: 3, windowMs: 60_000 };
export const connectionTestsInAllLimit: RateLimitRule = { limit: 15, windowMs: 60_000 };
/** How long a Test connection waits for its provider before it reports a timeout. */
export const connectionTestTimeoutMs = 10_000;
/** The refresh token is flagged this long before the consent behind it ends: time to sign in to eBay again. */
export const refreshTokenWarningDays = 30;

const day = 24 * 60 * 60_000;

export async function getIntegrationsOverview(db: Db, now: Date = new Date()): Promise<IntegrationsOverview> {
  const rows = integrationPorts.map((port) => {
    const entry = integrationPortEntries[port];
    return { port, name: entry.name, group: entry.group, ...entry.describe() };
  });
  const overview: IntegrationsOverview = {
    shopUrl: shopUrl(),
    integrations: env.INTEGRATIONS,
    rows,
    webhooks: webhookAddresses(),
    ebay: await ebayTokens(db, now),
  };
  return withoutSecrets(overview);
}

/**
 * Where each provider calls the shop, on AUTH_URL (never a request's Host). Mollie's address carries the shop's
 * webhook secret in its query when the shop sends it with each payment: it is shown without it, since nothing has
 * to be registered at Mollie.
 */
function webhookAddresses(): WebhookAddress[] {
  const base = shopUrl();
  const live = env.INTEGRATIONS === "live";
  return [
    {
      provider: "Mollie",
      url: `${base}/api/webhooks/mollie`,
      how: "Nothing to register: the shop sends this address, with its secret, along with every payment.",
      setting: null,
    },
    {
      provider: "PayPal",
      url: `${base}/api/webhooks/paypal`,
      how: "Register it in PayPal's developer dashboard (the app's webhooks, all payment and checkout events), then set the id PayPal gives it.",
      setting: live ? idSetting("PAYPAL_WEBHOOK_ID", env.PAYPAL_WEBHOOK_ID) : null,
    },
    {
      provider: "eBay",
      url: `${base}/api/webhooks/ebay`,
      how: "Give it to eBay's Notification API (and as the Marketplace Account Deletion endpoint) with the verification token.",
      setting: live ? secretSetting("EBAY_NOTIFICATION_VERIFICATION_TOKEN", env.EBAY_NOTIFICATION_VERIFICATION_TOKEN) : null,
    },
  ];
}

async function ebayTokens(db: Db, now: Date): Promise<EbayTokens> {
  const { mode } = describeMarketplace();
  const stored = mode === "live" ? await marketplaceTokenStore(db).read().catch(() => null) : null;
  const refreshTokenExpiresAt = mode === "live" ? (env.EBAY_REFRESH_TOKEN_EXPIRES_AT ?? null) : null;
  return {
    mode,
    accessTokenExpiresAt: stored?.expiresAt ?? null,
    // The access token lives two hours and is renewed on the next call: an expired one is no problem by itself.
    accessToken: stored ? (stored.expiresAt > now ? "ok" : "expired") : "unknown",
    refreshTokenExpiresAt,
    refreshToken: expiryState(refreshTokenExpiresAt, now, refreshTokenWarningDays),
    refreshTokenDaysLeft: refreshTokenExpiresAt ? Math.floor((refreshTokenExpiresAt.getTime() - now.getTime()) / day) : null,
    signingKey: signingKeyShown(await signingKeyState(db, now)),
  };
}

/** The signing key as the owner reads it: whether eBay's signed calls (refunds, Finances) can go out, never the key. */
function signingKeyShown(key: SigningKeyState): EbayTokens["signingKey"] {
  if (key.state === "none") return { state: "not set up", detail: "No signing key yet: the first refund or fee lookup makes one with eBay's Key Management API." };
  const until = key.expiresAt.toISOString().slice(0, 10);
  if (key.expired) return { state: "not set up", detail: `Key ${key.signingKeyId} expired on ${until}: the next signed call makes a new one.` };
  return { state: "ready", detail: `Key ${key.signingKeyId}, made ${key.createdAt.toISOString().slice(0, 10)}, valid until ${until}.` };
}

export function expiryState(expiresAt: Date | null, now: Date, warnDays: number): ExpiryState {
  if (!expiresAt) return "unknown";
  if (expiresAt <= now) return "expired";
  return expiresAt.getTime() - now.getTime() <= warnDays * day ? "soon" : "ok";
}

/**
 * One Test connection: counted against the staff member's limit, bounded in time, and written to the logbook
 * (who tested what, and how it went) whatever the outcome.
 */
export async function testConnection(
  db: Db,
  userId: string,
  port: IntegrationPort,
  options: { timeoutMs?: number; now?: () => Date } = {},
): Promise<ConnectionTest> {
  const now = options.now ?? (() => new Date());
  const at = now();
  const [perPort, inAll] = await Promise.all([
    hitRateLimit(db, `integration-test:${userId}:${port}`, connectionTestLimit, at),
    hitRateLimit(db, `integration-test:${userId}`, connectionTestsInAllLimit, at),
  ]);
  const limited = !perPort.allowed ? perPort : !inAll.allowed ? inAll : null;
  if (limited) {
    const seconds = Math.max(1, Math.ceil(limited.retryAfterMs / 1000));
    throw new AppError("TOO_MANY_REQUESTS", `Too many connection tests: try again in ${seconds} second${seconds === 1 ? "" : "s"}.`);
  }
  const entry = integrationPortEntries[port];
  const timeoutMs = options.timeoutMs ?? connectionTestTimeoutMs;
  const started = performance.now();
  // A chooser that cannot build its adapter (a key missing) throws at once: that is the answer too.
  const answer = await within(Promise.resolve().then(() => entry.probe(db)), timeoutMs).then(
    (message) => ({ outcome: "ok" as const, message }),
    (error: unknown) =>
      error instanceof ProbeTimeout ? { outcome: "timeout" as const, message: `No answer within ${timeoutMs / 1000} s` } : { outcome: "error" as const, message: errorText(error) },
  );
  const result: ConnectionTest = withoutSecrets({ port, ...answer, ms: Math.round(performance.now() - started), testedAt: now() });
  await logChange(db, {
    userId,
    eventType: "HEALTH_CHECK",
    logLevel: result.outcome === "ok" ? "INFO" : "WARNING",
    description:
      result.outcome === "ok"
        ? `Tested the connection to ${entry.name}: ok in ${result.ms} ms`
        : `Tested the connection to ${entry.name}: ${result.outcome === "timeout" ? "timed out" : "failed"} (${result.message})`,
    newState: { port, outcome: result.outcome, ms: result.ms, message: result.message },
  });
  return result;
}

class ProbeTimeout extends Error {}

/** `work`, or a ProbeTimeout once `ms` have passed; the call itself ends by its adapter's own timeout. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** An adapter's error in words: the provider's message, with Node's "fetch failed" completed by its cause. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && error.cause.message !== error.message && !error.message.includes(error.cause.message) ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`.slice(0, 500);
}

/** The configured values no page may show: every credential of a live integration and the shop's own secrets. */
function secretValues(): string[] {
  const names = [...liveIntegrationSecrets, "AUTH_SECRET", "TOKEN_SECRET", "WEBHOOK_SECRET", "EBAY_NOTIFICATION_VERIFICATION_TOKEN"] as const;
  const shown = new Set(["MAIL_FROM", "POSTNL_CUSTOMER_CODE", "POSTNL_CUSTOMER_NUMBER", "UPS_ACCOUNT_NUMBER", "GCS_BUCKET", "GCS_PRIVATE_BUCKET", "UPS_CLIENT_ID", "EBAY_CLIENT_ID", "GOOGLE_CLIENT_ID"]);
  const values = names.filter((name) => !shown.has(name)).map((name) => (env as Record<string, unknown>)[name]);
  // SMTP_URL's secret is its password; the rest of it (the host) may be shown.
  const smtpPassword = env.SMTP_URL ? safeUrl(env.SMTP_URL)?.password : undefined;
  return [...values, smtpPassword ? decodeURIComponent(smtpPassword) : undefined].filter((value): value is string => typeof value === "string" && value.length >= 6);
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The page's data with every configured secret blanked out wherever it appears: a provider's error message could
 * echo what it was sent, and this is the last place to stop it before the browser.
 */
function withoutSecrets<T>(value: T): T {
  const secrets = secretValues();
  const scrub = (item: unknown): unknown => {
    if (typeof item === "string") return secrets.reduce((text, secret) => text.split(secret).join("•••"), item);
    if (Array.isArray(item)) return item.map(scrub);
    if (item && typeof item === "object" && !(item instanceof Date)) return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, scrub(inner)]));
    return item;
  };
  return scrub(value) as T;
}
