import "server-only";
import { env } from "@/env";
import { getDb } from "@/server/db/client";
import { createMolliePayments } from "./mollie";
import { createPayPalPayments, type PayPalPayments } from "./paypal";
import type { PaymentGateway, PaymentsPort } from "./port";
import { createSandboxPayments } from "./sandbox";

// One adapter per process and gateway: the PayPal adapter keeps its access token, the others are cheap anyway.
const globalForPayments = globalThis as unknown as { shopPayments?: Map<string, PaymentsPort> };

/**
 * The adapter that takes payments for a gateway: Mollie or PayPal with live integrations, the sandbox (which
 * stands in for both) otherwise. The sandbox's hosted page is on this shop, at `origin` (see `shopOrigin`).
 */
export function getPayments(gateway: PaymentGateway, origin: string = env.NEXT_PUBLIC_SERVER_URL): PaymentsPort {
  const cache = (globalForPayments.shopPayments ??= new Map());
  const key = env.INTEGRATIONS === "live" ? gateway : `sandbox ${origin}`;
  let payments = cache.get(key);
  if (!payments) {
    if (env.INTEGRATIONS !== "live") payments = createSandboxPayments({ db: getDb(), baseUrl: origin });
    else payments = gateway === "mollie" ? createLiveMollie() : createLivePayPal();
    cache.set(key, payments);
  }
  return payments;
}

/**
 * The address this shop is reached at, for the links it hands out (payment return pages, the sandbox's hosted page
 * and webhook, confirmation e-mails). Live, that is the configured server URL, never a request's Host header,
 * which a caller could make up. In the sandbox it is the request's own origin, so the production build served on
 * another address (the end-to-end tests' port) still links to itself; `NEXT_PUBLIC_SERVER_URL` is baked in at
 * build time there.
 */
export function shopOrigin(headers: Headers): string {
  const configured = env.NEXT_PUBLIC_SERVER_URL.replace(/\/+$/, "");
  if (env.INTEGRATIONS === "live") return configured;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:]+\](:\d{1,5})?$/.test(host)) return configured;
  const protocol = headers.get("x-forwarded-proto") === "https" ? "https" : new URL(configured).protocol.replace(":", "");
  return `${protocol}://${host}`;
}

/** The live PayPal adapter, for verifying PayPal's webhooks; null in the sandbox, where PayPal never calls. */
export function getLivePayPal(): PayPalPayments | null {
  if (env.INTEGRATIONS !== "live") return null;
  return getPayments("paypal") as PayPalPayments;
}

/**
 * The webhook address to give a provider for a payment. Classic Mollie webhooks carry no signature, so the
 * shared secret travels in the address and is checked on arrival; the sandbox calls the same address the same
 * way. PayPal ignores it: its webhook is registered in PayPal's dashboard and verified by PayPal.
 */
export function paymentWebhookUrl(gateway: PaymentGateway, origin: string = env.NEXT_PUBLIC_SERVER_URL): string {
  const base = origin.replace(/\/+$/, "");
  if (gateway === "paypal" && env.INTEGRATIONS === "live") return `${base}/api/webhooks/paypal`;
  return `${base}/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`;
}

function createLiveMollie(): PaymentsPort {
  if (!env.MOLLIE_API_KEY) throw new Error("Live payments need MOLLIE_API_KEY");
  return createMolliePayments({ apiKey: env.MOLLIE_API_KEY });
}

/** PayPal's live account in production, its sandbox account (its own client id and secret) everywhere else. */
function createLivePayPal(): PayPalPayments {
  const production = env.ENVIRONMENT === "production";
  const clientId = production ? env.NEXT_PUBLIC_PAYPAL_CLIENT_ID : env.NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID;
  const clientSecret = production ? env.PAYPAL_CLIENT_SECRET : env.PAYPAL_SANDBOX_CLIENT_SECRET;
  if (!clientSecret) throw new Error(`Live PayPal payments need ${production ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_SANDBOX_CLIENT_SECRET"}`);
  return createPayPalPayments({ clientId, clientSecret, environment: production ? "live" : "sandbox", brandName: env.SHOP_NAME, webhookId: env.PAYPAL_WEBHOOK_ID });
}
