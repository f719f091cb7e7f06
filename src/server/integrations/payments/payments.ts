import "server-only";
import { env } from "@/env";
import { getDb } from "@/server/db/client";
import { createMolliePayments } from "./mollie";
import { createPayPalPayments, type PayPalPayments } from "./paypal";
import type { PaymentGateway, PaymentsPort } from "./port";
import { createSandboxPayments } from "./sandbox";

// One adapter per process and gateway: the PayPal adapter keeps its access token, the others are cheap anyway.
const globalForPayments = globalThis as unknown as { shopPayments?: Partial<Record<PaymentGateway | "sandbox", PaymentsPort>> };

/**
 * The adapter that takes payments for a gateway: Mollie or PayPal with live integrations, the sandbox (which
 * stands in for both) otherwise.
 */
export function getPayments(gateway: PaymentGateway): PaymentsPort {
  const cache = (globalForPayments.shopPayments ??= {});
  if (env.INTEGRATIONS !== "live") {
    return (cache.sandbox ??= createSandboxPayments({ db: getDb(), baseUrl: env.NEXT_PUBLIC_SERVER_URL }));
  }
  if (gateway === "mollie") return (cache.mollie ??= createLiveMollie());
  return (cache.paypal ??= createLivePayPal());
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
export function paymentWebhookUrl(gateway: PaymentGateway): string {
  const base = env.NEXT_PUBLIC_SERVER_URL.replace(/\/+$/, "");
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
  return createPayPalPayments({ clientId, clientSecret, environment: production ? "live" : "sandbox", brandName: env.SHOP_NAME });
}
