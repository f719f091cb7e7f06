import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensurePrivateFolder } from "./private-folder";

/**
 * A fresh clone starts with no configuration at all. Unless live integrations are asked for, this fills in what
 * the embedded default needs before `src/env.ts` validates: PGlite (by leaving DATABASE_URL unset), sandbox
 * integrations, PayPal's public sandbox client id, and secrets generated once and kept
 * under the data folder so that sessions and signed tokens survive a restart. The data folder is made private to its
 * owner: it holds those secrets, the embedded database, sandbox mail and shipping labels.
 *
 * It runs from next.config.ts (build and start), the command-line scripts and the test setup. It never overrides
 * a value that is already set.
 */

const generatedSecrets = ["AUTH_SECRET", "TOKEN_SECRET", "WEBHOOK_SECRET"] as const;

export type EmbeddedDefaults = { applied: boolean; dataDir: string; summary: string };

export function applyEmbeddedDefaults(env: NodeJS.ProcessEnv = process.env): EmbeddedDefaults {
  const dataDir = path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR ?? ".data");
  if (env.INTEGRATIONS === "live") {
    return { applied: false, dataDir, summary: "live integrations; every secret comes from the environment" };
  }
  env.INTEGRATIONS ??= "sandbox";
  env.ENVIRONMENT ??= "development";
  // "sb" is PayPal's documented client id for its sandbox JavaScript SDK.
  env.NEXT_PUBLIC_PAYPAL_CLIENT_ID ??= "sb";
  env.NEXT_PUBLIC_PAYPAL_SANDBOX_CLIENT_ID ??= "sb";
  ensurePrivateFolder(dataDir);

  const missing = generatedSecrets.filter((name) => !env[name]);
  if (missing.length > 0) {
    const secrets = readOrCreateSecrets(dataDir);
    for (const name of missing) env[name] = secrets[name];
  }

  const database = env.DATABASE_URL ? "PostgreSQL from DATABASE_URL" : `embedded PGlite in ${path.join(dataDir, "pglite")}`;
  return {
    applied: true,
    dataDir,
    summary: `${database}, sandbox integrations (mail outbox, local payments, local storage in ${path.join(dataDir, "storage")}), secrets in ${path.join(dataDir, "secrets.json")}`,
  };
}

function readOrCreateSecrets(dataDir: string): Record<(typeof generatedSecrets)[number], string> {
  const file = path.join(dataDir, "secrets.json");
  const stored: Partial<Record<string, string>> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  let changed = false;
  for (const name of generatedSecrets) {
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString("base64url");
      changed = true;
    }
  }
  if (changed) {
    writeFileSync(file, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
  }
  return stored as Record<(typeof generatedSecrets)[number], string>;
}
