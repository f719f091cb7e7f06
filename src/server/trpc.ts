import "server-only";
import { initTRPC, TRPCError } from "@trpc/server";
import type { SuperJSONResult } from "superjson";
import { z, ZodError } from "zod";
import { transformer } from "@/lib/trpc/transformer";
import type { PendingSession, Session } from "@/server/auth/session";
import { storedFormOf } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { isDatabaseUnavailable } from "@/server/db/unavailable";
import { AppError } from "@/server/errors";
import type { Logger } from "@/server/logger";
import type { Caller } from "@/server/rate-limit/service";

/**
 * What every procedure is called with; built for each request by `createTRPCContext` (`./trpc-context.ts`), which reads
 * the session and the visitor token there, so that the procedure builders, which auth's and token's routers use, need
 * no more of those domains than the session's type.
 */
export type TRPCContext = {
  db: Db;
  /** The signed-in user; null for visitors, and for staff whose second factor is not confirmed yet. */
  session: Session | null;
  /** A member of staff signed in whose second factor is not confirmed yet: reaches the second factor's procedures only. */
  pendingSession?: PendingSession | null;
  /**
   * Who is calling, for rate limits: the client's network address and the anonymous visitor named by a valid token
   * in the `x-token` header.
   */
  caller: Caller;
  requestId: string;
  log: Logger;
  headers: Headers;
};

const t = initTRPC.context<TRPCContext>().create({
  transformer: {
    serialize: (value: unknown) => storedFormOf(value) ?? transformer.serialize(value),
    deserialize: (value: SuperJSONResult) => transformer.deserialize(value),
  },
  errorFormatter({ shape, error, ctx }) {
    const zodError = error.code === "BAD_REQUEST" && error.cause instanceof ZodError ? error.cause : null;
    // What went wrong inside (a failed query with its SQL, a provider's answer) stays in the log, under the request
    // id the caller is given to quote (SECURITY-REVIEW M2).
    if (error.code === "INTERNAL_SERVER_ERROR") {
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message: internalErrorMessage(ctx?.requestId), data: { ...data, zodError: null, fieldIssues: null } };
    }
    return {
      ...shape,
      message: zodError ? "The request is not valid: " + z.prettifyError(zodError).replaceAll("\n", " ") : shape.message,
      data: { ...shape.data, zodError: zodError ? z.flattenError(zodError) : null, fieldIssues: zodError ? fieldIssuesOf(zodError) : null },
    };
  },
});

/** Most field refusals one answer carries: a form shows the first of each field, and a page has not more fields. */
const MAX_FIELD_ISSUES = 100;

/**
 * A refused input's fields for a form to mark (`features/admin/kit/forms/field-refusals.ts`): each issue's path, dotted
 * ("address.postCode"), and its message, nothing else of the input (no received value), and no more than a form needs.
 */
function fieldIssuesOf(error: ZodError): { path: string; message: string }[] {
  return error.issues
    .filter((issue) => issue.path.length > 0)
    .slice(0, MAX_FIELD_ISSUES)
    .map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

/** What a caller is told when the database could not be reached in time: worth trying again in a moment. */
export const DATABASE_UNAVAILABLE_MESSAGE = "The shop cannot reach its database just now. Please try again in a minute.";

/** The only words a caller gets for a failure on our side. */
export function internalErrorMessage(requestId: string | undefined): string {
  return `Something went wrong on our side. Please try again in a moment${requestId ? `; if it keeps happening, quote request ${requestId}` : ""}.`;
}

export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;
/**
 * One path for procedures from two domains, where the one below may not import the one above: `shared.account` (the
 * customer's order is orders'), `admin.discounts` and `admin.manualOrder` (staff's customer search is account's).
 */
export const mergeTRPCRouters = t.mergeRouters;

/** Turns a domain AppError into the tRPC error of the same code, and logs every call with its duration. */
const callMiddleware = t.middleware(async ({ ctx, path, type, next }) => {
  const started = performance.now();
  const result = await next();
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  if (result.ok) {
    ctx.log.info({ path, type, durationMs }, "api call");
    return result;
  }
  const cause = result.error.cause;
  if (cause instanceof AppError && cause.code !== "INTERNAL_SERVER_ERROR") {
    ctx.log.info({ path, type, durationMs, code: cause.code, message: cause.message }, "api call refused");
    throw new TRPCError({ code: cause.code, message: cause.message, cause });
  }
  if (result.error.code === "INTERNAL_SERVER_ERROR" && isDatabaseUnavailable(result.error.cause)) {
    ctx.log.warn({ path, type, durationMs, err: result.error.cause }, "api call failed: the database is unavailable");
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE_MESSAGE, cause: result.error.cause });
  }
  if (result.error.code === "INTERNAL_SERVER_ERROR") {
    ctx.log.error({ path, type, durationMs, err: result.error.cause ?? result.error }, "api call failed");
  } else {
    ctx.log.info({ path, type, durationMs, code: result.error.code }, "api call refused");
  }
  return result;
});

export const publicProcedure = t.procedure.use(callMiddleware);

/** What a member of staff signed in without their second factor is told, wherever they knock. */
export const SECOND_FACTOR_FIRST = "Confirm your sign-in with your second factor first.";

/** Signed-in users only; narrows `ctx.session` to non-null. Staff still owing their second factor are refused. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: ctx.pendingSession ? SECOND_FACTOR_FIRST : "Please sign in first." });
  return next({ ctx: { session: ctx.session } });
});

/**
 * The second factor's own procedures: whoever is signed in, also staff whose factor is not confirmed yet (then
 * `pending`). Narrows `ctx.signedIn` to the user and whether the factor is still owed.
 */
export const secondFactorProcedure = publicProcedure.use(({ ctx, next }) => {
  const signedIn = ctx.session ? { user: ctx.session.user, pending: null } : ctx.pendingSession ? { user: ctx.pendingSession.user, pending: ctx.pendingSession } : null;
  if (!signedIn) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in first." });
  return next({ ctx: { signedIn } });
});

/** Staff only: anonymous callers get UNAUTHORIZED, signed-in customers FORBIDDEN. */
export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (ctx.session.user.role !== "ADMIN") {
    throw new TRPCError({ code: "FORBIDDEN", message: "This is for shop staff only." });
  }
  return next({ ctx });
});
