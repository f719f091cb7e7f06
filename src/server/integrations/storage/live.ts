import { ApiError, Storage, type File, type StorageOptions } from "@google-cloud/storage";
import { errorMessage } from "@/lib/error-message";
import {
  publicStorage,
  assertStorageKey,
  contentTypeForKey,
  PrivateStorageCheckError,
  type ObjectStore,
  type PrivateStoragePort,
  type StoragePort,
  type StoredObjectInfo,
} from "./port";

/** The parts of a service-account key file the client needs. */
type ServiceAccountKey = { project_id?: string; client_email: string; private_key: string };

/** How the shop reaches Cloud Storage: its service account, and in tests a local stand-in. */
export type GcsConnection = {
  /** GCS_SA_KEY: the JSON key file of a service account that may read and write objects in both buckets. */
  serviceAccountKey: string;
  /** A local stand-in's address instead of https://storage.googleapis.com (tests). */
  apiEndpoint?: string;
  /**
   * Signs the requests to `apiEndpoint` instead of the service account. The library sends no credentials at all to
   * an endpoint of its own choosing unless told to, and Google's token endpoint cannot be pointed elsewhere, so a
   * test hands in a client with a token its stand-in knows.
   */
  authClient?: StorageOptions["authClient"];
};

// Pictures can be replaced under the same key (a new product photo), so browsers and the CDN may only keep them briefly.
const publicCacheControl = "public, max-age=300";
// A private document passes through the shop to one member of staff; no browser or cache in between keeps a copy.
const privateCacheControl = "private, no-store";

/** One client for both buckets: it keeps its connections and its access token. */
export function createGcsClient(connection: GcsConnection): Storage {
  const key = parseServiceAccountKey(connection.serviceAccountKey);
  return new Storage({
    projectId: key.project_id,
    ...(connection.authClient ? { authClient: connection.authClient, useAuthWithCustomEndpoint: true } : { credentials: { client_email: key.client_email, private_key: key.private_key } }),
    ...(connection.apiEndpoint ? { apiEndpoint: connection.apiEndpoint } : {}),
  });
}

/**
 * The public storage (GCS_BUCKET): a bucket whose objects are readable by everyone (uniform bucket-level access with
 * `allUsers` as object viewer), so product images load straight from storage.googleapis.com.
 */
export function createGcsPublicStorage(client: Storage, bucketName: string): StoragePort {
  const objects = gcsObjects(client, bucketName, publicCacheControl);
  return publicStorage(objects, `${client.apiEndpoint}/${encodeURIComponent(bucketName)}`);
}

/** Where the start-up check leaves its probe: the same key at every start, so instances starting together agree. */
export const privateBucketProbeKey = "access-check/anonymous-read-probe.txt";

/**
 * The private storage (GCS_PRIVATE_BUCKET): a bucket that nobody but the shop's service account may list or read,
 * for labels and other documents with customers' details. Objects are written with `private, no-store` and never get
 * an address; staff download them through the shop.
 */
export function createGcsPrivateStorage(client: Storage, bucketName: string): PrivateStoragePort {
  const objects = gcsObjects(client, bucketName, privateCacheControl);
  return {
    ...objects,
    visibility: "private",
    async assertPrivate() {
      // A probe object, so that "nobody may read an object" is checked on a real one: a bucket with fine-grained
      // access can refuse listing and still make each new object public (a default object ACL of publicRead).
      // Writing it also shows the service account may write here, before the first label needs to.
      await objects.put(privateBucketProbeKey, Buffer.from("Written by the shop at start-up to check that nobody can read this bucket without its credentials.\n"), "text/plain; charset=utf-8");
      await assertAnonymousRefused(client.apiEndpoint, bucketName);
    },
  };
}

/**
 * Asks as an anonymous visitor, without credentials, for what an attacker would ask: the bucket's listing, the probe
 * object through the JSON API, and the probe at its public address. Cloud Storage answers such requests to a bucket
 * that does not grant `allUsers` with 401 ("Anonymous caller does not have storage.objects.list access ...") or 403;
 * a public bucket answers 200. Anything else (no answer, a 5xx) leaves the question open, and a shop that cannot tell
 * whether customers' addresses are public does not start either.
 */
