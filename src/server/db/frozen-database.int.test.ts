import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHealth, HEALTH_TIMEOUT_MS } from "@/server/health/service";
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from "../../../tests/helpers/own-postgres";
import { openDatabase, type Database } from "./client";
import { runMigrations } from "@/server/setup/migrate";

/**
 * RELIABILITY-REVIEW D3: a stalled PostgreSQL (frozen with SIGSTOP, as a stalled disk or a network partition looks)
 * must fail requests in bounded time, the health check first, and the shop must carry on once it answers again.
 * The whole server under a 20 s freeze is `npm run bench:faults -- --only frozen-database`.
 */

const unavailable = ownPostgresUnavailable();
const timeouts = { connectMs: 1_000, statementMs: 3_000 };
/** Timers and the event loop on a loaded machine: what a wait may run over its bound. */
const slackMs = 1_500;

describe.skipIf(unavailable)("a frozen database", () => {
  let server: OwnPostgres;
  let database: Database;

  beforeAll(async () => {
    server = await startOwnPostgres();
    database = openDatabase({ url: server.url, timeouts });
    await runMigrations(database);
  });

  afterAll(async () => {
    server?.thaw();
    await database?.close().catch(() => undefined);
    await server?.stop();
  });

  /** How long `work` took to settle, and whether it failed. */
  async function timed(work: () => Promise<unknown>): Promise<{ ms: number; failed: boolean }> {
    const started = performance.now();
    const failed = await work().then(
      () => false,
      () => true,
    );
    return { ms: performance.now() - started, failed };
  }

  it("answers the health check as down within its own timeout, and fails every statement within the statement timeout", async () => {
    expect((await checkHealth(database)).status).toBe("ok");
    server.freeze();
    try {
      const health = await timed(async () => {
        const report = await checkHealth(database);
        if (report.status !== "down") throw new Error(`health said ${report.status}`);
      });
      expect(health.failed).toBe(false);
      expect(health.ms).toBeLessThan(HEALTH_TIMEOUT_MS + slackMs);

      // More callers than the pool has connections, and a transaction: none waits past the statement timeout.
      const waits = await Promise.all([
        ...Array.from({ length: 14 }, () => timed(() => database.db.execute(sql`select count(*) from "order"`))),
        timed(() => database.db.transaction(async (tx) => tx.execute(sql`select 1`))),
      ]);
      expect(waits.every((wait) => wait.failed)).toBe(true);
      expect(Math.max(...waits.map((wait) => wait.ms))).toBeLessThan(timeouts.statementMs + slackMs);
    } finally {
      server.thaw();
    }

    // Answering again: the stalled connections were given up, and new ones serve at once.
    const after = await timed(() => database.db.execute(sql`select count(*) from "order"`));
    expect(after.failed).toBe(false);
    expect(after.ms).toBeLessThan(timeouts.statementMs);
    expect((await checkHealth(database)).status).toBe("ok");
  });
});
