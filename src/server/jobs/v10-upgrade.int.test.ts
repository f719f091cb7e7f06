import { readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Database } from "@/server/db/client";
import { runMigrations } from "@/server/setup/migrate";
import { logger } from "@/server/logger";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../tests/helpers/test-database";
import { jobsOverview } from "./admin-service";
import { defineJob } from "./define";
import { enqueueJob } from "./queue";
import { setAsideV10Schema } from "./v10-upgrade";
import { runWaitingJobs, startJobWorker } from "./worker";

/**
 * A shop that ran on pg-boss 10 is started with this version: its migrations move the job queue to pg-boss 12's
 * tables in place, and every job carries on as it would have. The database is made with pg-boss 10.4.2's own
 * schema script, and its rows are written as pg-boss 10 wrote them.
 */

const v10Schema = readFileSync(path.join(import.meta.dirname, "v10-upgrade.fixture.sql"), "utf8");

/** A script of several statements, as pg-boss 10 ran its own: PostgreSQL's simple protocol, or PGlite's `exec`. */
async function runScript(database: Database, text: string): Promise<void> {
  if (database.kind === "pglite") {
    await (database.db as unknown as { $client: PGlite }).$client.exec(text);
    return;
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const ids = {
  waiting: "0b5e1e36-0000-4000-8000-000000000001",
  later: "0b5e1e36-0000-4000-8000-000000000002",
  running: "0b5e1e36-0000-4000-8000-000000000003",
  retrying: "0b5e1e36-0000-4000-8000-000000000004",
  failed: "0b5e1e36-0000-4000-8000-000000000005",
  done: "0b5e1e36-0000-4000-8000-000000000006",
  archivedDone: "0b5e1e36-0000-4000-8000-000000000007",
  archivedNeverStarted: "0b5e1e36-0000-4000-8000-000000000008",
  ownCron: "0b5e1e36-0000-4000-8000-000000000009",
};

/**
 * pg-boss 10's tables with what a running shop leaves in them: an e-mail waiting (under a singleton key), a check
 * due in an hour, a label whose worker died while making it, a tracking poll waiting for its retry, a push failed
 * for good, a sweep done an hour ago, and in the archive a sweep done 13 hours ago and a job that never started in
 * time; pg-boss's own cron job and a schedule beside them.
 */
async function makeV10Database(database: Database): Promise<void> {
  await runScript(database, v10Schema);
  for (const name of ["email", "check", "label", "tracking", "push", "sweep", "__pgboss__send-it"]) {
    await database.db.execute(sql`select pgboss.create_queue(${name}, '{"policy":"standard"}'::json)`);
  }
  const error = (message: string) => JSON.stringify({ name: "Error", message, stack: `Error: ${message}\n    at run (jobs.ts:1:1)` });
  await database.db.execute(sql`
    insert into pgboss.job (id, name, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key,
      expire_in, created_on, completed_on, keep_until, output, policy) values
    (${ids.waiting}, 'email', '{"messageId": 41}', 'created', 3, 0, 10, true, now() - interval '1 minute', null, 'mail-41',
      interval '300 seconds', now() - interval '1 minute', null, now() + interval '14 days', null, 'standard'),
    (${ids.later}, 'check', '{}', 'created', 3, 0, 10, true, now() + interval '1 hour', null, null,
      interval '300 seconds', now() - interval '1 minute', null, now() + interval '14 days', null, 'standard'),
    (${ids.running}, 'label', '{"orderId": 7}', 'active', 3, 0, 10, true, now() - interval '10 minutes', now() - interval '10 minutes', null,
      interval '120 seconds', now() - interval '10 minutes', null, now() + interval '14 days', null, 'standard'),
    (${ids.retrying}, 'tracking', '{"orderId": 8}', 'retry', 3, 0, 10, true, now() - interval '5 seconds', now() - interval '1 minute', null,
      interval '300 seconds', now() - interval '2 minutes', null, now() + interval '14 days', ${error("the carrier did not answer")}, 'standard'),
    (${ids.failed}, 'push', '{"productId": 3}', 'failed', 1, 1, 0, false, now() - interval '2 hours', now() - interval '2 hours', null,
      interval '300 seconds', now() - interval '3 hours', now() - interval '2 hours', now() + interval '14 days', ${error("eBay refused the offer")}, 'standard'),
    (${ids.done}, 'sweep', '{}', 'completed', 0, 0, 0, false, now() - interval '1 hour', now() - interval '1 hour', null,
      interval '300 seconds', now() - interval '1 hour', now() - interval '1 hour', now() + interval '14 days', null, 'standard'),
    (${ids.ownCron}, '__pgboss__send-it', '{"name": "sweep"}', 'created', 0, 0, 0, false, now(), null, null,
      interval '300 seconds', now(), null, now() + interval '14 days', null, 'standard')`);
  await database.db.execute(sql`
    insert into pgboss.archive (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on,
      expire_in, created_on, completed_on, keep_until, policy, archived_on) values
    (${ids.archivedDone}, 'sweep', 0, '{}', 'completed', 0, 0, 0, false, now() - interval '13 hours', now() - interval '13 hours',
      interval '300 seconds', now() - interval '13 hours', now() - interval '13 hours', now() + interval '14 days', 'standard', now() - interval '1 hour'),
    (${ids.archivedNeverStarted}, 'label', 0, '{"orderId": 1}', 'created', 3, 0, 10, true, now() - interval '15 days', null,
      interval '120 seconds', now() - interval '15 days', null, now() - interval '1 day', 'standard', now() - interval '1 day')`);
  await database.db.execute(sql`insert into pgboss.schedule (name, cron, timezone, data, options) values ('sweep', '* * * * *', 'UTC', '{}', '{"tz": "UTC", "retryLimit": 0}')`);
}

const jobRows = (database: Database) =>
  queryRows<{ id: string; name: string; state: string; retry_count: number; singleton_key: string | null; data: unknown; message: string | null }>(
    database.db,
    sql`select id, name, state, retry_count, singleton_key, data, coalesce(output->>'message', output->'value'->>'message') as message
        from pgboss.job order by id`,
  );
const schemasNamedPgboss = async (database: Database) =>
  (await queryRows<{ name: string }>(database.db, sql`select nspname as name from pg_namespace where nspname like 'pgboss%' order by 1`)).map((row) => row.name);

/** A job of each kind that writes down its tries. */
function recordingJobs(tries: string[]) {
  return ["email", "check", "label", "tracking", "push", "sweep"].map((name) =>
    defineJob({
      name,
      schema: z.object({}).passthrough(),
      async run(_data, { jobId, attempt }) {
        tries.push(`${jobId} ${attempt}`);
      },
    }),
  );
}

describe("a database whose job queue pg-boss 10 kept", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await makeV10Database(t.database);
    await runMigrations(t.database);
  });

  afterAll(async () => {
    await t?.dispose();
  });

  it("is moved to pg-boss 12's tables by the migrations, with every job, its state, tries, key, data and error", async () => {
    expect(await queryRows(t.db, sql`select version from pgboss.version`)).toEqual([{ version: 46 }]);
    expect(await schemasNamedPgboss(t.database)).toEqual(["pgboss"]);
    expect(await jobRows(t.database)).toEqual([
      { id: ids.waiting, name: "email", state: "created", retry_count: 0, singleton_key: "mail-41", data: { messageId: 41 }, message: null },
      { id: ids.later, name: "check", state: "created", retry_count: 0, singleton_key: null, data: {}, message: null },
      { id: ids.running, name: "label", state: "active", retry_count: 0, singleton_key: null, data: { orderId: 7 }, message: null },
      { id: ids.retrying, name: "tracking", state: "retry", retry_count: 0, singleton_key: null, data: { orderId: 8 }, message: "the carrier did not answer" },
      { id: ids.failed, name: "push", state: "failed", retry_count: 1, singleton_key: null, data: { productId: 3 }, message: "eBay refused the offer" },
      { id: ids.done, name: "sweep", state: "completed", retry_count: 0, singleton_key: null, data: {}, message: null },
      // Archived when done: still counted among the day's done jobs. The one that never started stays gone.
      { id: ids.archivedDone, name: "sweep", state: "completed", retry_count: 0, singleton_key: null, data: {}, message: null },
    ]);
    expect(await queryRows(t.db, sql`select name, cron, timezone from pgboss.schedule`)).toEqual([{ name: "sweep", cron: "* * * * *", timezone: "UTC" }]);
  });

  it("shows staff the same queues, counts and failed job as before", async () => {
    const overview = await jobsOverview(t.db);
    expect(overview.queues).toEqual([
      { name: "check", waiting: 1, active: 0, failed: 0, doneLast24Hours: 0, schedule: null },
      { name: "email", waiting: 1, active: 0, failed: 0, doneLast24Hours: 0, schedule: null },
      { name: "label", waiting: 0, active: 1, failed: 0, doneLast24Hours: 0, schedule: null },
      { name: "push", waiting: 0, active: 0, failed: 1, doneLast24Hours: 0, schedule: null },
      { name: "sweep", waiting: 0, active: 0, failed: 0, doneLast24Hours: 2, schedule: "* * * * *" },
      { name: "tracking", waiting: 1, active: 0, failed: 0, doneLast24Hours: 0, schedule: null },
    ]);
    expect(overview.failed).toEqual([expect.objectContaining({ id: ids.failed, queue: "push", error: "eBay refused the offer", attempts: 2, data: { productId: 3 } })]);
  });

  it("carries on: a key still queued is honoured, waiting jobs run, and the label whose worker died is tried again", async () => {
    const tries: string[] = [];
    const jobs = recordingJobs(tries);
    await enqueueJob(t.db, jobs[0]!, { messageId: 41 }, { singletonKey: "mail-41" });
    expect(await runWaitingJobs(t.database, jobs, logger)).toBe(2);
    expect(tries.sort()).toEqual([`${ids.waiting} 1`, `${ids.retrying} 2`]);

    const worker = await startJobWorker(t.database, jobs, { log: logger, pollingIntervalSeconds: 0.2, maintenanceIntervalSeconds: 1, stopTimeoutMs: 5_000 });
    try {
      await vi.waitFor(() => expect(tries).toContain(`${ids.running} 2`), { timeout: 20_000, interval: 200 });
    } finally {
      await worker.stop();
    }
    const states = Object.fromEntries((await jobRows(t.database)).map((row) => [row.id, row.state]));
    expect(states).toMatchObject({ [ids.waiting]: "completed", [ids.retrying]: "completed", [ids.running]: "completed", [ids.later]: "created", [ids.failed]: "failed" });
  }, 40_000);

  it("is moved once: migrating again changes nothing", async () => {
    const before = await jobRows(t.database);
    await runMigrations(t.database);
    expect(await jobRows(t.database)).toEqual(before);
    expect(await schemasNamedPgboss(t.database)).toEqual(["pgboss"]);
  });
});

describe("a start that stopped after setting pg-boss 10's tables aside", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
    await makeV10Database(t.database);
  });

  afterAll(async () => {
    await t?.dispose();
  });

  it("finishes the move when the shop starts again", async () => {
    await setAsideV10Schema(t.db, "pgboss");
    expect(await schemasNamedPgboss(t.database)).toEqual(["pgboss_v10"]);

    await runMigrations(t.database);
    expect(await schemasNamedPgboss(t.database)).toEqual(["pgboss"]);
    expect((await jobRows(t.database)).map((row) => row.id)).toEqual([ids.waiting, ids.later, ids.running, ids.retrying, ids.failed, ids.done, ids.archivedDone]);
  });
});
