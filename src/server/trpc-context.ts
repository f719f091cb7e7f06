import "server-only";
import { TRPCError } from "@trpc/server";
import { env } from "@/env";
import { readAnySession } from "@/server/auth/session";
import { getDb, type Db } from "@/server/db/client";
import { isDatabaseUnavailable } from "@/server/db/unavailable";
import { clientKey } from "@/server/http/client-address";
import { logger } from "@/server/logger";
import { verifyVisitorToken } from "@/server/token/service";
import { DATABASE_UNAVAILABLE_MESSAGE, type TRPCContext } from "@/server/trpc";

/**
 * Each request's context: who is signed in (the session, or staff still owing their second factor), the visitor its
 * token names and the client's address. Wiring, like root.ts: it reads auth and token, which themselves build their
 * procedures with `./trpc.ts`.
 */
export async function createTRPCContext(options: { headers: Headers; requestId: string; db?: Db }): Promise<TRPCContext> {
  const db = options.db ?? getDb();
  const [{ session, pending }, visitorId] = await Promise.all([
    readAnySession(db, options.headers).catch((error: unknown) => {
      // Read before any procedure runs, so the procedures' middleware never sees it: the same 503 here (RELIABILITY-REVIEW D6).
      if (isDatabaseUnavailable(error)) throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE_MESSAGE, cause: error });
      throw error;
    }),
    verifyVisitorToken(env.TOKEN_SECRET, options.headers.get("x-token"), new Date()).then((visitor) => visitor?.visitorId ?? null),
  ]);
  return {
    db,
    session,
    pendingSession: pending,
    caller: { client: clientKey(options.headers), visitorId },
    requestId: options.requestId,
    log: logger.child({ requestId: options.requestId }),
    headers: options.headers,
  };
}
