import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthBrowser } from "../../../../tests/helpers/auth-browser";
import { resendApiKey as apiKey, resendError, startResendStandIn } from "../../../../tests/helpers/resend-stand-in";
import { standInForFile } from "../../../../tests/helpers/stand-in";
import { createTestDatabase } from "../../../../tests/helpers/test-database";
import { MailDeliveryError, type MailMessage } from "./port";
import { createResendMail } from "./resend";

const resend = standInForFile(startResendStandIn);

/** The adapter on the stand-in; its waits are recorded instead of slept. */
function resendMail(options: { apiKey?: string; maxWaitMs?: number } = {}) {
  const waits: number[] = [];
  const alreadySent: string[] = [];
  const mail = createResendMail({
    apiKey: options.apiKey ?? apiKey,
    from: "Balance & Crown <shop@balance-and-crown.example>",
    baseUrl: resend.url,
    maxWaitMs: options.maxWaitMs,
    sleep: async (ms) => {
      waits.push(ms);
    },
    onAlreadySent: (repeat) => alreadySent.push(repeat.idempotencyKey),
  });
  return { mail, waits, alreadySent };
}

const confirmation = (overrides: Partial<MailMessage> = {}): MailMessage => ({
  to: "ada@example.com",
  subject: "Your order BC-2026-000123 at Balance & Crown",
  html: "<p>Thank you for your order — Zürich</p>",
  text: "Thank you for your order — Zürich",
  kind: "order-confirmation",
  links: ["https://shop.example/checkout/confirmation/BC-2026-000123"],
  idempotencyKey: "order-confirmation/BC-2026-000123",
  ...overrides,
});

async function refusal(send: Promise<void>): Promise<MailDeliveryError> {
  const error = await send.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MailDeliveryError);
  return error as MailDeliveryError;
}

afterEach(() => resend.reset());

describe("the Resend adapter", () => {
  it("sends an e-mail as Resend's API documents it", async () => {
    await resendMail().mail.send(confirmation());

    expect(resend.requests).toHaveLength(1);
    const [request] = resend.requests;
    expect([request!.method, request!.path]).toEqual(["POST", "/emails"]);
    expect(request!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request!.headers["user-agent"]).toMatch(/\S/);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["idempotency-key"]).toBe("order-confirmation/BC-2026-000123");
    expect(request!.json).toEqual({
      from: "Balance & Crown <shop@balance-and-crown.example>",
      to: ["ada@example.com"],
      subject: "Your order BC-2026-000123 at Balance & Crown",
      html: "<p>Thank you for your order — Zürich</p>",
      text: "Thank you for your order — Zürich",
      tags: [{ name: "kind", value: "order-confirmation" }],
    });
    expect(resend.sent.map((email) => email.to)).toEqual([["ada@example.com"]]);
  });

  it("sends no idempotency key for mail without one, such as a sign-in link", async () => {
    await resendMail().mail.send(confirmation({ kind: "sign-in", idempotencyKey: undefined }));
    expect(resend.requests[0]!.headers).not.toHaveProperty("idempotency-key");
  });

  it("sends an e-mail once when a retried job sends it again under the same key", async () => {
    const { mail, alreadySent } = resendMail();
    await mail.send(confirmation());
    await mail.send(confirmation());

    expect(resend.requests).toHaveLength(2);
    expect(resend.sent).toHaveLength(1);
    expect(alreadySent).toEqual([]);
  });

  it("takes Resend's 'key used with another payload' as sent already, not as a failure", async () => {
    const { mail, alreadySent } = resendMail();
    await mail.send(confirmation());
    // The retry re-rendered the e-mail with a freshly signed link: Resend refuses the key for the changed body.
    await mail.send(confirmation({ html: "<p>Thank you for your order (link signed again)</p>" }));

    expect(resend.sent).toHaveLength(1);
    expect(alreadySent).toEqual(["order-confirmation/BC-2026-000123"]);
  });

  it("waits while the first request with the same key is still running, then takes its answer", async () => {
    const { mail, waits } = resendMail();
    await mail.send(confirmation());
    resend.upcoming.push(resendError(409, "concurrent_idempotent_requests", "Same idempotency key used while original request is still in progress."));
    await mail.send(confirmation());

    expect(waits).toHaveLength(1);
    expect(resend.sent).toHaveLength(1);
  });

  it("respects the rate limit: waits as long as retry-after says, then sends", async () => {
    const { mail, waits } = resendMail();
    const limited = resendError(429, "rate_limit_exceeded", "Too many requests. You can only make 5 requests per second.", {
      "retry-after": "1",
      "ratelimit-limit": "5",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "1",
    });
    resend.upcoming.push(limited, limited);
    await mail.send(confirmation());

    expect(waits).toEqual([1000, 1000]);
    expect(resend.requests).toHaveLength(3);
    expect(resend.sent).toHaveLength(1);
  });

  it("gives up when the rate limit lasts longer than it may wait, saying when to try again", async () => {
    const { mail } = resendMail({ maxWaitMs: 5_000 });
    resend.upcoming.push(resendError(429, "rate_limit_exceeded", "Too many requests.", { "retry-after": "30" }));
    const error = await refusal(mail.send(confirmation()));

    expect(error.details).toEqual({ status: 429, code: "rate_limit_exceeded", retryAfterSeconds: 30 });
    expect(error.message).toContain("rate_limit_exceeded");
    expect(resend.sent).toHaveLength(0);
  });

  it("does not wait out a used-up daily quota", async () => {
    const { mail, waits } = resendMail();
    resend.upcoming.push(resendError(429, "daily_quota_exceeded", "You have reached your daily email sending quota."));
    const error = await refusal(mail.send(confirmation()));

    expect(waits).toEqual([]);
    expect(error.message).toBe("Resend refused the e-mail (HTTP 429 daily_quota_exceeded): You have reached your daily email sending quota.");
  });

  it("reports Resend's refusals in its own words", async () => {
    const invalidTo = await refusal(resendMail().mail.send(confirmation({ to: "not an address" })));
    expect(invalidTo.details).toMatchObject({ status: 422, code: "validation_error" });
    expect(invalidTo.message).toContain("Invalid `to` field");

    const wrongKey = await refusal(resendMail({ apiKey: "re_wrong" }).mail.send(confirmation()));
    expect(wrongKey.message).toBe("Resend refused the e-mail (HTTP 403 invalid_api_key): API key is invalid");
    expect(resend.sent).toHaveLength(0);
  });

  it("says so when Resend cannot be reached", async () => {
    const mail = createResendMail({ apiKey, from: "shop@example.com", baseUrl: "http://127.0.0.1:9" });
    const error = await refusal(mail.send(confirmation()));
    expect(error.message).toMatch(/^Resend could not be reached/);
    expect(error.details.status).toBeNull();
  });
});

