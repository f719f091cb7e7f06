import { Client } from "pg";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTRPCContext } from "@/server/trpc-context";
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from "../../../tests/helpers/own-postgres";
import { openDatabase, type Database } from "./client";
import { runMigrations } from "@/server/setup/migrate";

/**
 * RELIABILITY-REVIEW D6: PostgreSQL shut down under the running shop and started again. The catalogue's change
 * notifications must come back by themselves however long it was away, and a caller must be told 503 (try again),
 * not 500. The whole server through an outage is `npm run bench:faults -- --only database-outage`.
 */

const unavailable = ownPostgresUnavailable();

describe.skipIf(unavailable)("a database outage", () => {
  let server: OwnPostgres;
  let database: Database;

  beforeAll(async () => {
    server = await startOwnPostgres();
    database = openDatabase({ url: server.url, timeouts: { connectMs: 1_000, statementMs: 3_000 } });
    await runMigrations(database);
  });

  afterAll(async () => {
    await database?.close().catch(() => undefined);
    await server?.stop();
  });

  it("listens for catalogue changes again once the database is back, after any number of refused tries", async () => {
    const messages: string[] = [];
    let reconnects = 0;
    const stop = await database.listen("catalogue_changed", { onMessage: (payload) => messages.push(payload), onReconnect: () => reconnects++ });
    try {
      await server.down();
      // Tried once a second: three or four tries are refused while it is down.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      await server.up();
      await expect.poll(() => reconnects, { timeout: 10_000 }).toBe(1);

      const notifier = new Client({ connectionString: server.url });
      await notifier.connect();
      await notifier.query("select pg_notify('catalogue_changed', 'product:5,listings')");
      await notifier.end();
      await expect.poll(() => messages).toEqual(["product:5,listings"]);
    } finally {
      await stop();
    }
  });

  it("answers an API call whose session cannot be read with 503, as for any procedure, not an internal error", async () => {
    await server.down();
    try {
      const context = createTRPCContext({ headers: new Headers({ cookie: "authjs.session-token=some-session" }), requestId: "r-outage", db: database.db });
      const error = await context.then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe("SERVICE_UNAVAILABLE");
      expect((error as TRPCError).message).toBe("The shop cannot reach its database just now. Please try again in a minute.");
    } finally {
      await server.up();
    }
  });
});
