import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/**
 * pg-boss 11 laid its tables out anew (its schema version 25) and ships no migration from pg-boss 10's (version
 * 24); pg-boss 12 refuses to start on a database that pg-boss 10 made. A shop that ran on pg-boss 10 keeps its jobs
 * (waiting, running, failed for staff to retry, done in the last week) through two steps around pg-boss's own
 * install:
 * 1. `setAsideV10Schema` renames pg-boss 10's schema (`pgboss` becomes `pgboss_v10`), so that pg-boss installs its
 *    tables afresh in `pgboss`;
 * 2. `moveV10Jobs` copies the queues, jobs (the finished ones pg-boss 10 had archived too) and schedules into
 *    them, in one transaction with the drop of `pgboss_v10`.
 * A crash between the two leaves `pgboss_v10` in place, and the next start moves it. Instances starting together
 * take turns (an advisory lock held by each step's transaction). pg-boss's own queues (`__pgboss__...`, its cron
 * machinery) are left behind: pg-boss 12 keeps its own.
 * An instance still running pg-boss 10 meanwhile can neither queue nor settle a job (its statements no longer match
 * the tables), so the earlier version's instances are stopped first; a job one of them was running when it stopped
 * is moved as running and retried once its time runs out, like any job whose instance died.
 */

/** pg-boss 10.4.2's schema version, the only one this shop ever ran. */
const V10_VERSION = 24;
/** The first schema version of pg-boss 11. */
const V11_VERSION = 25;

const setAsideName = (schema: string) => `${schema}_v10`;

async function takeTurns(tx: Db, schema: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${schema}/v10-upgrade`}, 0))`);
}

async function schemaExists(tx: Db, name: string): Promise<boolean> {
  return (await rawRows(tx, sql`select 1 from pg_namespace where nspname = ${name}`)).length > 0;
}

/** Step 1: renames pg-boss 10's schema out of pg-boss 12's way; does nothing on any other database. */
export async function setAsideV10Schema(db: Db, schema: string): Promise<void> {
  await db.transaction(async (tx) => {
    await takeTurns(tx, schema);
    const [table] = await rawRows<{ exists: boolean }>(tx, sql`select to_regclass(${`${schema}.version`}) is not null as exists`);
    if (!table?.exists) return;
    const [row] = await rawRows<{ version: number }>(tx, sql`select version from ${sql.raw(schema)}.version`);
    const version = Number(row?.version);
    if (version >= V11_VERSION) return;
    if (version !== V10_VERSION) {
      throw new Error(`The job queue's tables are at pg-boss schema version ${version}; only pg-boss 10.4.2's (${V10_VERSION}) can be moved to this version.`);
    }
    if (await schemaExists(tx, setAsideName(schema))) {
      throw new Error(
        `Both ${schema} (pg-boss 10) and ${setAsideName(schema)} (set aside by an earlier upgrade) exist: an instance of the earlier version made the first one again. Stop every instance of the earlier version, then start this one again.`,
      );
    }
    await tx.execute(sql.raw(`alter schema ${schema} rename to ${setAsideName(schema)}`));
  });
}

/**
 * Step 2, once pg-boss has installed its tables: copies what `pgboss_v10` holds into them and drops it. Jobs keep
 * their ids, states, data, tries, keys, times and errors; finished ones are kept `keepFinishedSeconds` like any.
 */
export async function moveV10Jobs(db: Db, schema: string, keepFinishedSeconds: number): Promise<void> {
  const from = sql.raw(setAsideName(schema));
  const to = sql.raw(schema);
  const own = (column: string) => sql`${sql.raw(column)} not like '\\_\\_pgboss\\_\\_%'`;
  const jobColumns = sql.raw(
    "id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, output, dead_letter, policy",
  );
  await db.transaction(async (tx) => {
    await takeTurns(tx, schema);
    if (!(await schemaExists(tx, setAsideName(schema)))) return;
    // Each queue with its policy, retries and expiry, as pg-boss 10 kept them (its retention was in minutes).
    await tx.execute(sql`
      select ${to}.create_queue(name, jsonb_strip_nulls(jsonb_build_object(
        'policy', coalesce(policy, 'standard'), 'retryLimit', retry_limit, 'retryDelay', retry_delay, 'retryBackoff', retry_backoff,
        'expireInSeconds', expire_seconds, 'retentionSeconds', retention_minutes * 60)))
      from ${from}.queue where ${own("name")} order by name`);
    await tx.execute(sql`
      update ${to}.queue q set dead_letter = old.dead_letter
      from ${from}.queue old where old.name = q.name and old.dead_letter is not null`);
    await tx.execute(sql`
      insert into ${to}.job (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on,
        singleton_key, singleton_on, expire_seconds, deletion_seconds, created_on, completed_on, keep_until, output, dead_letter, policy)
      select id, name, priority, data, state::text::${to}.job_state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on,
        singleton_key, singleton_on, greatest(extract(epoch from expire_in)::int, 1), ${keepFinishedSeconds}::int, created_on, completed_on, keep_until, output, dead_letter, policy
      from (select ${jobColumns} from ${from}.job
            -- pg-boss 10 archived the jobs that never started in time too: they stay gone rather than run now.
            union all select ${jobColumns} from ${from}.archive where state > 'active') old
      where ${own("name")}`);
    // Staff see the schedules at once; the worker sets them again from the job registry when it starts.
    await tx.execute(sql`
      insert into ${to}.schedule (name, cron, timezone, data, options, created_on, updated_on)
      select name, cron, coalesce(timezone, 'UTC'), data, options, created_on, updated_on from ${from}.schedule where ${own("name")}
      on conflict do nothing`);
    await tx.execute(sql`drop schema ${from} cascade`);
  });
}
