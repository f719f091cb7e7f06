import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/root";
import { createTRPCContext } from "@/server/trpc";

export const dynamic = "force-dynamic";

function handler(request: Request) {
  const requestId = request.headers.get("x-request-id") ?? crypto.randomUUID();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => createTRPCContext({ headers: request.headers, requestId }),
    responseMeta: () => ({ headers: new Headers({ "x-request-id": requestId }) }),
  });
}

export { handler as GET, handler as POST };
