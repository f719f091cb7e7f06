import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { createEbayMarketplace } from "./ebay";
import { idSetting, plainSetting, secretSetting, type PortDescription } from "../port-status";
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
  return createEbayMarketplace({
    baseUrl: ebayApiUrl(),
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

/** eBay's production API in production, its sandbox elsewhere, unless EBAY_API_URL says otherwise. */
function ebayApiUrl(): string {
  return env.EBAY_API_URL ?? (env.ENVIRONMENT === "production" ? "https://api.ebay.com" : "https://api.sandbox.ebay.com");
}

/** How `getMarketplace` is set up, for the owner's integrations page; nothing is called. */
export function describeMarketplace(): PortDescription {
  if (env.INTEGRATIONS !== "live") return { mode: "sandbox", detail: "The sandbox marketplace, with its buyer pages at /sandbox/ebay", endpoint: null, settings: [] };
  const host = ebayApiUrl().replace(/\/+$/, "");
  const which = host === "https://api.ebay.com" ? "eBay's production API" : host === "https://api.sandbox.ebay.com" ? "eBay's sandbox" : "eBay's API at EBAY_API_URL";
  return {
    mode: "live",
    detail: `${which}, site ${env.EBAY_MARKETPLACE_ID}`,
    endpoint: host,
    settings: [
      idSetting("EBAY_CLIENT_ID", env.EBAY_CLIENT_ID),
      secretSetting("EBAY_CLIENT_SECRET", env.EBAY_CLIENT_SECRET),
      secretSetting("EBAY_REFRESH_TOKEN", env.EBAY_REFRESH_TOKEN),
      idSetting("EBAY_FULFILLMENT_POLICY_ID", env.EBAY_FULFILLMENT_POLICY_ID),
      idSetting("EBAY_PAYMENT_POLICY_ID", env.EBAY_PAYMENT_POLICY_ID),
      idSetting("EBAY_RETURN_POLICY_ID", env.EBAY_RETURN_POLICY_ID),
      plainSetting("EBAY_MERCHANT_LOCATION_KEY", env.EBAY_MERCHANT_LOCATION_KEY),
    ],
  };
}
