import "server-only";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";

/**
 * Whether a starting server fills an empty database with the demo shop. The demo brings an ADMIN account with a
 * published address, public coupon codes and made-up products, so it comes only with the sandboxes or when asked
 * for with SEED_DEMO=1, and never in production: there `npm run db:seed -- --force-production` is the only way.
 */
export function seedsDemoOnStart(config: { ENVIRONMENT: string; INTEGRATIONS: string; SEED_DEMO?: string }): boolean {
  if (config.ENVIRONMENT === "production") return false;
  return config.INTEGRATIONS === "sandbox" || config.SEED_DEMO === "1";
}

/**
 * Brings a fresh server process to a working shop: says which configuration it runs on, refuses to start when the
 * private storage answers anonymous requests (live storage: labels would be public, SECURITY-REVIEW N-H1), applies pending
 * migrations, on an empty database creates the demo catalogue where that is allowed, starts the job worker (every
 * job in the registry, scheduled ones included; before taking any, it hands back to the queue the jobs a worker that
 * died was running, so that a killed instance's work goes on at once), listens for catalogue changes that other instances commit, and
 * queues a check that every product's stock matches its ledger and, with live storage, the move of labels an older
 * version left in the public bucket.
 * Several instances may start together on one PostgreSQL; migrations and seeding each take a lock, and the queue
 * hands each job to one of them. Returns a function that stops the worker, letting running jobs finish for a while
 * and handing back the rest to another instance.
 */
export async function prepareServer(): Promise<() => Promise<void>> {
  const defaults = applyEmbeddedDefaults();
  // Imported after the defaults: src/env validates configuration on first import.
  const { logger } = await import("@/server/logger");
  const { getDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/setup/migrate");
  const { seedIfEmpty } = await import("@/server/setup/seed/seed");
  const { checkPrivateStorage, getStorage, usesLiveStorage } = await import("@/server/integrations/storage/storage");
  const { movePublicLabelsJob } = await import("@/server/fulfilment/jobs");
  const { startJobWorker } = await import("@/server/jobs/worker");
  const { jobRegistry } = await import("@/server/job-registry");
  const { enqueueJob } = await import("@/server/jobs/queue");
  const { stockReconciliationJob } = await import("@/server/stock/jobs");
  const { env } = await import("@/env");
  const { listenForCatalogueChanges } = await import("@/server/cache/catalogue");

  logger.info({ event: "STARTUP", embedded: defaults.applied }, `Configuration: ${defaults.summary}`);
  // Before anything else: a shop whose labels anyone could read must not run, and an owner must hear why at once.
  await checkPrivateStorage();
  const database = getDatabase();
  const started = performance.now();
  await runMigrations(database);
  const seedDemo = seedsDemoOnStart({ ENVIRONMENT: env.ENVIRONMENT, INTEGRATIONS: env.INTEGRATIONS, SEED_DEMO: env.SEED_DEMO });
  const seeded = seedDemo ? await seedIfEmpty(database.db, getStorage()) : null;
  logger.info(
    { event: "STARTUP", database: database.kind, seeded: Boolean(seeded), durationMs: Math.round(performance.now() - started) },
    seeded ? "database migrated and demo catalogue created" : "database migrated",
  );
  if (!seedDemo && env.SEED_DEMO === "1") {
    logger.warn({ event: "STARTUP" }, "SEED_DEMO=1 is ignored in production: the demo shop is never created there on start");
  }
  // Before the first request: a change committed by another instance must reach this one's cache.
  const stopListening = await listenForCatalogueChanges(database);
  const worker = await startJobWorker(database, jobRegistry, { log: logger });
  // Instances starting together queue one check between them.
  await enqueueJob(database.db, stockReconciliationJob, {}, { singletonKey: "start-up" });
  if (usesLiveStorage()) await enqueueJob(database.db, movePublicLabelsJob, {}, { singletonKey: "start-up" });
  return async () => {
    await stopListening();
    await worker.stop();
  };
}
