import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSession } from "@/server/auth/session";
import { session, user } from "@/server/db/schema";
import { appRouter } from "@/server/root";
import { createTRPCContext } from "@/server/trpc";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";

// A cookie that is not valid percent-encoding (a truncated UTF-8 sequence), as a broken client or a prober sends.
const MALFORMED = "authjs.session-token=%E0%A4%A";

let t: TestDatabase;
let userId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  const [row] = await t.db.insert(user).values({ email: "clara@example.com", name: "Clara" }).returning({ id: user.id });
  userId = row!.id;
  await t.db.insert(session).values({ sessionToken: "token with space", userId, expires: new Date(Date.now() + 3_600_000) });
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
