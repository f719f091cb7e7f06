import "server-only";
import { env } from "@/env";
import type { Carrier } from "@/lib/enums";
import type { CarrierPort } from "./port";
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
