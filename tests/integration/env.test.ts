import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Configuration is validated when src/env.ts is first imported, so each case runs in a process of its own with the
// environment it names, as a server start-up would.

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");

function importEnv(environment: Record<string, string | undefined>, script = "await import('./src/env.ts');") {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(base)) {
    if (/^(NEXT_PUBLIC_|AUTH_|TOKEN_|WEBHOOK_|ENVIRONMENT|INTEGRATIONS|DATABASE_URL|SKIP_ENV)/.test(name)) delete base[name];
  }
  const result = spawnSync(tsx, ["--input-type=module", "-e", script], {
    cwd: root,
    env: { ...base, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "env-test-")), ...environment } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const withDefaults = "await import('./src/server/config/apply-embedded-defaults.ts'); await import('./src/env.ts'); console.log('configuration ok');";

describe("configuration", () => {
  it("starts with no configuration at all on the embedded default", () => {
    const result = importEnv({}, withDefaults);
    expect(result.output).toContain("configuration ok");
    expect(result.status).toBe(0);
  });

  it("stops with 'Invalid environment variables' and names the bad values", () => {
    const result = importEnv({ ENVIRONMENT: "testing", DATABASE_URL: "mysql://nope" }, withDefaults);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("Invalid environment variables");
    expect(result.output).toContain("ENVIRONMENT");
    expect(result.output).toContain("DATABASE_URL");
  });

  it("requires every live integration's secret in production", () => {
    const result = importEnv(
      {
        INTEGRATIONS: "live",
        ENVIRONMENT: "production",
        NEXT_PUBLIC_PAYPAL_CLIENT_ID: "live-id",
        NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: "sandbox-id",
        AUTH_SECRET: "a".repeat(40),
        TOKEN_SECRET: "b".repeat(40),
        WEBHOOK_SECRET: "c".repeat(40),
        MOLLIE_API_KEY: "live_key",
      },
      withDefaults,
    );
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("Invalid environment variables");
    expect(result.output).toContain("SMTP_URL");
    expect(result.output).not.toContain("MOLLIE_API_KEY:");
  });

  it("refuses the sandboxes in production, also when INTEGRATIONS is left unset (SECURITY-REVIEW C1)", () => {
    for (const integrations of [undefined, "sandbox"]) {
      const result = importEnv({ ENVIRONMENT: "production", ...(integrations ? { INTEGRATIONS: integrations } : {}) }, withDefaults);
      expect(result.status).not.toBe(0);
      expect(result.output).toContain("Invalid environment variables");
      expect(result.output).toContain("INTEGRATIONS: must be live in production");
    }
  });

  it("needs the shop's public address and a mail server with live integrations, in every environment (H1, L5)", () => {
    const result = importEnv({
      INTEGRATIONS: "live",
      ENVIRONMENT: "staging",
      NEXT_PUBLIC_PAYPAL_CLIENT_ID: "live-id",
      NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: "sandbox-id",
      AUTH_SECRET: "a".repeat(40),
      TOKEN_SECRET: "b".repeat(40),
      WEBHOOK_SECRET: "c".repeat(40),
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("AUTH_URL: required with live integrations");
    expect(result.output).toContain("SMTP_URL: required with live integrations");
    expect(result.output).not.toContain("MOLLIE_API_KEY:");
  });

  it("takes live storage as both buckets or none: never a label bucket missing, or the picture bucket named twice (N-H1)", () => {
    const live = {
      INTEGRATIONS: "live",
      ENVIRONMENT: "staging",
      NEXT_PUBLIC_PAYPAL_CLIENT_ID: "live-id",
      NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID: "sandbox-id",
      AUTH_SECRET: "a".repeat(40),
      TOKEN_SECRET: "b".repeat(40),
      WEBHOOK_SECRET: "c".repeat(40),
      AUTH_URL: "https://staging.shop.example.com",
      SMTP_URL: "smtp://127.0.0.1:2525",
      GCS_SA_KEY: "{}",
    };
    const withoutPrivate = importEnv({ ...live, GCS_BUCKET: "bc-pictures" }, withDefaults);
    expect(withoutPrivate.status).not.toBe(0);
    expect(withoutPrivate.output).toContain("GCS_PRIVATE_BUCKET: required with live storage");
    const sameBucket = importEnv({ ...live, GCS_BUCKET: "bc-pictures", GCS_PRIVATE_BUCKET: "bc-pictures" }, withDefaults);
    expect(sameBucket.output).toContain("GCS_PRIVATE_BUCKET: must be another bucket than GCS_BUCKET, which everyone can read");
    const address = importEnv({ ...live, GCS_BUCKET: "bc-pictures", GCS_PRIVATE_BUCKET: "https://storage.googleapis.com/bc-labels" }, withDefaults);
    expect(address.output).toContain("GCS_PRIVATE_BUCKET: must be a bucket name");
    const both = importEnv({ ...live, GCS_BUCKET: "bc-pictures", GCS_PRIVATE_BUCKET: "bc-labels" }, withDefaults);
    expect(both.output).toContain("configuration ok");
  });

  it("skips validation with the skip flag", () => {
    expect(importEnv({ SKIP_ENV_VALIDATION: "1", ENVIRONMENT: "testing" }).status).toBe(0);
  });

  it("refuses to read a server value in the browser", () => {
    const result = importEnv(
      {},
      "await import('./src/server/config/apply-embedded-defaults.ts'); globalThis.window = {}; const { env } = await import('./src/env.ts'); console.log(env.NEXT_PUBLIC_PAYPAL_CLIENT_ID); env.DATABASE_URL;",
    );
    expect(result.output).toContain("sb");
    expect(result.output).toContain("Attempted to access a server-side environment variable on the client");
    expect(result.status).not.toBe(0);
  });
});
