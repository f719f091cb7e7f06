import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/server/db/client";
import { user } from "@/server/db/schema";
import { checkHealth, healthReportFor, type HealthReport } from "@/server/health/service";
import { makeSession } from "../../../tests/helpers/admin-fixtures";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";

// A PostgreSQL address where nothing listens, with a database user the answer must not name to strangers.
const UNREACHABLE_URL = "postgres://shop_owner:secret@127.0.0.1:9/shop";

let t: TestDatabase;
let unreachable: Database;
let down: HealthReport;
let up: HealthReport;

const fromAddress = (address: string, cookie?: string) =>
  new Headers({ "x-forwarded-for": address, ...(cookie ? { cookie: `authjs.session-token=${cookie}` } : {}) });

async function signedIn(role: "ADMIN" | "USER"): Promise<string> {
  const [row] = await t.db.insert(user).values({ email: `${role.toLowerCase()}@example.com`, role }).returning({ id: user.id });
  return makeSession(t.db, row!.id);
}

let adminToken: string;
let customerToken: string;

beforeAll(async () => {
  t = await createTestDatabase();
  unreachable = openDatabase({ url: UNREACHABLE_URL });
  down = await checkHealth(unreachable);
  up = await checkHealth(t.database);
  adminToken = await signedIn("ADMIN");
  customerToken = await signedIn("USER");
});

afterAll(async () => {
  await unreachable?.close();
  await t?.dispose();
});

describe("GET /api/health as each caller reads it", () => {
  it("tells a stranger only that the database is down, not why", async () => {
    expect(down.database.error).toMatch(/ECONNREFUSED/);
    const answer = await healthReportFor(down, t.db, fromAddress("203.0.113.7"));
    expect(answer).toEqual({ status: "down", checkedAt: down.checkedAt });
    expect(JSON.stringify(answer)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|shop_owner/);
  });

  it("tells a stranger that the shop is up, without naming its database or migration", async () => {
    expect(await healthReportFor(up, t.db, fromAddress("203.0.113.7"))).toEqual({ status: "ok", checkedAt: up.checkedAt });
  });

  it("gives a signed-in customer no more than a stranger", async () => {
    expect(await healthReportFor(up, t.db, fromAddress("203.0.113.7", customerToken))).toEqual({ status: "ok", checkedAt: up.checkedAt });
  });

  it("gives shop staff the whole report", async () => {
    expect(await healthReportFor(up, t.db, fromAddress("203.0.113.7", adminToken))).toEqual(up);
  });

  it("gives the server's own machine the database error", async () => {
    expect(await healthReportFor(down, t.db, fromAddress("127.0.0.1"))).toEqual(down);
    expect(await healthReportFor(down, t.db, fromAddress("::1"))).toMatchObject({ database: { error: expect.stringMatching(/ECONNREFUSED/) } });
  });
});
