import "server-only";
import type { Db } from "@/server/db/client";
import { describeCarrier, getCarrier } from "@/server/integrations/carriers/carriers";
import { describeExchangeRate } from "@/server/integrations/exchange-rate/exchange-rate";
import { describeGeo, getGeo } from "@/server/integrations/geo/geo";
import { describeGoogleSignIn, googleSignInProbe } from "@/server/integrations/identity/identity";
import { describeMail, getMail } from "@/server/integrations/mail/mail";
import { describeMarketplace, getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { describePayments, getPayments } from "@/server/integrations/payments/payments";
import type { PortDescription } from "@/server/integrations/port-status";
import { describeStorage, getPrivateStorage, getStorage } from "@/server/integrations/storage/storage";
import { exchangeRatePort } from "@/server/stock/exchange-rate";
import type { IntegrationPort } from "./integrations-schemas";

/**
 * Each outside service as the integrations page lists it: its name and group, how its chooser describes it, and
 * its Test connection. The adapter is asked for at test time, so a live port missing a key answers with its
 * chooser's "needs ..." error rather than breaking the page.
 */
export type IntegrationPortEntry = {
  name: string;
  group: string;
  describe: () => PortDescription;
  probe: (db: Db) => Promise<string>;
};

export const integrationPortEntries: Record<IntegrationPort, IntegrationPortEntry> = {
  mollie: { name: "Mollie", group: "Payments", describe: () => describePayments("mollie"), probe: () => getPayments("mollie").probe() },
  paypal: { name: "PayPal", group: "Payments", describe: () => describePayments("paypal"), probe: () => getPayments("paypal").probe() },
  postnl: { name: "PostNL", group: "Carriers", describe: () => describeCarrier("POSTNL"), probe: () => getCarrier("POSTNL").probe() },
  ups: { name: "UPS", group: "Carriers", describe: () => describeCarrier("UPS"), probe: () => getCarrier("UPS").probe() },
  ebay: { name: "eBay", group: "Marketplace", describe: describeMarketplace, probe: () => getMarketplace().probe() },
  mail: { name: "E-mail", group: "Mail", describe: describeMail, probe: (db) => getMail(db).probe() },
  storage: { name: "Public storage", group: "Storage", describe: () => describeStorage("public"), probe: () => getStorage().probe() },
  "private-storage": { name: "Private storage", group: "Storage", describe: () => describeStorage("private"), probe: () => getPrivateStorage().probe() },
  "exchange-rate": { name: "Exchange rate", group: "Exchange rate", describe: describeExchangeRate, probe: (db) => exchangeRatePort(db).probe() },
  geo: { name: "Country from position", group: "Geo", describe: describeGeo, probe: () => getGeo().probe() },
  "google-sign-in": { name: "Google sign-in", group: "Identity", describe: describeGoogleSignIn, probe: () => googleSignInProbe()() },
};
