import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CRC32C } from "@google-cloud/storage";
import { OAuth2Client } from "google-auth-library";

/**
 * A stand-in for Google Cloud Storage (PROVIDERS.md section 8): the slice of the JSON API and the XML API's public
 * address that `@google-cloud/storage` uses with `apiEndpoint` and that a visitor uses without it.
 *
 * - `POST /upload/storage/v1/b/{bucket}/o?uploadType=multipart&name=...` (the client's `save` with `resumable: false`:
 *   a multipart/related body of JSON metadata and the media), answering the object resource with `md5Hash` and
 *   `crc32c`, which the client checks against what it sent;
 * - `GET /storage/v1/b/{bucket}/o?prefix=&maxResults=&pageToken=` (list), `GET .../o/{object}` (metadata),
 *   `GET .../o/{object}?alt=media` (download), `DELETE .../o/{object}`;
 * - `GET /{bucket}/{object}`: the public address `file.publicUrl()` and the shop's `publicUrl` build.
 *
 * It enforces who may do what as Cloud Storage does for a bucket with uniform bucket-level access: a request with
 * the service account's token (`Authorization: Bearer gcsStandInToken`) may do anything; another token gets 401
 * "Invalid Credentials"; an anonymous request may list and read a public bucket (`allUsers` as object viewer) and
 * nothing else: a private bucket answers 401 "Anonymous caller does not have storage.objects.list access ..." on the
 * JSON API and 403 AccessDenied on the XML API, and no bucket takes anonymous writes. Errors have the JSON API's
 * shape `{error: {code, message, errors: [{domain, reason, message}]}}`.
 */

export const gcsStandInToken = "ya29.gcs-stand-in-token";

/** A service-account key file as GCS_SA_KEY holds it; the stand-in never sees the key, only `gcsStandInToken`. */
export const gcsStandInServiceAccountKey = JSON.stringify({
  type: "service_account",
  project_id: "balance-and-crown",
  client_email: "shop@balance-and-crown.iam.gserviceaccount.com",
  private_key: "-----BEGIN PRIVATE KEY-----\nnot-used-with-the-stand-in\n-----END PRIVATE KEY-----\n",
});

export type StoredGcsObject = { body: Buffer; contentType: string; cacheControl: string | undefined; updated: Date; generation: number };

export type StandInBucket = {
  /** Readable (listed and downloaded) by everyone: `allUsers` holds roles/storage.objectViewer. */
  public: boolean;
  objects: Map<string, StoredGcsObject>;
};

export type GcsRequest = { method: string; path: string; query: URLSearchParams; signedIn: boolean; status: number };

export type GcsStandIn = {
  /** `http://127.0.0.1:<port>`: the `apiEndpoint`. */
  url: string;
  buckets: Map<string, StandInBucket>;
  requests: GcsRequest[];
  /** Signs the client's requests with `gcsStandInToken`, as the service account's access token would. */
  authClient: () => OAuth2Client;
  close: () => Promise<void>;
};

type Answer = { status: number; body?: Buffer | string | object; headers?: Record<string, string> };

const jsonError = (code: number, reason: string, message: string, extra: { locationType?: string; location?: string } = {}): Answer => ({
  status: code,
  body: { error: { code, message, errors: [{ domain: "global", reason, message, ...extra }] } },
});

const anonymousRefused = (permission: string, resource: string) =>
  jsonError(
    401,
    "required",
    `Anonymous caller does not have ${permission} access to the Google Cloud Storage ${resource}. Permission '${permission}' denied on resource (or it may not exist).`,
    { locationType: "header", location: "Authorization" },
  );

