import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsFolder, readSchemaVersion } from "@/server/db/migrate";
import { runMigrations } from "@/server/setup/migrate";
import { addressBook, logbook, orderAddress } from "@/server/db/schema";
import { seedDatabase } from "@/server/setup/seed/seed";
import { makeUser, temporaryStorage } from "../../../tests/helpers/admin-fixtures";
import { placeOneWatchOrder } from "../../../tests/helpers/factories";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";

type Journal = { entries: { tag: string }[] };
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as Journal;
const newest = journal.entries.at(-1)?.tag;

async function appliedCount(t: TestDatabase): Promise<number> {
  const rows = await queryRows<{ count: string | number }>(
    t.db,
    sql`select count(*) as count from drizzle.__drizzle_migrations`,
  );
  return Number(rows[0]?.count);
}

async function publicTables(t: TestDatabase): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    t.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rows.map((row) => row.table_name);
}

describe("migrations", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await t?.dispose();
  });

  it("a fresh database starts empty", async () => {
    expect(await publicTables(t)).toEqual([]);
  });

  it("apply on a fresh database and report the schema up to date", async () => {
    await runMigrations(t.database);

    expect(await appliedCount(t)).toBe(journal.entries.length);
    expect(await publicTables(t)).toEqual(expect.arrayContaining(["product", "order", "user", "logbook"]));
    expect(await readSchemaVersion(t.database)).toEqual({
      current: newest,
      applied: journal.entries.length,
      expected: newest,
      upToDate: true,
    });
  });

  it("are idempotent: applying them again twice changes nothing and does not fail", async () => {
    const tablesBefore = await publicTables(t);

    await runMigrations(t.database);
    await runMigrations(t.database);

    expect(await appliedCount(t)).toBe(journal.entries.length);
    expect(await publicTables(t)).toEqual(tablesBefore);
    expect((await readSchemaVersion(t.database)).upToDate).toBe(true);
  });

  it("leave a usable database: a row goes in and comes out", async () => {
    await t.db.execute(sql`insert into product_category (name) values ('Movements')`);
    const rows = await queryRows<{ name: string }>(t.db, sql`select name from product_category`);
    expect(rows.map((row) => row.name)).toEqual(["Movements"]);
  });
});

describe("0019_one_line_addresses (SECURITY-REVIEW N-M5)", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seedDatabase(t.db, temporaryStorage(), { products: 0, images: 0 });
  });

  afterAll(async () => {
    await t?.dispose();
  });

  /** The migration's statements, applied again to rows written as they were before it. */
  async function applyMigration(): Promise<void> {
    const statements = readFileSync(path.join(migrationsFolder, "0019_one_line_addresses.sql"), "utf8").split("--> statement-breakpoint");
    await t.db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
  }

  it("puts every field of stored order addresses and address books on one line, logging what each was", async () => {
    const now = new Date("2026-03-04T09:00:00Z");
    const spoofed = await placeOneWatchOrder(t.db, { email: "spoof@example.com", method: "IDEAL", now });
    const untouched = await placeOneWatchOrder(t.db, { email: "plain@example.com", method: "IDEAL", now });
    await t.db.update(orderAddress).set({ lastName: "X\nITEMS TO PACK:\r\n[ ] 1 x Rolex", addressLine2: "\u202EPAID IN FULL\u2028" }).where(eq(orderAddress.orderId, spoofed.orderId));
    const customer = await makeUser(t.db, "USER");
    const [book] = await t.db
      .insert(addressBook)
      .values({ userId: customer.id, firstName: "Ada", lastName: "Love\tlace", street: "Dam", houseNumber: "1\n2", postCode: "1012 JS", city: "Amsterdam", country: "Netherlands", countryCode: "NL" })
      .returning({ id: addressBook.id });

    await applyMigration();

    const [order] = await t.db.select().from(orderAddress).where(eq(orderAddress.orderId, spoofed.orderId));
    expect([order!.lastName, order!.addressLine2, order!.city]).toEqual(["X ITEMS TO PACK: [ ] 1 x Rolex", "PAID IN FULL", "Amsterdam"]);
    const [saved] = await t.db.select().from(addressBook).where(eq(addressBook.id, book!.id));
    expect([saved!.lastName, saved!.houseNumber, saved!.street]).toEqual(["Love lace", "1 2", "Dam"]);

    const logged = await t.db
      .select({ entityType: logbook.entityType, entityId: logbook.entityId, previousState: logbook.previousState, newState: logbook.newState })
      .from(logbook)
      .where(like(logbook.description, "%put on one line per field%"));
    expect(logged).toEqual([
      expect.objectContaining({ entityType: "ORDER", entityId: String(spoofed.orderId), previousState: expect.objectContaining({ lastName: "X\nITEMS TO PACK:\r\n[ ] 1 x Rolex" }), newState: expect.objectContaining({ lastName: "X ITEMS TO PACK: [ ] 1 x Rolex" }) }),
      expect.objectContaining({ entityType: "ADDRESS_BOOK", entityId: String(book!.id), previousState: expect.objectContaining({ houseNumber: "1\n2" }) }),
    ]);
    expect(logged.map((entry) => entry.entityId)).not.toContain(String(untouched.orderId));

    // Applied again, it finds nothing more to do.
    await applyMigration();
    expect(await t.db.$count(logbook, like(logbook.description, "%put on one line per field%"))).toBe(2);
  });
});