describe("MAIL_SERVICE=resend", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  const live = {
    INTEGRATIONS: "live",
    ENVIRONMENT: "staging",
    AUTH_URL: "https://shop.test",
    SMTP_URL: undefined,
    MAIL_SERVICE: "resend",
  };

  async function loadEnv(values: Record<string, string | undefined>) {
    for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
    vi.resetModules();
    vi.spyOn(console, "error").mockImplementation(() => {});
    return import("@/env");
  }

  it("needs Resend's API key with live integrations, and no mail server", async () => {
    await expect(loadEnv(live)).rejects.toThrow(/Invalid environment variables: RESEND_API_KEY$/);
    const { env } = await loadEnv({ ...live, RESEND_API_KEY: apiKey });
    expect([env.MAIL_SERVICE, env.RESEND_API_URL]).toEqual(["resend", "https://api.resend.com"]);
  });

  it("sends the sign-in e-mail through Resend", async () => {
    const t = await createTestDatabase();
    try {
      await loadEnv({ ...live, RESEND_API_KEY: apiKey, RESEND_API_URL: resend.url, MAIL_FROM: "Balance & Crown <shop@shop.test>" });
      // The route's process-wide database (src/server/db/client.ts) is this test's.
      (globalThis as { shopDatabase?: unknown }).shopDatabase = t.database;
      const route = await import("@/server/auth/auth");
      const browser = new AuthBrowser({ handlers: () => route, origin: "https://shop.test", db: () => t.db });
      const response = await browser.post("/api/auth/signin/nodemailer", { email: "resend-customer@example.com", callbackUrl: "https://shop.test/account" });
      expect(response.status).toBe(200);

      await vi.waitFor(() => expect(resend.sent).toHaveLength(1));
      const [email] = resend.sent;
      expect(email!.to).toEqual(["resend-customer@example.com"]);
      expect(email!.from).toBe("Balance & Crown <shop@shop.test>");
      expect(email!.tags).toEqual([{ name: "kind", value: "sign-in" }]);
      expect(email!.text).toContain("https://shop.test/api/auth/callback/nodemailer?");
    } finally {
      delete (globalThis as { shopDatabase?: unknown }).shopDatabase;
      await t.dispose();
    }
  });
});