export async function startGcsStandIn(bucketsWanted: Record<string, { public: boolean }>): Promise<GcsStandIn> {
  const buckets = new Map<string, StandInBucket>(Object.entries(bucketsWanted).map(([name, bucket]) => [name, { public: bucket.public, objects: new Map() }]));
  const requests: GcsRequest[] = [];
  let generations = 1_700_000_000_000_000;
  let base = "";

  const resource = (bucketName: string, name: string, object: StoredGcsObject) => ({
    kind: "storage#object",
    id: `${bucketName}/${name}/${object.generation}`,
    selfLink: `${base}/storage/v1/b/${bucketName}/o/${encodeURIComponent(name)}`,
    mediaLink: `${base}/download/storage/v1/b/${bucketName}/o/${encodeURIComponent(name)}?generation=${object.generation}&alt=media`,
    name,
    bucket: bucketName,
    generation: String(object.generation),
    metageneration: "1",
    contentType: object.contentType,
    storageClass: "STANDARD",
    size: String(object.body.length),
    md5Hash: createHash("md5").update(object.body).digest("base64"),
    crc32c: crc32cOf(object.body),
    ...(object.cacheControl ? { cacheControl: object.cacheControl } : {}),
    etag: `C${object.generation}`,
    timeCreated: object.updated.toISOString(),
    updated: object.updated.toISOString(),
  });

  const handle = (method: string, url: URL, signedIn: boolean, contentType: string, body: Buffer): Answer => {
    const path = url.pathname;
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(path);
    const objects = /^\/storage\/v1\/b\/([^/]+)\/o$/.exec(path);
    const object = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(path);
    const xml = !upload && !objects && !object ? /^\/([^/]+)\/(.+)$/.exec(path) : null;
    const bucketName = decodeURIComponent((upload ?? objects ?? object ?? xml)?.[1] ?? "");
    const bucket = buckets.get(bucketName);
    if (xml) {
      if (!bucket) return xmlError(404, "NoSuchBucket", "The specified bucket does not exist.");
      if (!signedIn && !bucket.public) return xmlError(403, "AccessDenied", `Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object.`);
      const stored = bucket.objects.get(xml[2]!.split("/").map(decodeURIComponent).join("/"));
      if (!stored) return xmlError(404, "NoSuchKey", "The specified key does not exist.");
      return media(stored);
    }
    if (!upload && !objects && !object) return jsonError(404, "notFound", "Not Found");
    if (!bucket) return jsonError(404, "notFound", "The specified bucket does not exist.");

    if (upload && method === "POST") {
      if (!signedIn) return anonymousRefused("storage.objects.create", "object");
      if (url.searchParams.get("uploadType") !== "multipart") return jsonError(400, "invalid", "The stand-in takes multipart uploads only (resumable: false)");
      const parts = multipartParts(contentType, body);
      if (!parts || parts.length !== 2) return jsonError(400, "invalid", "Multipart upload body is malformed");
      const metadata = JSON.parse(parts[0]!.body.toString("utf8")) as { name?: string; contentType?: string; cacheControl?: string };
      const name = url.searchParams.get("name") ?? metadata.name;
      if (!name) return jsonError(400, "required", "Required parameter: name");
      const stored: StoredGcsObject = {
        body: parts[1]!.body,
        contentType: metadata.contentType ?? parts[1]!.contentType ?? "application/octet-stream",
        cacheControl: metadata.cacheControl,
        updated: new Date(),
        generation: generations++,
      };
      bucket.objects.set(name, stored);
      return { status: 200, body: resource(bucketName, name, stored) };
    }
    if (objects && method === "GET") {
      if (!signedIn && !bucket.public) return anonymousRefused("storage.objects.list", "bucket");
      const prefix = url.searchParams.get("prefix") ?? "";
      const names = [...bucket.objects.keys()].filter((name) => name.startsWith(prefix)).sort();
      const start = Number(url.searchParams.get("pageToken") ?? 0);
      const size = Math.min(Number(url.searchParams.get("maxResults") ?? 1000), 1000);
      const page = names.slice(start, start + size);
      return {
        status: 200,
        body: {
          kind: "storage#objects",
          ...(page.length > 0 ? { items: page.map((name) => resource(bucketName, name, bucket.objects.get(name)!)) } : {}),
          ...(start + size < names.length ? { nextPageToken: String(start + size) } : {}),
        },
      };
    }
    if (object) {
      const name = decodeURIComponent(object[2]!);
      const stored = bucket.objects.get(name);
      if (method === "DELETE") {
        if (!signedIn) return anonymousRefused("storage.objects.delete", "object");
        if (!stored) return jsonError(404, "notFound", `No such object: ${bucketName}/${name}`);
        bucket.objects.delete(name);
        return { status: 204 };
      }
      if (method === "GET") {
        if (!signedIn && !bucket.public) return anonymousRefused("storage.objects.get", "object");
        if (!stored) return jsonError(404, "notFound", `No such object: ${bucketName}/${name}`);
        return url.searchParams.get("alt") === "media" ? media(stored) : { status: 200, body: resource(bucketName, name, stored) };
      }
    }
    return jsonError(405, "methodNotAllowed", "The stand-in does not serve that method here");
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const authorization = req.headers.authorization;
    const method = req.method ?? "GET";
    let answer: Answer;
    if (authorization !== undefined && authorization !== `Bearer ${gcsStandInToken}`) {
      answer = jsonError(401, "authError", "Invalid Credentials", { locationType: "header", location: "Authorization" });
    } else {
      answer = handle(method, url, authorization !== undefined, req.headers["content-type"] ?? "", Buffer.concat(chunks));
    }
    requests.push({ method, path: url.pathname, query: url.searchParams, signedIn: authorization !== undefined, status: answer.status });
    const isJson = answer.body !== undefined && !Buffer.isBuffer(answer.body) && typeof answer.body === "object";
    res.writeHead(answer.status, { ...(isJson ? { "content-type": "application/json; charset=UTF-8" } : {}), ...answer.headers });
    res.end(isJson ? JSON.stringify(answer.body) : answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    buckets,
    requests,
    authClient: () => {
      const client = new OAuth2Client();
      client.setCredentials({ access_token: gcsStandInToken, token_type: "Bearer", expiry_date: Date.now() + 3_600_000 });
      return client;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function media(stored: StoredGcsObject): Answer {
  return {
    status: 200,
    body: stored.body,
    headers: {
      "content-type": stored.contentType,
      "content-length": String(stored.body.length),
      ...(stored.cacheControl ? { "cache-control": stored.cacheControl } : {}),
      "x-goog-generation": String(stored.generation),
      "x-goog-stored-content-encoding": "identity",
      "x-goog-hash": `crc32c=${crc32cOf(stored.body)},md5=${createHash("md5").update(stored.body).digest("base64")}`,
    },
  };
}

function xmlError(status: number, code: string, message: string): Answer {
  return {
    status,
    body: `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    headers: { "content-type": "application/xml; charset=UTF-8" },
  };
}

function crc32cOf(body: Buffer): string {
  const crc = new CRC32C();
  crc.update(body);
  return crc.toString();
}

/** The parts of a multipart/related body, with their content types: the client sends the metadata, then the media. */
function multipartParts(contentType: string, body: Buffer): { contentType: string | undefined; body: Buffer }[] | null {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!contentType.startsWith("multipart/related") || !boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { contentType: string | undefined; body: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, afterDelimiter);
    if (next === -1) return null;
    const part = body.subarray(afterDelimiter + 2, next - 2); // past the delimiter's CRLF, before the next one's
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd === -1) return null;
    const headers = part.subarray(0, headerEnd).toString("utf8");
    parts.push({ contentType: /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim(), body: part.subarray(headerEnd + 4) });
    start = next;
  }
  return parts;
}
