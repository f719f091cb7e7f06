import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...nextauth]/route";
import { POST as trpcPost } from "@/app/api/trpc/[trpc]/route";
import { POST as mollieWebhook } from "@/app/api/webhooks/mollie/route";
import { POST as googleToken } from "@/app/sandbox/google/token/route";
import type { Database } from "@/server/db/client";
import { makeSession, makeUser } from "../helpers/admin-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * SECURITY-REVIEW N-M3: a request body is refused by its declared or streamed size before it is read whole, before
 * anyone is authenticated: the payment webhooks and the Google stand-in's token endpoint at 64 kB, /api/auth at
 * 16 kB, tRPC calls at 1 MB, and an upload's 51 MB only once the caller is known to be staff. The route handlers
 * are called as Next calls them, with a body that counts what was pulled from it.
 */

let t: TestDatabase;
const globalForShop = globalThis as unknown as { shopDatabase?: Database };
let customerCookie: string;

beforeAll(async () => {
  t = await createTestDatabase();
  globalForShop.shopDatabase = t.database;
  const customer = await makeUser(t.db, "USER");
  customerCookie = `authjs.session-token=${await makeSession(t.db, customer.id)}`;
});

afterAll(async () => {
  delete globalForShop.shopDatabase;
  await t?.dispose();
});

/** A body of `bytes` bytes in 16 kB chunks, made only as they are read, and how many were read. */
function countedBody(bytes: number) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(16 * 1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= bytes) return controller.close();
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
    // Nothing is made before it is asked for.
  }, { highWaterMark: 0 });
  return { stream, pulled };
}

/** A POST from this machine (the sandbox pages answer it) with a streamed body, declared or chunked. */
function post(url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3000${url}`, {
    method: "POST",
    body,
    headers: { "x-forwarded-for": "127.0.0.1", "content-type": "application/x-www-form-urlencoded", ...headers },
    duplex: "half",
  } as RequestInit);
}

const MB = 1024 * 1024;

describe("request bodies", () => {
  it("refuses 1 MB to the payment webhook, the Google stand-in's token endpoint and /api/auth after reading no more than its limit", async () => {
    for (const [call, url, limit] of [
      [mollieWebhook, "/api/webhooks/mollie?secret=x", 64 * 1024],
      [googleToken, "/sandbox/google/token", 64 * 1024],
      [authPost, "/api/auth/signin/nodemailer", 16 * 1024],
    ] as const) {
      const declared = countedBody(MB);
      const answer = await call(post(url, declared.stream, { "content-length": String(MB) }));
      expect(answer.status, url).toBe(413);
      expect(declared.pulled.bytes, `${url}, declared`).toBe(0);

      const chunked = countedBody(MB);
      expect((await call(post(url, chunked.stream))).status, url).toBe(413);
      expect(chunked.pulled.bytes, `${url}, chunked`).toBeLessThanOrEqual(limit + 32 * 1024);
    }
  });

  it("refuses a tRPC call past 1 MB once that much has streamed in", async () => {
    const chunked = countedBody(3 * MB);
    const answer = await trpcPost(post("/api/trpc/shared.cart.update", chunked.stream, { "content-type": "application/json" }));
    expect(answer.status).toBe(413);
    expect(chunked.pulled.bytes).toBeLessThanOrEqual(MB + 32 * 1024);
  });

  it("refuses an upload of 50 MB from anyone but staff before reading a byte of it", async () => {
    for (const [who, cookie, status] of [
      ["anonymous", undefined, 401],
      ["a customer", () => customerCookie, 403],
    ] as const) {
      for (const path of ["admin.bucket.upload", "admin.product.uploadImages"]) {
        const upload = countedBody(50 * MB);
        const headers: Record<string, string> = { "content-type": "multipart/form-data; boundary=x", "content-length": String(50 * MB) };
        if (cookie) headers.cookie = cookie();
        const answer = await trpcPost(post(`/api/trpc/${path}`, upload.stream, headers));
        expect(answer.status, `${path} from ${who}`).toBe(status);
        expect(upload.pulled.bytes, `${path} from ${who}`).toBe(0);
      }
    }
  });
});
