import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { MAX_BATCH_SIZE } from "@/lib/trpc/limits";
import { decideAdminAccess } from "@/server/auth/admin-page-access";
import { readSession } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { MAX_UPLOAD_REQUEST_BYTES } from "@/server/storage/uploads";
import { isSameOriginRequest, readBodyWithin, requestIdOf } from "@/server/http/request-guards";
import { appRouter } from "@/server/root";
import { createTRPCContext } from "@/server/trpc-context";

export const dynamic = "force-dynamic";

/** A JSON call or batch: far more than any form of the shop sends (SECURITY-REVIEW M6). */
const CALL_BODY_LIMIT = 1024 * 1024;
/** The two upload procedures take files as multipart form data, one request per upload: the files and the framing. */
const UPLOAD_BODY_LIMIT = MAX_UPLOAD_REQUEST_BYTES + 1024 * 1024;
const uploadPaths = new Set(["admin.product.uploadImages", "admin.bucket.upload"]);

/** Calls whose answers are the same for every visitor; everything else may be personal and is never stored. */
const publicQueryPrefixes = ["shared.product.", "shared.navbar.", "shared.checkout.countries"];

function refuse(status: number, code: string, message: string, requestId: string): Response {
  return Response.json({ error: { json: { message, code: -32600, data: { code, httpStatus: status } } } }, { status, headers: { "x-request-id": requestId } });
}

async function handler(request: Request) {
  const requestId = requestIdOf(request.headers);
  const paths = new URL(request.url).pathname.slice("/api/trpc/".length).split(",");
  let req = request;
  if (request.method !== "GET") {
    if (!isSameOriginRequest(request.headers)) return refuse(403, "FORBIDDEN", "This request did not come from the shop's own pages.", requestId);
    const upload = paths.length === 1 && uploadPaths.has(paths[0]!);
    // An upload-sized body is taken from staff only: who is calling is known from the cookie before a byte of it is
    // read (SECURITY-REVIEW N-M3). The procedure checks again, as every admin procedure does.
    if (upload) {
      const access = decideAdminAccess(await readSession(getDb(), request.headers));
      if (access.kind === "anonymous") return refuse(401, "UNAUTHORIZED", "Please sign in first.", requestId);
      if (access.kind === "forbidden") return refuse(403, "FORBIDDEN", "This is for shop staff only.", requestId);
    }
    const limit = upload ? UPLOAD_BODY_LIMIT : CALL_BODY_LIMIT;
    const body = await readBodyWithin(request, limit);
    if (!body) return refuse(413, "PAYLOAD_TOO_LARGE", `The request is larger than ${limit / 1024 / 1024} MB.`, requestId);
    req = new Request(request.url, { method: request.method, headers: request.headers, body });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: () => createTRPCContext({ headers: request.headers, requestId }),
    responseMeta: ({ type, paths: called, errors }) => {
      const headers = new Headers({ "x-request-id": requestId });
      // The database did not answer in time: a client (or a proxy) may try again shortly.
      if (errors.some((error) => error.code === "SERVICE_UNAVAILABLE")) headers.set("retry-after", "30");
      const shared = type === "query" && !!called?.length && called.every((path) => publicQueryPrefixes.some((prefix) => path.startsWith(prefix)));
      // A cache in front of the shop must never hand one person's cart, account or admin data to another (L2).
      if (!shared) headers.set("cache-control", "private, no-store");
      return { headers };
    },
  });
}

export { handler as GET, handler as POST };
