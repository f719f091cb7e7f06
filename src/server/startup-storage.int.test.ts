import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createGcsClient, createGcsPrivateStorage, createGcsPublicStorage } from "@/server/integrations/storage/live";
import type { PrivateStoragePort, StoragePort } from "@/server/integrations/storage/port";
import { gcsStandInServiceAccountKey, startGcsStandIn } from "../../tests/helpers/gcs-stand-in";
import { perFile } from "../../tests/helpers/per-file";

// prepareServer reads configuration on first import of src/env, so the environment is set before it is imported.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "startup-storage-"));
const gcs = perFile(() => startGcsStandIn({ "bc-pictures": { public: true }, "bc-private": { public: false } }), (standIn) => standIn.close());
const globalForStorage = globalThis as unknown as { shopStorage?: StoragePort; shopPrivateStorage?: PrivateStoragePort };

afterAll(() => {
  vi.unstubAllEnvs();
  delete globalForStorage.shopStorage;
  delete globalForStorage.shopPrivateStorage;
  rmSync(dataDir, { recursive: true, force: true });
});

describe("server start-up with live storage (SECURITY-REVIEW N-H1)", () => {
  it("checks the private bucket, and refuses to start, before opening the database, when anyone can read it", async () => {
    vi.stubEnv("INTEGRATIONS", "live");
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("AUTH_URL", "http://127.0.0.1:3000");
    vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
    vi.stubEnv("MAIL_FROM", "shop@example.com");
    vi.stubEnv("GCS_BUCKET", "bc-pictures");
    vi.stubEnv("GCS_PRIVATE_BUCKET", "bc-private");
    vi.stubEnv("GCS_SA_KEY", gcsStandInServiceAccountKey);
    // The shop's storage as it would build it from these settings, reaching the stand-in instead of Google.
    const client = createGcsClient({ serviceAccountKey: gcsStandInServiceAccountKey, apiEndpoint: gcs.url, authClient: gcs.authClient() });
    globalForStorage.shopStorage = createGcsPublicStorage(client, "bc-pictures");
    globalForStorage.shopPrivateStorage = createGcsPrivateStorage(client, "bc-private");
    const { checkPrivateStorage } = await import("@/server/integrations/storage/storage");
    const { prepareServer } = await import("./startup");

    await checkPrivateStorage();
    expect(gcs.requests.filter((request) => !request.signedIn).map((request) => request.status)).toEqual([401, 401, 403]);

    gcs.buckets.get("bc-private")!.public = true;
    await expect(prepareServer()).rejects.toThrow(
      `GCS_PRIVATE_BUCKET "bc-private" is readable by anyone: an anonymous request could list the bucket's objects (HTTP 200), so shipping labels with customers' names and addresses would be public.`,
    );
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });
});
