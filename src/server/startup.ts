import "server-only";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";

/**
 * Brings a fresh server process to a working shop: says which configuration it runs on, applies pending
 * migrations and, on an empty database, creates the demo catalogue. Several instances may start together on one
 * PostgreSQL; migrations and seeding each take a lock.
 */
export async function prepareServer(): Promise<void> {
  const defaults = applyEmbeddedDefaults();
  // Imported after the defaults: src/env validates configuration on first import.
  const { logger } = await import("@/server/logger");
  const { getDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/db/migrate");
  const { seedIfEmpty } = await import("@/server/db/seed/seed");
  const { getStorage } = await import("@/server/integrations/storage/storage");
  const { startOrderExpiryJob } = await import("@/server/orders/expiry-job");
  const { env } = await import("@/env");

  logger.info({ event: "STARTUP", embedded: defaults.applied }, `Configuration: ${defaults.summary}`);
  const database = getDatabase();
  const started = performance.now();
  await runMigrations(database);
  const seeded = await seedIfEmpty(database.db, getStorage());
  logger.info(
    { event: "STARTUP", database: database.kind, seeded: Boolean(seeded), durationMs: Math.round(performance.now() - started) },
    seeded ? "database migrated and demo catalogue created" : "database migrated",
  );
  startOrderExpiryJob(database.db, env.PENDING_ORDER_TIMEOUT_MINUTES, logger);
}
