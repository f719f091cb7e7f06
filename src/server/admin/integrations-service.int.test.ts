import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { env } from "@/env";
import { logbook, rateLimit } from "@/server/db/schema";
import { createCaller } from "@/server/root";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { integrationPorts } from "./integrations-schemas";
import { connectionTestLimit, connectionTestsInAllLimit, expiryState, getIntegrationsOverview, testConnection } from "./integrations-service";

/**
 * Issue 30, acceptance 4 (the owner's integrations page), with sandbox integrations: what the page reads, Test
 * connection's answer and logbook entry, its limit, and who may use it. Live settings against the stand-ins are in
 * integrations-live.int.test.ts.
 */

const t = databaseForFile();
let staff: Awaited<ReturnType<typeof makeUser>>;
let customer: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  // The sandbox marketplace and payments open the process's database.
  (globalThis as { shopDatabase?: unknown }).shopDatabase = t.database;
  staff = await makeUser(t.db, "ADMIN", "Owner");
  customer = await makeUser(t.db, "USER", "A customer");
});

beforeEach(async () => {
  await t.db.delete(rateLimit);
});

describe("the integrations page with sandbox integrations", () => {
  it("shows every port in sandbox mode, with nothing to set", async () => {
    const overview = await getIntegrationsOverview(t.db);
    expect(overview.integrations).toBe("sandbox");
    expect(overview.rows.map((row) => row.port)).toEqual([...integrationPorts]);
    for (const row of overview.rows) expect(row, row.port).toMatchObject({ mode: "sandbox", endpoint: null, settings: [] });
    expect(overview.ebay).toMatchObject({ mode: "sandbox", accessTokenExpiresAt: null, refreshTokenExpiresAt: null, signingKey: { state: "not set up" } });
  });

  it("builds the webhook addresses on the shop's configured address, Mollie's without its secret", async () => {
    const overview = await getIntegrationsOverview(t.db);
    const base = (env.AUTH_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
    expect(overview.shopUrl).toBe(base);
    expect(overview.webhooks.map((webhook) => [webhook.provider, webhook.url])).toEqual([
      ["Mollie", `${base}/api/webhooks/mollie`],
      ["PayPal", `${base}/api/webhooks/paypal`],
      ["eBay", `${base}/api/webhooks/ebay`],
    ]);
    expect(JSON.stringify(overview)).not.toContain(env.WEBHOOK_SECRET);
  });

  it("answers a Test connection of a sandbox with 'nothing to check' and logs who tested what", async () => {
    const result = await testConnection(t.db, staff.id, "mollie");
    expect(result).toMatchObject({ port: "mollie", outcome: "ok", message: "sandbox, nothing to check" });
    const [entry] = await t.db
      .select()
      .from(logbook)
      .where(and(eq(logbook.userId, staff.id), eq(logbook.eventType, "HEALTH_CHECK")));
    expect(entry).toMatchObject({ logLevel: "INFO", description: expect.stringMatching(/^Tested the connection to Mollie: ok in \d+ ms$/) });
    expect(entry!.newState).toMatchObject({ port: "mollie", outcome: "ok", message: "sandbox, nothing to check" });
  });

  it("tests every sandbox port the same way", async () => {
    for (const port of integrationPorts) {
      await t.db.delete(rateLimit);
      expect(await testConnection(t.db, staff.id, port), port).toMatchObject({ outcome: "ok", message: "sandbox, nothing to check" });
    }
  });

  it(`allows ${connectionTestLimit.limit} tests a minute per staff member and port, then refuses with when to try again`, async () => {
    const at = new Date("2026-11-29T10:00:00Z");
    for (let i = 0; i < connectionTestLimit.limit; i++) await testConnection(t.db, staff.id, "ups", { now: () => at });
    await expect(testConnection(t.db, staff.id, "ups", { now: () => at })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: "Too many connection tests: try again in 60 seconds." });
    // Another port may still be tested, another member of staff has counts of their own, and a minute later the first may test again.
    await expect(testConnection(t.db, staff.id, "postnl", { now: () => at })).resolves.toMatchObject({ outcome: "ok" });
    const colleague = await makeUser(t.db, "ADMIN", "Colleague");
    await expect(testConnection(t.db, colleague.id, "ups", { now: () => at })).resolves.toMatchObject({ outcome: "ok" });
    await expect(testConnection(t.db, staff.id, "ups", { now: () => new Date(at.getTime() + 60_001) })).resolves.toMatchObject({ outcome: "ok" });
  });

  it(`allows ${connectionTestsInAllLimit.limit} tests a minute per staff member in all: every port once and a few retries`, async () => {
    const at = new Date("2026-11-29T11:00:00Z");
    const ports = [...integrationPorts, ...integrationPorts];
    for (const port of ports.slice(0, connectionTestsInAllLimit.limit)) await testConnection(t.db, staff.id, port, { now: () => at });
    await expect(testConnection(t.db, staff.id, ports[connectionTestsInAllLimit.limit]!, { now: () => at })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("serves the page and its tests to staff only", async () => {
    const asStaff = createCaller(contextFor(t.db, staff));
    await expect(asStaff.admin.integrations.get()).resolves.toMatchObject({ integrations: "sandbox" });
    await expect(asStaff.admin.integrations.testConnection({ port: "ebay" })).resolves.toMatchObject({ outcome: "ok" });
    await expect(asStaff.admin.integrations.testConnection({ port: "nope" as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const asCustomer = createCaller(contextFor(t.db, customer));
    await expect(asCustomer.admin.integrations.get()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asCustomer.admin.integrations.testConnection({ port: "ebay" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const anonymous = createCaller(contextFor(t.db, null));
    await expect(anonymous.admin.integrations.get()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.admin.integrations.testConnection({ port: "ebay" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // Nothing was tested, and nothing logged, for those who may not.
    const entries = await t.db.select().from(logbook).where(eq(logbook.userId, customer.id));
    expect(entries).toEqual([]);
  });
});

describe("the refresh token's warning", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);
  it("is ok beyond 30 days, 'soon' within them, 'expired' after, and unknown when not told", () => {
    expect(expiryState(inDays(31), now, 30)).toBe("ok");
    expect(expiryState(inDays(30), now, 30)).toBe("soon");
    expect(expiryState(inDays(1), now, 30)).toBe("soon");
    expect(expiryState(inDays(0), now, 30)).toBe("expired");
    expect(expiryState(null, now, 30)).toBe("unknown");
  });
});
