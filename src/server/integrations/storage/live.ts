import { ApiError, Storage, type File } from "@google-cloud/storage";
import { assertStorageKey, contentTypeForKey, type StoragePort, type StoredObjectInfo } from "./port";

/** The parts of a service-account key file the client needs. */
type ServiceAccountKey = { project_id?: string; client_email: string; private_key: string };

// Objects can be replaced under the same key (a new product photo), so browsers and the CDN may only keep them briefly.
const objectCacheControl = "public, max-age=300";

/**
 * Production storage: a Google Cloud Storage bucket whose objects are readable by everyone (uniform bucket-level
 * access with `allUsers` as object viewer), so product images load straight from storage.googleapis.com.
 * `apiEndpoint` points the client at a local stand-in in tests.
 */
export function createGcsStorage(options: { bucket: string; serviceAccountKey: string; apiEndpoint?: string }): StoragePort {
  const key = parseServiceAccountKey(options.serviceAccountKey);
  const client = new Storage({
    projectId: key.project_id,
    credentials: { client_email: key.client_email, private_key: key.private_key },
    ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
  });
  const bucket = client.bucket(options.bucket);
  const publicBase = `https://storage.googleapis.com/${encodeURIComponent(options.bucket)}`;

  const fileOf = (objectKey: string) => {
    assertStorageKey(objectKey);
    return bucket.file(objectKey);
  };

  return {
    kind: "live",

    async put(objectKey, body, contentType) {
      await fileOf(objectKey).save(body, {
        contentType,
        resumable: false,
        metadata: { contentType, cacheControl: objectCacheControl },
      });
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

    publicUrl(objectKey) {
      assertStorageKey(objectKey);
      return `${publicBase}/${objectKey.split("/").map(encodeURIComponent).join("/")}`;
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
