import "server-only";
import { env } from "@/env";
import type { Carrier } from "@/lib/enums";
import { idSetting, plainSetting, secretSetting, type PortDescription } from "../port-status";
import { carrierNames, type CarrierPort } from "./port";
import { createPostNLCarrier } from "./postnl";
import { createSandboxCarrier } from "./sandbox";
import { createUpsCarrier } from "./ups";

// One adapter per process and carrier: the UPS adapter keeps its access token, the others are cheap anyway.
const globalForCarriers = globalThis as unknown as { shopCarriers?: Map<Carrier, CarrierPort> };

/** The adapter for a carrier: PostNL's or UPS's API with live integrations, the sandbox carrier otherwise. */
export function getCarrier(carrier: Carrier): CarrierPort {
  const cache = (globalForCarriers.shopCarriers ??= new Map());
  let port = cache.get(carrier);
  if (!port) {
    if (env.INTEGRATIONS !== "live") port = createSandboxCarrier(carrier);
    else port = carrier === "POSTNL" ? createLivePostNL() : createLiveUps();
    cache.set(carrier, port);
  }
  return port;
}

function createLivePostNL(): CarrierPort {
  const { POSTNL_API_KEY: apiKey, POSTNL_CUSTOMER_CODE: customerCode, POSTNL_CUSTOMER_NUMBER: customerNumber } = env;
  if (!apiKey || !customerCode || !customerNumber) throw new Error("Live PostNL labels need POSTNL_API_KEY, POSTNL_CUSTOMER_CODE and POSTNL_CUSTOMER_NUMBER");
  const { POSTNL_GLOBALPACK_BARCODE_TYPE: barcodeType, POSTNL_GLOBALPACK_CUSTOMER_CODE: globalPackCode } = env;
  const globalPack = barcodeType && globalPackCode ? { barcodeType, customerCode: globalPackCode } : undefined;
  return createPostNLCarrier({ apiKey, customerCode, customerNumber, baseUrl: env.POSTNL_API_URL, globalPack });
}

function createLiveUps(): CarrierPort {
  const { UPS_CLIENT_ID: clientId, UPS_CLIENT_SECRET: clientSecret, UPS_ACCOUNT_NUMBER: accountNumber } = env;
  if (!clientId || !clientSecret || !accountNumber) throw new Error("Live UPS labels need UPS_CLIENT_ID, UPS_CLIENT_SECRET and UPS_ACCOUNT_NUMBER");
  return createUpsCarrier({ clientId, clientSecret, accountNumber, baseUrl: env.UPS_API_URL });
}

/** How `getCarrier` sets up a carrier, for the owner's integrations page; nothing is called. */
export function describeCarrier(carrier: Carrier): PortDescription {
  if (env.INTEGRATIONS !== "live") return { mode: "sandbox", detail: `The sandbox carrier draws ${carrierNames[carrier]} labels itself`, endpoint: null, settings: [] };
  if (carrier === "POSTNL") {
    return {
      mode: "live",
      detail: "PostNL's Send & Track API",
      endpoint: env.POSTNL_API_URL,
      settings: [
        secretSetting("POSTNL_API_KEY", env.POSTNL_API_KEY),
        plainSetting("POSTNL_CUSTOMER_CODE", env.POSTNL_CUSTOMER_CODE),
        plainSetting("POSTNL_CUSTOMER_NUMBER", env.POSTNL_CUSTOMER_NUMBER),
        plainSetting("POSTNL_GLOBALPACK_CUSTOMER_CODE", env.POSTNL_GLOBALPACK_CUSTOMER_CODE),
      ],
    };
  }
  return {
    mode: "live",
    detail: "UPS's Shipping and Tracking APIs",
    endpoint: env.UPS_API_URL,
    settings: [idSetting("UPS_CLIENT_ID", env.UPS_CLIENT_ID), secretSetting("UPS_CLIENT_SECRET", env.UPS_CLIENT_SECRET), plainSetting("UPS_ACCOUNT_NUMBER", env.UPS_ACCOUNT_NUMBER)],
  };
}