async function assertAnonymousRefused(apiEndpoint: string, bucketName: string): Promise<void> {
  const bucket = encodeURIComponent(bucketName);
  const object = privateBucketProbeKey.split("/").map(encodeURIComponent).join("/");
  const probes = [
    { what: "list the bucket's objects", url: `${apiEndpoint}/storage/v1/b/${bucket}/o?maxResults=1` },
    { what: "download an object through the JSON API", url: `${apiEndpoint}/storage/v1/b/${bucket}/o/${encodeURIComponent(privateBucketProbeKey)}?alt=media` },
    { what: "download an object at its public address", url: `${apiEndpoint}/${bucket}/${object}` },
  ];
  for (const probe of probes) {
    let status: number;
    try {
      const response = await fetch(probe.url, { redirect: "manual", signal: AbortSignal.timeout(15_000) });
      status = response.status;
      await response.body?.cancel();
    } catch (error) {
      throw new PrivateStorageCheckError(
        `Could not check that GCS_PRIVATE_BUCKET "${bucketName}" is private: an anonymous request to ${probe.what} got no answer (${errorMessage(error)}). The shop does not start until it can check.`,
      );
    }
    if (status === 401 || status === 403) continue;
    if (status >= 200 && status < 300) {
      throw new PrivateStorageCheckError(
        `GCS_PRIVATE_BUCKET "${bucketName}" is readable by anyone: an anonymous request could ${probe.what} (HTTP ${status}), so shipping labels with customers' names and addresses would be public. Remove allUsers and allAuthenticatedUsers from the bucket's permissions and enforce public access prevention on it; the shop does not start until then.`,
      );
    }
    throw new PrivateStorageCheckError(
      `Could not confirm that GCS_PRIVATE_BUCKET "${bucketName}" is private: an anonymous request to ${probe.what} answered HTTP ${status}, not 401 or 403. The shop does not start until it can confirm it.`,
    );
  }
}

/** The operations both buckets share; every object is written with the bucket's `cacheControl`. */
function gcsObjects(client: Storage, bucketName: string, cacheControl: string): ObjectStore {
  const bucket = client.bucket(bucketName);
  const fileOf = (objectKey: string) => {
    assertStorageKey(objectKey);
    return bucket.file(objectKey);
  };

  return {
    kind: "live",

    /**
     * Lists at most one object (objects.list): the permission the shop's service account has on its buckets (object
     * roles, which do not include reading the bucket's own metadata), refused for a wrong key or a bucket it may not use.
     */
    async probe() {
      await bucket.getFiles({ maxResults: 1, autoPaginate: false });
      return `Cloud Storage let the shop's service account list bucket ${bucketName}`;
    },

    async put(objectKey, body, contentType) {
      await fileOf(objectKey).save(body, { contentType, resumable: false, metadata: { contentType, cacheControl } });
    },

    async get(objectKey) {
      const file = fileOf(objectKey);
      try {
        const [[body], [metadata]] = await Promise.all([file.download(), file.getMetadata()]);
        return { body, contentType: metadata.contentType ?? contentTypeForKey(objectKey) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(objectKey) {
      await fileOf(objectKey).delete({ ignoreNotFound: true });
    },

    async list(prefix) {
      const [files] = await bucket.getFiles({ prefix, autoPaginate: true });
      return files.map(toObjectInfo).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

function toObjectInfo(file: File): StoredObjectInfo {
  const { size, updated } = file.metadata;
  return { key: file.name, size: Number(size ?? 0), updatedAt: updated ? new Date(updated) : new Date(0) };
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError ? error.code === 404 : typeof error === "object" && error !== null && "code" in error && error.code === 404;
}

/** Reads GCS_SA_KEY: the JSON key file of the service account, as downloaded from the Cloud console. */
export function parseServiceAccountKey(json: string): ServiceAccountKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error("GCS_SA_KEY is not valid JSON: paste the whole service-account key file");
  }
  if (typeof parsed !== "object" || parsed === null) throw new Error("GCS_SA_KEY must be a JSON object");
  const record = parsed as Record<string, unknown>;
  const clientEmail = record.client_email;
  const privateKey = record.private_key;
  if (typeof clientEmail !== "string" || typeof privateKey !== "string") {
    throw new Error("GCS_SA_KEY lacks client_email or private_key");
  }
  return {
    project_id: typeof record.project_id === "string" ? record.project_id : undefined,
    client_email: clientEmail,
    // A key kept in a single-line variable sometimes arrives with its newlines still escaped.
    private_key: privateKey.replace(/\\n/g, "\n"),
  };
}
