import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { createEbayMarketplace } from "./ebay";
import type { MarketplacePort } from "./port";
import { createSandboxMarketplace } from "./sandbox";
import { marketplaceSigningKeyStore } from "./signing-key-store";
import { marketplaceTokenStore } from "./token-store";

// One adapter per process: the live one keeps its access token between calls.
const globalForMarketplace = globalThis as unknown as { shopMarketplace?: MarketplacePort };

/** eBay with live integrations, the sandbox marketplace (whose buyer pages are on this shop) otherwise. */
export function getMarketplace(): MarketplacePort {
  globalForMarketplace.shopMarketplace ??= env.INTEGRATIONS === "live" ? createLiveEbay() : createSandboxMarketplace({ db: getDb(), shopUrl: shopUrl() });
  return globalForMarketplace.shopMarketplace;
}

function createLiveEbay(): MarketplacePort {
  const { EBAY_CLIENT_ID: clientId, EBAY_CLIENT_SECRET: clientSecret, EBAY_REFRESH_TOKEN: refreshToken } = env;
  if (!clientId || !clientSecret || !refreshToken) throw new Error("The live eBay marketplace needs EBAY_CLIENT_ID, EBAY_CLIENT_SECRET and EBAY_REFRESH_TOKEN");
  const { EBAY_FULFILLMENT_POLICY_ID: fulfillmentPolicyId, EBAY_PAYMENT_POLICY_ID: paymentPolicyId, EBAY_RETURN_POLICY_ID: returnPolicyId } = env;
  if (!fulfillmentPolicyId || !paymentPolicyId || !returnPolicyId || !env.EBAY_MERCHANT_LOCATION_KEY) {
    throw new Error("eBay offers need EBAY_FULFILLMENT_POLICY_ID, EBAY_PAYMENT_POLICY_ID, EBAY_RETURN_POLICY_ID and EBAY_MERCHANT_LOCATION_KEY");
  }
  const production = env.ENVIRONMENT === "production";
  return createEbayMarketplace({
    baseUrl: env.EBAY_API_URL ?? (production ? "https://api.ebay.com" : "https://api.sandbox.ebay.com"),
    clientId,
    clientSecret,
    refreshToken,
    policies: { fulfillmentPolicyId, paymentPolicyId, returnPolicyId },
    merchantLocationKey: env.EBAY_MERCHANT_LOCATION_KEY,
    notificationVerificationToken: env.EBAY_NOTIFICATION_VERIFICATION_TOKEN ?? null,
    tokenStore: marketplaceTokenStore(getDb()),
    signingKeyStore: marketplaceSigningKeyStore(getDb()),
  });
}
