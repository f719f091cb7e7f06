import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logbook, rateLimit } from "@/server/db/schema";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { postnlCredentials, startPostNLStandIn, startUpsStandIn, upsCredentials } from "../../../tests/helpers/carrier-stand-ins";
import { ebayCredentials, startEbayStandIn } from "../../../tests/helpers/ebay-stand-in";
import { mollieTestKey, payPalCredentials, startMollieStandIn, startPayPalStandIn, startProviderServer } from "../../../tests/helpers/provider-server";
import { resendApiKey, startResendStandIn } from "../../../tests/helpers/resend-stand-in";
import { standInForFile } from "../../../tests/helpers/stand-in";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { integrationPorts } from "./integrations-schemas";

/**
 * Issue 30, acceptance 4: the integrations page with live settings, each live adapter pointed at the local stand-in
 * of its provider (the same servers the adapters' own tests run). Known secrets go in; none may come out in what the
 * procedures answer, whatever the providers said.
 */

const t = databaseForFile();
const mollie = standInForFile(startMollieStandIn);
const paypal = standInForFile(startPayPalStandIn);
const postnl = standInForFile(startPostNLStandIn);
const ups = standInForFile(startUpsStandIn);
const ebay = standInForFile(startEbayStandIn);
const resend = standInForFile(startResendStandIn);

const shopAddress = "https://shop.example";
const notificationToken = "ebay-verification-token-0123456789abcdef-XYZ";
const secrets = {
  AUTH_SECRET: "auth-secret-for-the-live-page-test-0123456789",
  TOKEN_SECRET: "token-secret-for-the-live-page-test-0123456789",
  WEBHOOK_SECRET: "webhook-secret-for-the-live-page-test-01234567",
  MOLLIE_API_KEY: mollieTestKey,
  PAYPAL_SANDBOX_CLIENT_SECRET: payPalCredentials.clientSecret,
  POSTNL_API_KEY: postnlCredentials.apiKey,
  UPS_CLIENT_SECRET: upsCredentials.clientSecret,
  EBAY_CLIENT_SECRET: ebayCredentials.clientSecret,
  EBAY_REFRESH_TOKEN: ebayCredentials.refreshToken,
  EBAY_NOTIFICATION_VERIFICATION_TOKEN: notificationToken,
  RESEND_API_KEY: resendApiKey,
  GOOGLE_CLIENT_SECRET: "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ts",
  GOOGLE_MAPS_API_KEY: "AIzaSy-maps-key-for-the-live-page-test",
};
const refreshTokenEnds = new Date(Date.now() + 20 * 86_400_000);

/** The shop as a live deployment runs it, every provider's address at its stand-in; `overrides` changes some. */
function liveSettings(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...secrets,
    INTEGRATIONS: "live",
    ENVIRONMENT: "staging",
    AUTH_URL: shopAddress,
    MOLLIE_API_URL: `${mollie.url}/v2`,
    PAYPAL_API_URL: paypal.url,
    NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: payPalCredentials.clientId,
    PAYPAL_WEBHOOK_ID: "WH-4Y123456AB0987654",
    POSTNL_API_URL: postnl.url,
    POSTNL_CUSTOMER_CODE: postnlCredentials.customerCode,
    POSTNL_CUSTOMER_NUMBER: postnlCredentials.customerNumber,
    UPS_API_URL: ups.url,
    UPS_CLIENT_ID: upsCredentials.clientId,
    UPS_ACCOUNT_NUMBER: upsCredentials.accountNumber,
    EBAY_API_URL: ebay.url,
    EBAY_CLIENT_ID: ebayCredentials.clientId,
    EBAY_REFRESH_TOKEN_EXPIRES_AT: refreshTokenEnds.toISOString(),
    EBAY_FULFILLMENT_POLICY_ID: "6196932000",
    EBAY_PAYMENT_POLICY_ID: "6196933000",
    EBAY_RETURN_POLICY_ID: "6196934000",
    EBAY_MERCHANT_LOCATION_KEY: "amsterdam-shop",
    MAIL_SERVICE: "resend",
    RESEND_API_URL: resend.url,
    MAIL_FROM: "Balance & Crown <shop@shop.example>",
    GOOGLE_CLIENT_ID: "1234567890-abcdefghij.apps.googleusercontent.com",
    ...overrides,
  };
}

/** The page's procedures and service with `settings` as the process's configuration, the adapters made afresh. */
async function loadWith(settings: Record<string, string>) {
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries(settings)) vi.stubEnv(name, value);
  const global = globalThis as Record<string, unknown>;
  for (const cache of ["shopPayments", "shopCarriers", "shopMarketplace", "shopStorage", "shopPrivateStorage", "shopGcsClient"]) delete global[cache];
  vi.resetModules();
  const service = await import("./integrations-service");
  const { createCaller } = await import("@/server/root");
  return { service, caller: createCaller(contextFor(t.db, staff)) };
}

