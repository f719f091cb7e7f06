// `npm run db:seed`: fills the database with the demo shop. The embedded defaults must be in place before anything
// reads the environment, so every module that imports `@/env` is loaded after them.
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";
import { parseSeedArguments, seedRefusal, seedUsage } from "@/server/setup/seed/arguments";

const defaults = applyEmbeddedDefaults();

async function main(): Promise<void> {
  const args = parseSeedArguments(process.argv.slice(2));
  if (args.help) {
    console.log(seedUsage);
    return;
  }
  // Checked before the database is opened, and before src/env validates, so that nothing is touched.
  const refusal = seedRefusal(args, process.env.ENVIRONMENT);
  if (refusal) throw new Error(refusal);
  const started = performance.now();
  const { shopUrl } = await import("@/server/config/shop-url");
  const { getDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/setup/migrate");
  const { getStorage } = await import("@/server/integrations/storage/storage");
  const { seedDatabase, seedIfEmpty } = await import("@/server/setup/seed/seed");

  if (defaults.applied) console.log(`Embedded defaults: ${defaults.summary}`);
  // Seeding a large catalogue runs statements longer than a request may.
  const database = getDatabase({ longStatements: true });
  try {
    console.log(`Database: ${database.kind === "postgres" ? `PostgreSQL at ${redactPassword(database.url ?? "")}` : "embedded PGlite"}`);
    const migrationStart = performance.now();
    await runMigrations(database);
    console.log(`Migrations applied (${seconds(performance.now() - migrationStart)})`);

    const storage = getStorage();
    const options = { products: args.products, images: args.images, orders: args.orders, serverUrl: shopUrl(), log: (line: string) => console.log(`  ${line}`) };
    let summary;
    if (args.ifEmpty) {
      console.log("Seeding only if the database has no products (--if-empty)");
      summary = await seedIfEmpty(database.db, storage, options);
      if (!summary) {
        console.log("The database already has products; nothing seeded.");
        return;
      }
    } else {
      console.log("Replacing the catalogue and demo data (products, stock, orders, shipping, discounts, logbook) with the demo shop; other users are kept");
      summary = await seedDatabase(database.db, storage, options);
    }
    console.log(
      [
        `Seeded in ${seconds(summary.durationMs)}:`,
        `  ${summary.products} products (${summary.productsInStock} in stock), ${summary.categories} categories, ${summary.manufacturers} manufacturers`,
        `  ${summary.boxes} boxes, ${summary.purchaseRecords} purchase records, ${summary.stockRecords} stock records`,
        `  ${summary.countries} countries, ${summary.regions} regions, ${summary.discounts} discounts, ${summary.users} users`,
        `  ${summary.images} images${summary.imagesSkipped > 0 ? ` (${summary.imagesSkipped} products left without one)` : ""} in ${storage.kind === "sandbox" ? "the local storage folder" : "the storage bucket"}`,
        `Sign in as ${"admin@example.com"} (admin) or ${"customer@example.com"} (customer) with an e-mail link.`,
        `Total ${seconds(performance.now() - started)}`,
      ].join("\n"),
    );
  } finally {
    await database.close();
  }
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "****";
    return parsed.toString();
  } catch {
    return "(unparseable DATABASE_URL)";
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
