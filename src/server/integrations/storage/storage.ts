import "server-only";
import path from "node:path";
import { env } from "@/env";
import { createGcsStorage } from "./live";
import type { StoragePort } from "./port";
import { createSandboxStorage } from "./sandbox";

// One client per process: the GCS client keeps its connections and token, the sandbox is stateless anyway.
const globalForStorage = globalThis as unknown as { shopStorage?: StoragePort };

/** The shop's object storage: the GCS bucket with live integrations, a folder under DATA_DIR otherwise. */
export function getStorage(): StoragePort {
  globalForStorage.shopStorage ??= createStorage();
  return globalForStorage.shopStorage;
}

function createStorage(): StoragePort {
  if (env.INTEGRATIONS === "live") {
    if (!env.GCS_BUCKET || !env.GCS_SA_KEY) {
      throw new Error("Live storage needs GCS_BUCKET and GCS_SA_KEY");
    }
    return createGcsStorage({ bucket: env.GCS_BUCKET, serviceAccountKey: env.GCS_SA_KEY });
  }
  return createSandboxStorage({ root: sandboxStorageRoot(env.DATA_DIR) });
}

/** Where the sandbox keeps its objects; the seed script and the app must agree on it. */
export function sandboxStorageRoot(dataDir: string): string {
  return path.join(path.resolve(dataDir), "storage");
}
