import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSession } from "@/server/auth/session";
import { hashSessionToken, withHashedSessions } from "@/server/auth/session-token";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { sql } from "drizzle-orm";
import { account, session, user, verificationToken } from "@/server/db/schema";
import { appRouter } from "@/server/root";
import { createTRPCContext } from "@/server/trpc-context";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";

// A cookie that is not valid percent-encoding (a truncated UTF-8 sequence), as a broken client or a prober sends.
const MALFORMED = "authjs.session-token=%E0%A4%A";

let t: TestDatabase;
let userId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  const [row] = await t.db.insert(user).values({ email: "clara@example.com", name: "Clara" }).returning({ id: user.id });
  userId = row!.id;
  await t.db.insert(session).values({ sessionToken: hashSessionToken("token with space"), userId, expires: new Date(Date.now() + 3_600_000) });
});

afterAll(async () => {
  await t?.dispose();
});

describe("readSession", () => {
  it("treats a session cookie that is not valid percent-encoding as no session", async () => {
    expect(await readSession(t.db, new Headers({ cookie: MALFORMED }))).toBeNull();
  });

  it("still finds the session of a well-formed, percent-encoded cookie", async () => {
    const found = await readSession(t.db, new Headers({ cookie: `theme-mode=dark; authjs.session-token=${encodeURIComponent("token with space")}` }));
    expect(found?.user).toMatchObject({ id: userId, email: "clara@example.com" });
  });
});

describe("sessions at rest (SECURITY-REVIEW N-M6)", () => {
  it("are kept under their token's hash: the cookie's token is nowhere in the table, and still signs its owner in", async () => {
    const adapter = withHashedSessions(DrizzleAdapter(t.db, { usersTable: user, accountsTable: account, sessionsTable: session, verificationTokensTable: verificationToken }));
    const token = "a-session-token-the-cookie-holds-0123456789abcdef";
    const created = await adapter.createSession!({ sessionToken: token, userId, expires: new Date(Date.now() + 3_600_000) });
    expect(created.sessionToken).toBe(token);

    const stored = await queryRows<Record<string, unknown>>(t.db, sql`select * from session`);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.map((row) => row.session_token)).toContain(hashSessionToken(token));

    expect((await adapter.getSessionAndUser!(token))?.user).toMatchObject({ id: userId });
    expect(await readSession(t.db, new Headers({ cookie: `authjs.session-token=${token}` }))).toMatchObject({ user: { id: userId } });
    // The hash itself, sent as a cookie, is no key: a copy of the table signs nobody in.
    expect(await readSession(t.db, new Headers({ cookie: `authjs.session-token=${hashSessionToken(token)}` }))).toBeNull();
    await adapter.deleteSession!(token);
    expect(await adapter.getSessionAndUser!(token)).toBeNull();
  });
});

describe("GET /api/trpc with a malformed session cookie", () => {
  it("answers shared.navbar.getNavbarData as for a visitor instead of failing", async () => {
    const request = new Request("http://localhost/api/trpc/shared.navbar.getNavbarData", { headers: { cookie: MALFORMED } });
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: appRouter,
      createContext: () => createTRPCContext({ headers: request.headers, requestId: "test", db: t.db }),
    });
    expect(response.status).toBe(200);
  });
});
