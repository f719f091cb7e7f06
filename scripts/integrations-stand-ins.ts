/**
 * The providers' local stand-ins (the servers the live adapters' integration tests run, in the providers' documented
 * shapes) started together, for running the whole shop with live integrations on a machine without the providers:
 *
 *   npx tsx --conditions react-server scripts/integrations-stand-ins.ts > .data/stand-ins.env &
 *   set -a; . .data/stand-ins.env; set +a; npm start
 *
 * It prints the settings that point each live adapter at its stand-in (Mollie, PayPal, PostNL, UPS, eBay, Resend),
 * with the credentials each stand-in accepts, as shell assignments, and runs until it is stopped. Storage, the ECB
 * feed, Google geocoding and Google sign-in have no stand-in the shop can be pointed at by configuration: on
 * /admin/settings/integrations they show what they lack, and their Test connection fails as it would offline.
 */
// The stand-ins share helpers with the shop's code, which reads configuration: the embedded defaults fill it in first.
import "../src/server/config/apply-embedded-defaults";
import { postnlCredentials, startPostNLStandIn, startUpsStandIn, upsCredentials } from "../tests/helpers/carrier-stand-ins";
import { ebayCredentials, startEbayStandIn } from "../tests/helpers/ebay-stand-in";
import { mollieTestKey, payPalCredentials, startMollieStandIn, startPayPalStandIn } from "../tests/helpers/provider-server";
import { resendApiKey, startResendStandIn } from "../tests/helpers/resend-stand-in";

const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

async function main() {
  const [mollie, paypal, postnl, ups, ebay, resend] = await Promise.all([
    startMollieStandIn(),
    startPayPalStandIn(),
    startPostNLStandIn(),
    startUpsStandIn(),
    startEbayStandIn(),
    startResendStandIn(),
  ]);
  const settings: Record<string, string> = {
    INTEGRATIONS: "live",
    MOLLIE_API_URL: `${mollie.url}/v2`,
    MOLLIE_API_KEY: mollieTestKey,
    PAYPAL_API_URL: paypal.url,
    // Outside production the shop uses PayPal's sandbox account; the live id is required all the same.
    NEXT_PUBLIC_PAYPAL_CLIENT_ID: payPalCredentials.clientId,
    NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: payPalCredentials.clientId,
    PAYPAL_SANDBOX_CLIENT_SECRET: payPalCredentials.clientSecret,
    POSTNL_API_URL: postnl.url,
    POSTNL_API_KEY: postnlCredentials.apiKey,
    POSTNL_CUSTOMER_CODE: postnlCredentials.customerCode,
    POSTNL_CUSTOMER_NUMBER: postnlCredentials.customerNumber,
    UPS_API_URL: ups.url,
    UPS_CLIENT_ID: upsCredentials.clientId,
    UPS_CLIENT_SECRET: upsCredentials.clientSecret,
    UPS_ACCOUNT_NUMBER: upsCredentials.accountNumber,
    EBAY_API_URL: ebay.url,
    EBAY_CLIENT_ID: ebayCredentials.clientId,
    EBAY_CLIENT_SECRET: ebayCredentials.clientSecret,
    EBAY_REFRESH_TOKEN: ebayCredentials.refreshToken,
    EBAY_FULFILLMENT_POLICY_ID: "6196932000",
    EBAY_PAYMENT_POLICY_ID: "6196933000",
    EBAY_RETURN_POLICY_ID: "6196934000",
    EBAY_MERCHANT_LOCATION_KEY: "stand-in-warehouse",
    MAIL_SERVICE: "resend",
    RESEND_API_URL: resend.url,
    RESEND_API_KEY: resendApiKey,
  };
  for (const [name, value] of Object.entries(settings)) process.stdout.write(`${name}=${quoted(value)}\n`);
  process.stderr.write("The stand-ins are listening; stop with Ctrl-C.\n");
  const stop = async () => {
    await Promise.all([mollie, paypal, postnl, ups, ebay, resend].map((server) => server.close().catch(() => {})));
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
