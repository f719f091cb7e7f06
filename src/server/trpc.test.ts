import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import type { SessionUser } from "@/server/auth/session";
import { adminProcedure, createCallerFactory, createTRPCRouter, DATABASE_UNAVAILABLE_MESSAGE, protectedProcedure, publicProcedure, type TRPCContext } from "./trpc";

const router = createTRPCRouter({
  open: publicProcedure.input(z.object({ quantity: z.number().int().min(1) })).query(({ input }) => input.quantity),
  mine: protectedProcedure.query(({ ctx }) => ctx.session.user.name),
  staff: adminProcedure.query(() => "staff only"),
  refuse: publicProcedure.query(() => {
    throw new AppError("CONFLICT", "That box is already shipped.");
  }),
  // As Drizzle reports a statement the pool could not run: its own error, the driver's beneath.
  stalled: publicProcedure.query(() => {
    throw new Error("Failed query: select 1", { cause: new Error("timeout exceeded when trying to connect") });
  }),
  broken: publicProcedure.query(() => {
    throw new Error("Failed query: select 1", { cause: Object.assign(new Error('relation "boxes" does not exist'), { code: "42P01" }) });
  }),
});
const createCaller = createCallerFactory(router);

function contextFor(role: SessionUser["role"] | null): TRPCContext {
  return {
    db: {} as Db,
    session: role ? { user: { id: "u1", name: "Clara", email: "clara@example.com", image: null, role }, expires: new Date(Date.now() + 60_000) } : null,
    caller: { client: "203.0.113.9", visitorId: null },
    requestId: "test",
    log: logger.child({ test: true }),
    headers: new Headers(),
  };
}

async function errorOf(call: Promise<unknown>): Promise<TRPCError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("procedure builders", () => {
  it("lets anyone call a public procedure", async () => {
    await expect(createCaller(contextFor(null)).open({ quantity: 2 })).resolves.toBe(2);
  });

  it("refuses a protected procedure to anonymous callers with UNAUTHORIZED", async () => {
    expect((await errorOf(createCaller(contextFor(null)).mine())).code).toBe("UNAUTHORIZED");
    await expect(createCaller(contextFor("USER")).mine()).resolves.toBe("Clara");
  });

  it("refuses an admin procedure to anonymous callers and non-admins", async () => {
    expect((await errorOf(createCaller(contextFor(null)).staff())).code).toBe("UNAUTHORIZED");
    expect((await errorOf(createCaller(contextFor("USER")).staff())).code).toBe("FORBIDDEN");
    expect((await errorOf(createCaller(contextFor("VIP")).staff())).code).toBe("FORBIDDEN");
    await expect(createCaller(contextFor("ADMIN")).staff()).resolves.toBe("staff only");
  });

  it("turns a domain AppError into the tRPC error with the same code and message", async () => {
    const error = await errorOf(createCaller(contextFor(null)).refuse());
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toBe("That box is already shipped.");
  });

  it("tells the caller to try again when the database did not answer in time, and keeps other failures internal", async () => {
    const stalled = await errorOf(createCaller(contextFor(null)).stalled());
    expect(stalled).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE_MESSAGE });
    expect((await errorOf(createCaller(contextFor(null)).broken())).code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("answers invalid input with BAD_REQUEST", async () => {
    expect((await errorOf(createCaller(contextFor(null)).open({ quantity: 0 }))).code).toBe("BAD_REQUEST");
  });
});
