import { createEnv } from "@t3-oss/env-nextjs";
import { z } from "zod";
import { environmentNames, marketplaceIds } from "./lib/enums";

/**
 * Validated configuration (SPEC section 5). Read configuration only through this module.
 *
 * With INTEGRATIONS=sandbox (the default) the live integrations' values are optional and sandboxes stand in for
 * them. Production refuses the sandboxes: they publish sign-in links and let a buyer choose "paid". With
 * INTEGRATIONS=live the shop's public address (AUTH_URL) and the chosen mail service's credential (SMTP_URL or
 * RESEND_API_KEY, after MAIL_SERVICE) are always required, and in production every secret a live integration needs.
 */

const optional = z.string().min(1).optional();

/** A Cloud Storage bucket's name as Google allows it: lower-case letters, digits, dots, dashes and underscores. */
const bucketName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, "must be a bucket name (lower-case letters, digits, '.', '-', '_'), not a URL")
  .optional();

/** The values each live integration cannot do without. */
export const liveIntegrationSecrets = [
  "SMTP_URL",
  "MAIL_FROM",
  "RESEND_API_KEY",
  "MOLLIE_API_KEY",
  "PAYPAL_CLIENT_SECRET",
  "PAYPAL_SANDBOX_CLIENT_SECRET",
  "PAYPAL_WEBHOOK_ID",
  "POSTNL_API_KEY",
  "POSTNL_CUSTOMER_CODE",
  "POSTNL_CUSTOMER_NUMBER",
  "UPS_CLIENT_ID",
  "UPS_CLIENT_SECRET",
  "UPS_ACCOUNT_NUMBER",
  "EBAY_CLIENT_ID",
  "EBAY_CLIENT_SECRET",
  "EBAY_REFRESH_TOKEN",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "GOOGLE_MAPS_API_KEY",
  "GCS_BUCKET",
  "GCS_PRIVATE_BUCKET",
  "GCS_SA_KEY",
  "EXCHANGE_RATE_API_KEY",
  "DATABASE_URL",
] as const;