let staff: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  (globalThis as { shopDatabase?: unknown }).shopDatabase = t.database;
  staff = await makeUser(t.db, "ADMIN", "Owner");
});

beforeEach(async () => {
  await t.db.delete(rateLimit);
});

afterAll(() => {
  vi.unstubAllEnvs();
  delete (globalThis as { shopDatabase?: unknown }).shopDatabase;
});

const secretValues = Object.values(secrets);
const expectNoSecret = (answer: unknown) => {
  const json = JSON.stringify(answer);
  for (const secret of secretValues) expect(json, `the answer shows ${secret}`).not.toContain(secret);
};

describe("the integrations page with live settings against the stand-ins", () => {
  it("shows each port live with its provider's address, settings only as set, ids by their last four characters, and no secret", async () => {
    const { caller } = await loadWith(liveSettings());
    const overview = await caller.admin.integrations.get();
    expectNoSecret(overview);
    const row = (port: string) => overview.rows.find((candidate) => candidate.port === port)!;
    expect(overview.integrations).toBe("live");
    expect(row("mollie")).toMatchObject({ mode: "live", detail: "Mollie with a test key: Mollie's test mode", endpoint: `${mollie.url}/v2`, settings: [{ name: "MOLLIE_API_KEY", state: "set", shown: null }] });
    expect(row("paypal")).toMatchObject({ mode: "live", detail: "PayPal's sandbox account (outside production)", endpoint: paypal.url });
    expect(row("paypal").settings).toEqual([
      { name: "NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID", state: "set", shown: `…${payPalCredentials.clientId.slice(-4)}` },
      { name: "PAYPAL_SANDBOX_CLIENT_SECRET", state: "set", shown: null },
      { name: "PAYPAL_WEBHOOK_ID", state: "set", shown: "…7654" },
    ]);
    expect(row("postnl").settings).toContainEqual({ name: "POSTNL_CUSTOMER_NUMBER", state: "set", shown: postnlCredentials.customerNumber });
    expect(row("postnl").settings).toContainEqual({ name: "POSTNL_GLOBALPACK_CUSTOMER_CODE", state: "missing", shown: null });
    expect(row("ups").settings).toContainEqual({ name: "UPS_ACCOUNT_NUMBER", state: "set", shown: upsCredentials.accountNumber });
    expect(row("ebay")).toMatchObject({ mode: "live", detail: "eBay's API at EBAY_API_URL, site EBAY_NL", endpoint: ebay.url });
    expect(row("mail")).toMatchObject({ mode: "live", detail: "Resend's API", endpoint: resend.url });
    expect(row("storage")).toMatchObject({ mode: "live", settings: [{ name: "GCS_BUCKET", state: "missing" }, { name: "GCS_SA_KEY", state: "missing" }] });
    expect(row("exchange-rate")).toMatchObject({ mode: "live", settings: [] });
    expect(row("geo")).toMatchObject({ mode: "live", settings: [{ name: "GOOGLE_MAPS_API_KEY", state: "set", shown: null }] });
    expect(row("google-sign-in")).toMatchObject({ mode: "live", settings: [{ name: "GOOGLE_CLIENT_ID", state: "set", shown: "….com" }, { name: "GOOGLE_CLIENT_SECRET", state: "set", shown: null }] });

    expect(overview.webhooks).toEqual([
      expect.objectContaining({ provider: "Mollie", url: `${shopAddress}/api/webhooks/mollie`, setting: null }),
      expect.objectContaining({ provider: "PayPal", url: `${shopAddress}/api/webhooks/paypal`, setting: { name: "PAYPAL_WEBHOOK_ID", state: "set", shown: "…7654" } }),
      expect.objectContaining({ provider: "eBay", url: `${shopAddress}/api/webhooks/ebay`, setting: { name: "EBAY_NOTIFICATION_VERIFICATION_TOKEN", state: "set", shown: null } }),
    ]);
    expect(overview.ebay).toMatchObject({ mode: "live", refreshToken: "soon", refreshTokenDaysLeft: 19, signingKey: { state: "not set up" } });
    expect(overview.ebay.refreshTokenExpiresAt?.toISOString()).toBe(refreshTokenEnds.toISOString());
  });

  it("tests each provider with one harmless authenticated call and shows its answer", async () => {
    const { caller } = await loadWith(liveSettings());
    const test = (port: (typeof integrationPorts)[number]) => caller.admin.integrations.testConnection({ port });
    expect(await test("mollie")).toMatchObject({ outcome: "ok", message: "Mollie accepted the test key: 3 payment methods enabled" });
    expect(mollie.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["GET /v2/methods"]);
    expect(await test("paypal")).toMatchObject({ outcome: "ok", message: "PayPal (sandbox) issued an access token" });
    expect(await test("postnl")).toMatchObject({ outcome: "ok", message: "PostNL accepted the API key" });
    expect(postnl.requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /shipment/v2/status/barcode/3S${postnlCredentials.customerCode}000000000`]);
    await t.db.delete(rateLimit);
    expect(await test("ups")).toMatchObject({ outcome: "ok", message: "UPS issued an access token" });
    expect(await test("ebay")).toMatchObject({ outcome: "ok", message: "eBay accepted the shop's token; monthly selling limit 25000.0 EUR, 500 items" });
    expect(ebay.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /identity/v1/oauth2/token", "GET /sell/account/v1/privilege"]);
    expect(await test("mail")).toMatchObject({ outcome: "ok", message: "Resend accepted the key (sending access only)" });
    expect(resend.sent).toEqual([]);
    await t.db.delete(rateLimit);
    expect(await test("storage")).toMatchObject({ outcome: "error", message: "Live storage needs GCS_SA_KEY" });
    // The renewed access token is in the token store now, and the page reads its expiry from there.
    expect((await caller.admin.integrations.get()).ebay).toMatchObject({ accessToken: "ok", accessTokenExpiresAt: expect.any(Date) });
  });

  it("shows the provider's refusal of a wrong key, without the key, and logs it as a warning", async () => {
    const wrongKey = "test_wrongMollieKeyForTheLivePageTest";
    const { caller } = await loadWith(liveSettings({ MOLLIE_API_KEY: wrongKey, EBAY_REFRESH_TOKEN: "v^1.1#i^1#r^1#not-the-sellers-refresh-token" }));
    const refused = await caller.admin.integrations.testConnection({ port: "mollie" });
    expect(refused).toMatchObject({ outcome: "error", message: "Mollie refused the request: Unauthorized Request: Missing authentication, or failed to authenticate" });
    const ebayRefused = await caller.admin.integrations.testConnection({ port: "ebay" });
    expect(ebayRefused).toMatchObject({ outcome: "error", message: expect.stringContaining("eBay refused the shop's credentials (invalid_grant") });
    expect(JSON.stringify([refused, ebayRefused])).not.toContain(wrongKey);
    const warnings = await t.db
      .select()
      .from(logbook)
      .where(and(eq(logbook.userId, staff.id), eq(logbook.logLevel, "WARNING")));
    expect(warnings.map((entry) => entry.description)).toContain(
      "Tested the connection to Mollie: failed (Mollie refused the request: Unauthorized Request: Missing authentication, or failed to authenticate)",
    );
  });

  it("blanks out a secret that a provider echoes in its error", async () => {
    const echoing = await startProviderServer((request) => ({ status: 400, body: { Errors: [{ Code: "0", Description: `Unknown apikey ${String(request.headers.apikey)}` }] } }));
    try {
      const { caller } = await loadWith(liveSettings({ POSTNL_API_URL: echoing.url }));
      const result = await caller.admin.integrations.testConnection({ port: "postnl" });
      expect(result).toMatchObject({ outcome: "error", message: "PostNL refused the request: 0: Unknown apikey •••" });
      expectNoSecret(result);
    } finally {
      await echoing.close();
    }
  });

  it("gives up on a provider that does not answer, says so, and logs it", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const silent = http.createServer(() => {});
    silent.on("connection", (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { service } = await loadWith(liveSettings({ UPS_API_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` }));
      const result = await service.testConnection(t.db, staff.id, "ups", { timeoutMs: 400 });
      expect(result).toMatchObject({ port: "ups", outcome: "timeout", message: "No answer within 0.4 s" });
      expect(result.ms).toBeGreaterThanOrEqual(390);
      const entries = await t.db.select().from(logbook).where(eq(logbook.userId, staff.id));
      expect(entries.map((entry) => entry.description)).toContain("Tested the connection to UPS: timed out (No answer within 0.4 s)");
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("answers every port's test without a secret, whatever the outcome", async () => {
    const { service } = await loadWith(liveSettings());
    for (const port of integrationPorts) {
      await t.db.delete(rateLimit);
      // The ECB, Google's geocoding and Google's token endpoint are not reachable from a test: an error or a timeout.
      const result = await service.testConnection(t.db, staff.id, port, { timeoutMs: 1_500 });
      expectNoSecret(result);
    }
  });
});
