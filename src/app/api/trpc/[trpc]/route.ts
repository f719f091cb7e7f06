import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { MAX_BATCH_SIZE } from "@/lib/trpc/limits";
import { MAX_UPLOAD_REQUEST_BYTES } from "@/server/storage/uploads";
import { isSameOriginRequest, readBodyWithin, requestIdOf } from "@/server/http/request-guards";
import { appRouter } from "@/server/root";
import { createTRPCContext } from "@/server/trpc";

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
    const limit = paths.length === 1 && uploadPaths.has(paths[0]!) ? UPLOAD_BODY_LIMIT : CALL_BODY_LIMIT;
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