export const env = createEnv({
  server: {
    ENVIRONMENT: z.enum(environmentNames),
    INTEGRATIONS: z.enum(["sandbox", "live"]).default("sandbox"),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /**
     * How long a request waits for a PostgreSQL connection, and for one statement, before it gives up with an error
     * (RELIABILITY-REVIEW D3): a stalled database then fails requests in bounded time instead of holding every one,
     * health checks included. Command-line tools (seed, backup, the benches) run without the statement limit.
     */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(5_000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
    DATA_DIR: z.string().min(1).default(".data"),
    /** Redis, for Next's cache shared by several instances (src/server/cache/next-cache-handler.mjs); unset: each instance keeps its own in memory. */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /**
     * The most entries one build of the shop keeps in Redis for one database; past it the oldest go first
     * (SECURITY-REVIEW N-M2). Read by the cache handler itself, which runs outside Next's bundles.
     */
    REDIS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(100).max(10_000_000).default(10_000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SHOP_NAME: z.string().min(1).default("Balance & Crown"),
    /** 1: a starting server fills an empty database with the demo shop even with live integrations (never in production). */
    SEED_DEMO: z.enum(["0", "1"]).optional(),
    /**
     * The shop's public address, read at run time, for every link it hands out (see shopUrl()). Unset, it is the
     * address the front door listens on, http://localhost:PORT.
     */
    AUTH_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** The port the front door listens on (scripts/serve.mjs sets it at start). */
    PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
    /**
     * How many proxies in front of the shop append to X-Forwarded-For (nginx with $proxy_add_x_forwarded_for: 1).
     * 0 (the default) means clients connect directly and their socket address is used. Read by scripts/serve.mjs.
     */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
    TOKEN_SECRET: z.string().min(32, "must be at least 32 characters"),
    WEBHOOK_SECRET: z.string().min(32, "must be at least 32 characters"),
    /**
     * How long an unpaid order holds its pieces before it expires and they go back on sale, for the methods paid on
     * the provider's page at once (cards, wallets, iDEAL, Bancontact...): about the life of that page (Mollie's card
     * session is 15 to 30 minutes). A bank transfer is held as long as the provider keeps it open (`paymentOpenUntil`).
     */
    UNPAID_HOLD_MINUTES: z.coerce.number().int().min(5).max(24 * 60).default(30),
    /** The same for PayPal: PayPal lets a buyer approve an order for about 3 hours after it was created. */
    UNPAID_HOLD_MINUTES_PAYPAL: z.coerce.number().int().min(5).max(24 * 60).default(180),
    /**
     * What the unpaid web orders of one buyer (client address, visitor, e-mail address or customer account) may hold
     * together: pieces, and list value in whole euros (SECURITY-REVIEW N-H2).
     */
    UNPAID_HOLD_MAX_PIECES: z.coerce.number().int().min(1).max(10_000).default(20),
    UNPAID_HOLD_MAX_VALUE: z.coerce.number().int().min(1).max(1_000_000_000).default(10_000),
    /** The most pieces of one product a web order may take: what a person buys at once (most pieces are unique). */
    ORDER_LINE_MAX_PIECES: z.coerce.number().int().min(1).max(999).default(10),
    /** Which service sends the shop's mail: a mail server (SMTP_URL) or Resend's API (RESEND_API_KEY). */
    MAIL_SERVICE: z.enum(["smtp", "resend"]).default("smtp"),
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    MAIL_FROM: optional,
    RESEND_API_KEY: optional,
    /** Where Resend's API is: its production host unless a test points it at a local stand-in. */
    RESEND_API_URL: z.url().default("https://api.resend.com"),
    MOLLIE_API_KEY: optional,
    /** Where Mollie's API is (with its version): its production host unless a test points it at a local stand-in. */
    MOLLIE_API_URL: z.url().default("https://api.mollie.com/v2"),
    PAYPAL_CLIENT_SECRET: optional,
    PAYPAL_SANDBOX_CLIENT_SECRET: optional,
    /** The id PayPal's dashboard gives the shop's webhook; PayPal's signature check of each event needs it. */
    PAYPAL_WEBHOOK_ID: optional,
    /** Where PayPal's API is: unset, api-m.paypal.com in production and api-m.sandbox.paypal.com elsewhere; a test sets a local stand-in. */
    PAYPAL_API_URL: z.url().optional(),
    POSTNL_API_KEY: optional,
    /** PostNL's contract codes (sandbox: DEVC and 11223344). */
    POSTNL_CUSTOMER_CODE: optional,
    POSTNL_CUSTOMER_NUMBER: optional,
    /** PostNL's GlobalPack barcode type and customer code, for parcels outside the EU (product 4945), when the contract has them. */
    POSTNL_GLOBALPACK_BARCODE_TYPE: optional,
    POSTNL_GLOBALPACK_CUSTOMER_CODE: optional,
    /** Where the carriers' APIs are: their production hosts unless a test points them at a local stand-in. */
    POSTNL_API_URL: z.url().default("https://api.postnl.nl"),
    UPS_CLIENT_ID: optional,
    UPS_CLIENT_SECRET: optional,
    /** The UPS shipper number that labels are billed to. */
    UPS_ACCOUNT_NUMBER: optional,
    UPS_API_URL: z.url().default("https://onlinetools.ups.com"),
    /**
     * The shop's own address and details: the sender on labels, the seller on invoices and packing slips. The
     * defaults are the demo shop's; a real shop sets its own.
     */
    SHOP_STREET: z.string().min(1).default("Prinsengracht"),
    SHOP_HOUSE_NUMBER: z.string().min(1).default("263"),
    SHOP_POST_CODE: z.string().min(1).default("1016 GV"),
    SHOP_CITY: z.string().min(1).default("Amsterdam"),
    SHOP_COUNTRY_CODE: z.string().length(2).default("NL"),
    SHOP_EMAIL: z.email().default("service@balance-and-crown.example"),
    SHOP_PHONE: z.string().min(1).default("+31 20 000 0000"),
    SHOP_CHAMBER_OF_COMMERCE: optional,
    SHOP_VAT_NUMBER: optional,
    /** The VAT included in the shop's prices, as a fraction (0.21); invoices show it as a line. 0 shows no VAT line. */
    INVOICE_VAT_RATE: z.coerce.number().min(0).max(1).default(0.21),
    EBAY_CLIENT_ID: optional,
    EBAY_CLIENT_SECRET: optional,
    EBAY_REFRESH_TOKEN: optional,
    /**
     * When the seller's consent behind EBAY_REFRESH_TOKEN ends (eBay's `refresh_token_expires_in`, 18 months after
     * the seller signed in; renewing an access token does not say it again), so the integrations page can warn in time.
     */
    EBAY_REFRESH_TOKEN_EXPIRES_AT: z.coerce.date().optional(),
    /** eBay's API host: https://api.ebay.com in production, https://api.sandbox.ebay.com (the default) elsewhere. */
    EBAY_API_URL: z.url().optional(),
    /** The one eBay site the shop lists on; every SKU lives on one site only. */
    EBAY_MARKETPLACE_ID: z.enum(marketplaceIds).default("EBAY_NL"),
    /** The business policies and inventory location every offer names (made once in eBay's Seller Hub or Account API). */
    EBAY_FULFILLMENT_POLICY_ID: optional,
    EBAY_PAYMENT_POLICY_ID: optional,
    EBAY_RETURN_POLICY_ID: optional,
    EBAY_MERCHANT_LOCATION_KEY: optional,
    /** The verification token given to eBay's Notification API for the endpoint /api/webhooks/ebay (32-80 characters). */
    EBAY_NOTIFICATION_VERIFICATION_TOKEN: z.string().min(32).max(80).optional(),
    GOOGLE_CLIENT_ID: optional,
    GOOGLE_CLIENT_SECRET: optional,
    GOOGLE_MAPS_API_KEY: optional,
    /** The public bucket: product pictures and files staff publish, readable by everyone. */
    GCS_BUCKET: bucketName,
    /**
     * The private bucket: shipping labels and other documents with customers' details, readable by the shop's service
     * account only (SECURITY-REVIEW N-H1). Required with GCS_BUCKET, and another bucket than it.
     */
    GCS_PRIVATE_BUCKET: bucketName,
    GCS_SA_KEY: optional,
    EXCHANGE_RATE_API_KEY: optional,
    /** The optional analysis flag: bundle analysis at build time. */
    ANALYZE: z.enum(["true", "false"]).optional(),
  },
  client: {
    NEXT_PUBLIC_PAYPAL_CLIENT_ID: z.string().min(1),
    NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: z.string().min(1),
    NEXT_PUBLIC_GA_MEASUREMENT_ID: z.string().min(1).optional(),
  },
  experimental__runtimeEnv: {
    NEXT_PUBLIC_PAYPAL_CLIENT_ID: process.env.NEXT_PUBLIC_PAYPAL_CLIENT_ID,
    NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: process.env.NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID,
    NEXT_PUBLIC_GA_MEASUREMENT_ID: process.env.NEXT_PUBLIC_GA_MEASUREMENT_ID,
  },
  createFinalSchema: (shape, isServer) =>
    z.object(shape).superRefine((values, ctx) => {
      const record = values as Record<string, unknown>;
      if (!isServer) return;
      if (record.INTEGRATIONS !== "live") {
        if (record.ENVIRONMENT === "production") {
          ctx.addIssue({ code: "custom", path: ["INTEGRATIONS"], message: "must be live in production: sandboxes publish sign-in links and let buyers choose 'paid'" });
        }
        return;
      }
      // The chosen mail service's credential is needed; the other service's is not, in production either.
      const [mailSecret, unusedMailSecret] = record.MAIL_SERVICE === "resend" ? (["RESEND_API_KEY", "SMTP_URL"] as const) : (["SMTP_URL", "RESEND_API_KEY"] as const);
      for (const name of ["AUTH_URL", mailSecret] as const) {
        if (!record[name]) ctx.addIssue({ code: "custom", path: [name], message: "required with live integrations" });
      }
      // Live storage is both buckets or neither: labels must never fall back to the public one.
      const storageNames = ["GCS_BUCKET", "GCS_PRIVATE_BUCKET", "GCS_SA_KEY"] as const;
      if (storageNames.some((name) => record[name])) {
        for (const name of storageNames) {
          if (!record[name]) ctx.addIssue({ code: "custom", path: [name], message: "required with live storage (GCS_BUCKET, GCS_PRIVATE_BUCKET and GCS_SA_KEY go together)" });
        }
      }
      if (record.GCS_PRIVATE_BUCKET && record.GCS_PRIVATE_BUCKET === record.GCS_BUCKET) {
        ctx.addIssue({ code: "custom", path: ["GCS_PRIVATE_BUCKET"], message: "must be another bucket than GCS_BUCKET, which everyone can read" });
      }
      if (record.ENVIRONMENT !== "production") return;
      for (const name of liveIntegrationSecrets) {
        if (name !== unusedMailSecret && !record[name]) {
          ctx.addIssue({ code: "custom", path: [name], message: "required with live integrations in production" });
        }
      }
    }),
  onValidationError: (issues) => {
    const lines = issues.map((issue) => `  ${issue.path?.map(String).join(".") || "(root)"}: ${issue.message}`);
    console.error(`❌ Invalid environment variables:\n${lines.join("\n")}`);
    throw new Error(`Invalid environment variables: ${issues.map((i) => i.path?.map(String).join(".")).join(", ")}`);
  },
  skipValidation: !!process.env.SKIP_ENV_VALIDATION,
  emptyStringAsUndefined: true,
});
