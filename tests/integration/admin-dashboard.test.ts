import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminNotification, logbook } from "@/server/db/schema";
import { getSidebarInformation } from "@/server/admin/sidebar-service";
import { createEcbExchangeRate } from "@/server/integrations/exchange-rate/live";
import { getLogbookEntry, listLogbook, markLogbookLevelRead, markLogbookRead, unreadLogCounts } from "@/server/logbook/service";
import { listNotifications, markNotificationRead } from "@/server/notifications/service";
import { exchangeRateInfo, refreshExchangeRate } from "@/server/stock/exchange-rate";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { makeUser, setExchangeRate } from "../helpers/admin-fixtures";

let t: TestDatabase;
let ada: { id: string };
let bob: { id: string };

beforeAll(async () => {
  t = await createTestDatabase();
  ada = await makeUser(t.db, "ADMIN", "Ada");
  bob = await makeUser(t.db, "ADMIN", "Bob");
  await setExchangeRate(t.db, "60.00");
});

afterAll(() => t?.dispose());

describe("logbook read tracking", () => {
  it("counts unread entries per staff member and level, and reading one changes only that member's counts", async () => {
    await t.db.insert(logbook).values([
      { eventType: "DEPLOY", logLevel: "INFO", description: "Deployed" },
      { eventType: "EMAIL", logLevel: "WARNING", description: "Mail slow" },
      { eventType: "WEBHOOK", logLevel: "ERROR", description: "Bad signature", errorData: { reason: "mismatch" } },
      { eventType: "WEBHOOK", logLevel: "ERROR", description: "Replay ignored" },
    ]);
    expect(await unreadLogCounts(t.db, ada.id)).toEqual({ totalCount: 4, infoCount: 1, warningCount: 1, errorCount: 2 });
    const errors = await listLogbook(t.db, ada.id, { level: "ERROR", unreadOnly: false, page: 1, pageSize: 50 });
    expect(errors.rows.map((row) => row.description)).toEqual(["Replay ignored", "Bad signature"]);
    const detail = await getLogbookEntry(t.db, ada.id, errors.rows[1]!.id);
    expect(detail).toMatchObject({ read: true, errorData: { reason: "mismatch" } });
    await markLogbookRead(t.db, ada.id, [errors.rows[1]!.id]);
    expect((await getSidebarInformation(t.db, ada.id)).logbook).toEqual({ totalCount: 3, warningCount: 1, errorCount: 1 });
    expect((await getSidebarInformation(t.db, bob.id)).logbook).toEqual({ totalCount: 4, warningCount: 1, errorCount: 2 });
    await markLogbookLevelRead(t.db, ada.id, "ERROR");
    expect((await unreadLogCounts(t.db, ada.id)).errorCount).toBe(0);
    const unread = await listLogbook(t.db, ada.id, { level: "ERROR", unreadOnly: true, page: 1, pageSize: 50 });
    expect(unread.totalItems).toBe(0);
    const searched = await listLogbook(t.db, bob.id, { level: "ERROR", search: "signature", unreadOnly: false, page: 1, pageSize: 25 });
    expect(searched.rows.map((row) => row.description)).toEqual(["Bad signature"]);
  });
});

describe("admin notifications", () => {
  it("lists unread first and marks one read by its first reader", async () => {
    const [first] = await t.db
      .insert(adminNotification)
      .values([
        { type: "REFUND", severity: "ERROR", message: "Refund failed" },
        { type: "ORDER", severity: "INFO", message: "Order BC-2026-000042 is paid (€10.00) and ready to ship" },
      ])
      .returning();
    expect((await listNotifications(t.db, { unreadOnly: true, limit: 20 })).unread).toBe(2);
    await markNotificationRead(t.db, first!.id, ada.id);
    await markNotificationRead(t.db, first!.id, bob.id);
    const list = await listNotifications(t.db, { unreadOnly: false, limit: 20 });
    expect(list.unread).toBe(1);
    expect(list.rows.at(-1)).toMatchObject({ message: "Refund failed", readBy: "Ada", href: null });
    // A notification about an order leads to it.
    expect(list.rows[0]).toMatchObject({ readBy: null, href: "/admin/orders/BC-2026-000042" });
    await expect(markNotificationRead(t.db, 999_999, ada.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("exchange rate", () => {
  it("refreshes the stored rate from the ECB feed and logs old and new", async () => {
    const server = createServer((_request, response) => {
      response.setHeader("content-type", "text/xml");
      response.end(`<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube><Cube time='2026-05-04'><Cube currency='USD' rate='1.0876'/><Cube currency='PHP' rate='63.412'/></Cube></Cube>
</gesmes:Envelope>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = createEcbExchangeRate({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml` });
      const info = await refreshExchangeRate(t.db, port, ada.id);
      expect(info.rate.toFixed(3)).toBe("63.412");
      expect((await exchangeRateInfo(t.db, port)).source).toBe("live");
      const [entry] = await t.db.select().from(logbook).where(eq(logbook.description, "Euro to peso rate set to 63.412 (ECB, 2026-05-04)"));
      expect(entry).toMatchObject({ previousState: { EUR_TO_PHP_EXCHANGE_RATE: "60.00" }, newState: { EUR_TO_PHP_EXCHANGE_RATE: "63.412" } });
    } finally {
      server.close();
    }
  });

  it("keeps the last rate, warns and tells staff when the feed fails", async () => {
    const failing = { kind: "live" as const, eurToPhp: () => Promise.reject(new Error("HTTP 503")), probe: () => Promise.reject(new Error("HTTP 503")) };
    await expect(refreshExchangeRate(t.db, failing, ada.id)).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    expect((await exchangeRateInfo(t.db, failing)).rate.toFixed(3)).toBe("63.412");
    const warnings = await t.db.select().from(adminNotification).where(eq(adminNotification.severity, "WARNING"));
    expect(warnings.map((row) => row.message)).toContain("The euro to peso rate could not be refreshed: HTTP 503");
  });
});
