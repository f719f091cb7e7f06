// `npm run db:migrate`: applies the committed migrations. The embedded defaults must be in place before anything
// reads the environment, so every module that imports `@/env` is loaded after them.
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";

const defaults = applyEmbeddedDefaults();

async function main(): Promise<void> {
  const started = performance.now();
  const { getDatabase } = await import("@/server/db/client");
  const { readSchemaVersion } = await import("@/server/db/migrate");
  const { runMigrations } = await import("@/server/setup/migrate");

  if (defaults.applied) console.log(`Embedded defaults: ${defaults.summary}`);
  const database = getDatabase();
  try {
    console.log(`Database: ${database.kind === "postgres" ? "PostgreSQL from DATABASE_URL" : "embedded PGlite"}`);
    const before = await readSchemaVersion(database).catch(() => null);
    await runMigrations(database);
    const after = await readSchemaVersion(database);
    const applied = after.applied - (before?.applied ?? 0);
    console.log(
      `${applied > 0 ? `Applied ${applied} migration${applied === 1 ? "" : "s"}` : "Already up to date"}; schema at ${after.current ?? "none"} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
