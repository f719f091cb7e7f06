import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assignInvoiceNumber } from "@/server/fulfilment/documents/invoice-number";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { enqueueJob } from "@/server/jobs/queue";
import { orderExpirySweepJob } from "@/server/orders/jobs";
import { transitionOrder } from "@/server/orders/service";
import { rateLimitPruneJob } from "@/server/rate-limit/jobs";
import { stockReconciliationJob } from "@/server/stock/jobs";
import { hashSessionToken } from "@/server/auth/session-token";
import { makeSession, makeUser } from "../../../tests/helpers/admin-fixtures";
import { placeOneWatchOrder } from "../../../tests/helpers/factories";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";
import { backupDatabase, restoreDatabase } from "./backup";
import { openDatabase, type Db } from "./client";
import { runMigrations } from "@/server/setup/migrate";
import { seedDatabase } from "@/server/setup/seed/seed";

let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), "db-backup-"));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/** How many rows each table of the shop holds, the migrations' own bookkeeping included. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [schemaName, tableName] = name.split(".");
    const [row] = await queryRows<{ count: string | number }>(db, sql.raw(`select count(*) as count from "${schemaName}"."${tableName}"`));
    counts[name] = Number(row?.count);
  }
  return counts;
}

async function seedDemo(db: Db): Promise<void> {
  await seedDatabase(db, createSandboxStorage({ root: path.join(workDir, "storage") }), { products: 20, images: 0 });
}

/**
 * Every table's rows as one checksum each, in the shop's schemas and the job queue's (its partitions included), so
 * that a restore can be compared with the database at backup time row for row, not only by count.
 */
async function tableChecksums(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema in ('public', 'drizzle', 'pgboss') and table_type = 'BASE TABLE' order by 1`,
  );
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const [schemaName, tableName] = name.split(".");
    const [row] = await queryRows<{ sum: string | null; count: string | number }>(
      db,
      sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum, count(*) as count from "${schemaName}"."${tableName}" t`),
    );
    sums[name] = `${Number(row?.count)} rows ${row?.sum}`;
  }
  return sums;
}

/** A shop that has run: orders placed, one paid and invoiced, and jobs waiting in three queues. */
async function runTheShop(db: Db, round: number, now: Date): Promise<void> {
  const first = await placeOneWatchOrder(db, { email: `round${round}.a@example.com`, method: "IDEAL", now });
  await placeOneWatchOrder(db, { email: `round${round}.b@example.com`, method: "CREDITCARD", now });
  await db.transaction((tx) => transitionOrder(tx, first.orderId, "PAID_READY_TO_SHIP", { userId: null, description: "Paid in the test", now }));
  await assignInvoiceNumber(db, first.orderId, { userId: null, now });
  for (const job of [orderExpirySweepJob, rateLimitPruneJob, stockReconciliationJob]) await enqueueJob(db, job, {});
}

type Numbers = { orders: number; invoices: number };

/** The order numbers handed out, and the invoice numbers of 2026. */
async function numbersOf(db: Db): Promise<Numbers> {
  const [orders] = await queryRows<{ n: string }>(db, sql`select case when is_called then last_value else 0 end as n from order_number_seq`);
  const [invoices] = await queryRows<{ n: string | null }>(db, sql`select max(last_number) as n from invoice_counter where year = 2026`);
  return { orders: Number(orders!.n), invoices: Number(invoices?.n ?? 0) };
}

/** What a restore to `atBackup` says was lost after one more round of `runTheShop`: two orders, one invoice. */
const lostSince = (atBackup: Numbers) => [
  `order numbers ${atBackup.orders + 1} to ${atBackup.orders + 2} (the last six digits); they will not be given out again`,
  `invoice 2026-${String(atBackup.invoices + 1).padStart(6, "0")}, which was made and is not in the backup; keep its copy for the books`,
];

