import "server-only";
import path from "node:path";
import type { Storage } from "@google-cloud/storage";
import { env } from "@/env";
import { createGcsClient, createGcsPrivateStorage, createGcsPublicStorage } from "./live";
import { plainSetting, secretSetting, type PortDescription } from "../port-status";
import type { PrivateStoragePort, StoragePort } from "./port";
import { createSandboxPrivateStorage, createSandboxStorage } from "./sandbox";

// One of each per process: the GCS client keeps its connections and token, the sandbox is stateless anyway.
const globalForStorage = globalThis as unknown as { shopStorage?: StoragePort; shopPrivateStorage?: PrivateStoragePort; shopGcsClient?: Storage };

/** The shop's public storage (product pictures): GCS_BUCKET with live integrations, a folder under DATA_DIR otherwise. */
export function getStorage(): StoragePort {
  globalForStorage.shopStorage ??= env.INTEGRATIONS === "live" ? createGcsPublicStorage(gcsClient(), liveBuckets().publicBucket) : createSandboxStorage({ root: sandboxStorageRoot(env.DATA_DIR) });
  return globalForStorage.shopStorage;
}

/**
 * The shop's private storage (shipping labels and other documents with customers' details): GCS_PRIVATE_BUCKET with
 * live integrations, a folder under DATA_DIR that no route serves otherwise.
 */
export function getPrivateStorage(): PrivateStoragePort {
  globalForStorage.shopPrivateStorage ??=
    env.INTEGRATIONS === "live" ? createGcsPrivateStorage(gcsClient(), liveBuckets().privateBucket) : createSandboxPrivateStorage({ root: sandboxPrivateStorageRoot(env.DATA_DIR) });
  return globalForStorage.shopPrivateStorage;
}

/** Whether this process stores in Cloud Storage: live integrations with a bucket configured (required in production). */
export function usesLiveStorage(): boolean {
  return env.INTEGRATIONS === "live" && Boolean(env.GCS_BUCKET || env.GCS_PRIVATE_BUCKET);
}

/**
 * The start-up check of SECURITY-REVIEW N-H1: with live storage, the private bucket must refuse anonymous requests
 * (`PrivateStoragePort.assertPrivate`); it throws, and the server does not start, when it does not. The sandbox's
 * private folder is served by nothing, so there is nothing to check.
 */
export async function checkPrivateStorage(): Promise<void> {
  if (usesLiveStorage()) await getPrivateStorage().assertPrivate();
}

function gcsClient(): Storage {
  if (!env.GCS_SA_KEY) throw new Error("Live storage needs GCS_SA_KEY");
  globalForStorage.shopGcsClient ??= createGcsClient({ serviceAccountKey: env.GCS_SA_KEY });
  return globalForStorage.shopGcsClient;
}

function liveBuckets(): { publicBucket: string; privateBucket: string } {
  if (!env.GCS_BUCKET || !env.GCS_PRIVATE_BUCKET) throw new Error("Live storage needs GCS_BUCKET, GCS_PRIVATE_BUCKET and GCS_SA_KEY");
  return { publicBucket: env.GCS_BUCKET, privateBucket: env.GCS_PRIVATE_BUCKET };
}

/** Where the sandbox keeps its public objects; the seed script and the app must agree on it. */
export function sandboxStorageRoot(dataDir: string): string {
  return path.join(path.resolve(dataDir), "storage");
}

/** Where the sandbox keeps its private documents: beside the public folder, never inside what /storage serves. */
export function sandboxPrivateStorageRoot(dataDir: string): string {
  return path.join(path.resolve(dataDir), "private-storage");
}

/** How `getStorage` or `getPrivateStorage` is set up, for the owner's integrations page; nothing is called. */
export function describeStorage(which: "public" | "private"): PortDescription {
  if (env.INTEGRATIONS !== "live") {
    const folder = which === "public" ? "a folder under the data folder, served at /storage" : "a folder under the data folder that no address serves";
    return { mode: "sandbox", detail: `The sandbox keeps objects in ${folder}`, endpoint: null, settings: [] };
  }
  const bucket = which === "public" ? plainSetting("GCS_BUCKET", env.GCS_BUCKET) : plainSetting("GCS_PRIVATE_BUCKET", env.GCS_PRIVATE_BUCKET);
  return {
    mode: "live",
    detail: which === "public" ? "Cloud Storage, readable by everyone" : "Cloud Storage, readable by the shop only",
    endpoint: "https://storage.googleapis.com",
    settings: [bucket, secretSetting("GCS_SA_KEY", env.GCS_SA_KEY)],
  };
}
