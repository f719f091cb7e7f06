import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { createMolliePayments } from "./mollie";
import { createPayPalPayments, type PayPalPayments } from "./paypal";
import { idSetting, secretSetting, type PortDescription } from "../port-status";
import type { PaymentGateway, PaymentsPort } from "./port";
import { createSandboxPayments } from "./sandbox";

// One adapter per process and gateway: the PayPal adapter keeps its access token, the others are cheap anyway.
const globalForPayments = globalThis as unknown as { shopPayments?: Map<string, PaymentsPort> };

/**
 * The adapter that takes payments for a gateway: Mollie or PayPal with live integrations, the sandbox (which
 * stands in for both) otherwise. The sandbox's hosted page is on this shop, at its configured address.
 */
export function getPayments(gateway: PaymentGateway): PaymentsPort {
  const cache = (globalForPayments.shopPayments ??= new Map());
  const key = env.INTEGRATIONS === "live" ? gateway : "sandbox";
  let payments = cache.get(key);
  if (!payments) {
    if (env.INTEGRATIONS !== "live") payments = createSandboxPayments({ db: getDb(), baseUrl: shopUrl() });
    else payments = gateway === "mollie" ? createLiveMollie() : createLivePayPal();
    cache.set(key, payments);
  }
  return payments;
}

/** The live PayPal adapter, for verifying PayPal's webhooks; null in the sandbox, where PayPal never calls. */
export function getLivePayPal(): PayPalPayments | null {
  if (env.INTEGRATIONS !== "live") return null;
  return getPayments("paypal") as PayPalPayments;
}

/**
 * The webhook address to give a provider for a payment, always on the shop's configured address: the secret in it
 * must never go to a host a request named (SECURITY-REVIEW M1). Classic Mollie webhooks carry no signature, so the
 * shared secret travels in the address and is checked on arrival; the sandbox calls the same address the same
 * way. PayPal ignores it: its webhook is registered in PayPal's dashboard and verified by PayPal.
 */
export function paymentWebhookUrl(gateway: PaymentGateway): string {
  const base = shopUrl();
  if (gateway === "paypal" && env.INTEGRATIONS === "live") return `${base}/api/webhooks/paypal`;
  return `${base}/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`;
}

function createLiveMollie(): PaymentsPort {
  if (!env.MOLLIE_API_KEY) throw new Error("Live payments need MOLLIE_API_KEY");
  return createMolliePayments({ apiKey: env.MOLLIE_API_KEY, baseUrl: env.MOLLIE_API_URL });
}

/** PayPal's live account in production, its sandbox account (its own client id and secret) everywhere else. */
function createLivePayPal(): PayPalPayments {
  const production = env.ENVIRONMENT === "production";
  const clientId = production ? env.NEXT_PUBLIC_PAYPAL_CLIENT_ID : env.NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID;
  const clientSecret = production ? env.PAYPAL_CLIENT_SECRET : env.PAYPAL_SANDBOX_CLIENT_SECRET;
  if (!clientSecret) throw new Error(`Live PayPal payments need ${production ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_SANDBOX_CLIENT_SECRET"}`);
  return createPayPalPayments({ clientId, clientSecret, environment: production ? "live" : "sandbox", brandName: env.SHOP_NAME, webhookId: env.PAYPAL_WEBHOOK_ID, baseUrl: env.PAYPAL_API_URL });
}

/** How `getPayments` sets up a gateway, for the owner's integrations page; nothing is called. */
export function describePayments(gateway: PaymentGateway): PortDescription {
  if (env.INTEGRATIONS !== "live") return { mode: "sandbox", detail: "The shop's own payment page stands in for Mollie and PayPal", endpoint: null, settings: [] };
  if (gateway === "mollie") {
    const key = env.MOLLIE_API_KEY;
    const detail = !key ? "Mollie: no key" : key.startsWith("live_") ? "Mollie with a live key: real payments" : "Mollie with a test key: Mollie's test mode";
    return { mode: "live", detail, endpoint: env.MOLLIE_API_URL, settings: [secretSetting("MOLLIE_API_KEY", key)] };
  }
  const production = env.ENVIRONMENT === "production";
  return {
    mode: "live",
    detail: production ? "PayPal's live account: real payments" : "PayPal's sandbox account (outside production)",
    endpoint: env.PAYPAL_API_URL ?? (production ? "https://api-m.paypal.com" : "https://api-m.sandbox.paypal.com"),
    settings: production
      ? [idSetting("NEXT_PUBLIC_PAYPAL_CLIENT_ID", env.NEXT_PUBLIC_PAYPAL_CLIENT_ID), secretSetting("PAYPAL_CLIENT_SECRET", env.PAYPAL_CLIENT_SECRET), idSetting("PAYPAL_WEBHOOK_ID", env.PAYPAL_WEBHOOK_ID)]
      : [
          idSetting("NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID", env.NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID),
          secretSetting("PAYPAL_SANDBOX_CLIENT_SECRET", env.PAYPAL_SANDBOX_CLIENT_SECRET),
          idSetting("PAYPAL_WEBHOOK_ID", env.PAYPAL_WEBHOOK_ID),
        ],
  };
}