describe("backup and restore of the embedded database", () => {
  it("restores into a fresh folder with the same rows in every table; never from under an open database", async () => {
    const source = path.join(workDir, "source", "pglite");
    const database = openDatabase({ dataDir: source });
    let counts: Record<string, number>;
    try {
      await runMigrations(database);
      await seedDemo(database.db);
      counts = await rowCounts(database.db);
      await expect(backupDatabase({ kind: "pglite", dataDir: source }, path.join(workDir, "torn.tar.gz"))).rejects.toThrow(
        "database folder in use",
      );
    } finally {
      await database.close();
    }
    expect(counts["public.product"]).toBe(20);

    const file = path.join(workDir, "backups", "shop.tar.gz");
    const backup = await backupDatabase({ kind: "pglite", dataDir: source }, file);
    expect(backup.bytes).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o077).toBe(0);

    const target = path.join(workDir, "fresh", "pglite");
    expect(await restoreDatabase({ kind: "pglite", dataDir: target }, file)).toEqual({ replacedFolder: null, lostNumbers: [] });
    const restored = openDatabase({ dataDir: target });
    try {
      expect(await rowCounts(restored.db)).toEqual(counts);
    } finally {
      await restored.close();
    }

    await expect(restoreDatabase({ kind: "pglite", dataDir: target }, file)).rejects.toThrow("already holds a database");
    const { replacedFolder } = await restoreDatabase({ kind: "pglite", dataDir: target }, file, { force: true });
    expect(replacedFolder && existsSync(path.join(replacedFolder, "PG_VERSION"))).toBe(true);
  }, 240_000);

  it("writes the archive's entries owner-only, under relative names, and holds no session's token (N-M6)", async () => {
    const source = path.join(workDir, "modes", "pglite");
    const database = openDatabase({ dataDir: source });
    let token: string;
    try {
      await runMigrations(database);
      const admin = await makeUser(database.db, "ADMIN");
      token = await makeSession(database.db, admin.id);
    } finally {
      await database.close();
    }
    const file = path.join(workDir, "modes.tar.gz");
    await backupDatabase({ kind: "pglite", dataDir: source }, file);

    const tar = gunzipSync(readFileSync(file));
    // Whoever reads the backup finds the session's hash, which signs nobody in, and not the cookie's token.
    expect(tar.includes(Buffer.from(hashSessionToken(token)))).toBe(true);
    expect(tar.includes(Buffer.from(token))).toBe(false);
    const entries = tarEntries(tar);
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.filter((entry) => entry.mode & 0o077)).toEqual([]);
    expect(entries.filter((entry) => entry.name.startsWith("/"))).toEqual([]);
    expect(entries.filter((entry) => entry.type === "5").every((entry) => entry.mode === 0o700)).toBe(true);
    expect(entries.find((entry) => entry.name === "PG_VERSION")).toMatchObject({ mode: 0o600 });
  }, 120_000);

  it("keeps the order and invoice numbers a replaced database handed out after the backup, and names those lost", async () => {
    const now = new Date("2026-11-20T10:00:00Z");
    const source = path.join(workDir, "numbers", "pglite");
    let database = openDatabase({ dataDir: source });
    let atBackup: Numbers;
    try {
      await runMigrations(database);
      await seedDemo(database.db);
      await runTheShop(database.db, 1, now);
      atBackup = await numbersOf(database.db);
    } finally {
      await database.close();
    }
    const file = path.join(workDir, "numbers.tar.gz");
    await backupDatabase({ kind: "pglite", dataDir: source }, file);
    database = openDatabase({ dataDir: source });
    try {
      await runTheShop(database.db, 2, now);
    } finally {
      await database.close();
    }

    const { lostNumbers } = await restoreDatabase({ kind: "pglite", dataDir: source }, file, { force: true });
    expect(lostNumbers).toEqual(lostSince(atBackup));
    database = openDatabase({ dataDir: source });
    try {
      expect(await numbersOf(database.db)).toEqual({ orders: atBackup.orders + 2, invoices: atBackup.invoices + 1 });
      const next = await placeOneWatchOrder(database.db, { email: "after@example.com", method: "IDEAL", now });
      expect(next.orderNumber).toBe(`BC-2026-${String(atBackup.orders + 3).padStart(6, "0")}`);
    } finally {
      await database.close();
    }
  }, 240_000);
});

