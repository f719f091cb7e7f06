import { z } from "zod";
import type { PortDescription, PortSetting } from "@/server/integrations/port-status";

export type { PortMode, PortSetting } from "@/server/integrations/port-status";

/** Every outside service on the owner's integrations page (/admin/settings/integrations), in the page's order. */
export const integrationPorts = ["mollie", "paypal", "postnl", "ups", "ebay", "mail", "storage", "private-storage", "exchange-rate", "geo", "google-sign-in"] as const;
export type IntegrationPort = (typeof integrationPorts)[number];

export const testConnectionInput = z.object({ port: z.enum(integrationPorts) });

/** One port as its chooser set it up: mode, the provider's address, and its settings (never a secret's value). */
export type IntegrationRow = PortDescription & { port: IntegrationPort; name: string; group: string };

/** An address to give a provider for its callbacks, always on the shop's configured address. */
export type WebhookAddress = {
  provider: string;
  url: string;
  /** What to do with it at the provider, in words. */
  how: string;
  /** A setting the provider's side needs with it (PayPal's webhook id, eBay's verification token), as set or missing. */
  setting: PortSetting | null;
};

/** "ok", "soon" within 30 days of the end, "expired", or "unknown" when the shop has not been told. */
export type ExpiryState = "ok" | "soon" | "expired" | "unknown";

export type EbayTokens = {
  /** The marketplace's mode: the sandbox needs no tokens, so only the signing key's row says anything then. */
  mode: "sandbox" | "live" | "off";
  /** Until when the access token in the token store holds (renewed from the refresh token as needed); null: none yet. */
  accessTokenExpiresAt: Date | null;
  accessToken: ExpiryState;
  /** When the seller's 18 months of consent end (EBAY_REFRESH_TOKEN_EXPIRES_AT). */
  refreshTokenExpiresAt: Date | null;
  refreshToken: ExpiryState;
  refreshTokenDaysLeft: number | null;
  /** The Key Management API's signing key for eBay's digital signatures. */
  signingKey: { state: "ready" | "not set up"; detail: string };
};

export type IntegrationsOverview = {
  /** The shop's configured address (AUTH_URL), which every webhook address is built on. */
  shopUrl: string;
  integrations: "sandbox" | "live";
  rows: IntegrationRow[];
  webhooks: WebhookAddress[];
  ebay: EbayTokens;
};

/** The answer to one Test connection. */
export type ConnectionTest = {
  port: IntegrationPort;
  outcome: "ok" | "error" | "timeout";
  /** How long the call took, or how long was waited before giving up. */
  ms: number;
  /** What the provider said (an error's message), without any secret the shop holds. */
  message: string;
  testedAt: Date;
};