/** A tar archive's entries: name, mode and type, read from their headers. */
function tarEntries(tar: Buffer): { name: string; mode: number; type: string }[] {
  const entries: { name: string; mode: number; type: string }[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (at: number, length: number) => header.toString("latin1", at, at + length).replace(/\0.*$/s, "");
    const size = parseInt(field(124, 12).trim() || "0", 8);
    entries.push({ name: field(0, 100), mode: parseInt(field(100, 8).trim(), 8), type: field(156, 1) });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("backup and restore on PostgreSQL", () => {
  let source: TestDatabase;
  let target: TestDatabase;

  beforeAll(async () => {
    source = await createTestDatabase();
    target = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await source?.dispose();
    await target?.dispose();
  });

  it("restores into an empty database with the same rows in every table, and over one that has tables only with force", async () => {
    await seedDemo(source.db);
    const counts = await rowCounts(source.db);
    const file = path.join(workDir, "shop.pgdump");

    await backupDatabase({ kind: "postgres", url: source.database.url! }, file);
    await restoreDatabase({ kind: "postgres", url: target.database.url! }, file);

    expect(await rowCounts(target.db)).toEqual(counts);
    await expect(restoreDatabase({ kind: "postgres", url: target.database.url! }, file)).rejects.toThrow("already has");
    await restoreDatabase({ kind: "postgres", url: target.database.url! }, file, { force: true });
    expect(await rowCounts(target.db)).toEqual(counts);
    await expect(restoreDatabase({ kind: "pglite", dataDir: path.join(workDir, "other", "pglite") }, file)).rejects.toThrow(
      "backup of a PostgreSQL database",
    );
  }, 120_000);

  it("restores with force over a database the shop has run on, jobs and all, exactly, keeping the numbers it handed out since", async () => {
    const now = new Date("2026-11-20T10:00:00Z");
    const used = await createTestDatabase();
    try {
      await seedDemo(used.db);
      await runTheShop(used.db, 1, now);
      const atBackup = await tableChecksums(used.db);
      const numbersAtBackup = await numbersOf(used.db);
      // The queues share pg-boss's default partition of its partitioned job table.
      expect(Number(atBackup["pgboss.job_common"]?.split(" ")[0])).toBeGreaterThanOrEqual(3);
      const file = path.join(workDir, "used.pgdump");
      await backupDatabase({ kind: "postgres", url: used.database.url! }, file);

      // The shop goes on: more orders, another invoice, more jobs; then the backup is put back over it.
      await runTheShop(used.db, 2, now);
      const { lostNumbers } = await restoreDatabase({ kind: "postgres", url: used.database.url! }, file, { force: true });

      expect(lostNumbers).toEqual(lostSince(numbersAtBackup));
      const restored = await tableChecksums(used.db);
      // Every row as it was, but the invoice counter, which keeps the number handed out since.
      expect({ ...restored, "public.invoice_counter": "" }).toEqual({ ...atBackup, "public.invoice_counter": "" });
      expect(await numbersOf(used.db)).toEqual({ orders: numbersAtBackup.orders + 2, invoices: numbersAtBackup.invoices + 1 });
      const next = await placeOneWatchOrder(used.db, { email: "after@example.com", method: "IDEAL", now });
      expect(next.orderNumber).toBe(`BC-2026-${String(numbersAtBackup.orders + 3).padStart(6, "0")}`);
    } finally {
      await used.dispose();
    }
  }, 240_000);

  it("leaves the database as it was when the backup cannot be read", async () => {
    const used = await createTestDatabase();
    try {
      await seedDemo(used.db);
      await runTheShop(used.db, 1, new Date("2026-11-20T10:00:00Z"));
      const before = await tableChecksums(used.db);
      const torn = path.join(workDir, "torn.pgdump");
      const whole = path.join(workDir, "whole.pgdump");
      await backupDatabase({ kind: "postgres", url: used.database.url! }, whole);
      const bytes = readFileSync(whole);
      writeFileSync(torn, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      await expect(restoreDatabase({ kind: "postgres", url: used.database.url! }, torn, { force: true })).rejects.toThrow("the database is as it was");
      expect(await tableChecksums(used.db)).toEqual(before);
    } finally {
      await used.dispose();
    }
  }, 240_000);
});
