// `npm run db:restore -- FILE [--force]`: restores a backup made by `npm run db:backup`. The embedded defaults must be
// in place before anything reads the environment, so every module that imports `@/env` is loaded after them.
import path from "node:path";
import { parseArgs } from "node:util";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";
import { runCli } from "./run-cli";

const defaults = applyEmbeddedDefaults();

const usage = `Usage: npm run db:restore -- FILE [--force]

  FILE      a backup made by npm run db:backup
  --force   replace a database that exists already (the embedded one is moved aside, not deleted; on PostgreSQL
            all of it is replaced in one transaction); order and invoice numbers never go back

Stop the server first. The database is the one the shop would use: DATA_DIR/pglite, or DATABASE_URL when set.`;

function parseArguments(argv: string[]): { file?: string; force: boolean; help: boolean } {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  if (positionals.length > 1) throw new Error(`One backup at a time, not ${positionals.join(" and ")}`);
  return { file: positionals[0], force: values.force ?? false, help: values.help ?? false };
}

runCli(usage, parseArguments, async (args) => {
  if (!args.file) throw new Error(`Which backup? Name the file.\n\n${usage}`);
  const started = performance.now();
  const { env } = await import("@/env");
  const { restoreDatabase, shopDatabaseTarget } = await import("@/server/db/backup");

  if (defaults.applied) console.log(`Embedded defaults: ${defaults.summary}`);
  const target = shopDatabaseTarget(env);
  console.log(`Restoring ${path.resolve(args.file)} into ${target.kind === "postgres" ? "the PostgreSQL database at DATABASE_URL" : target.dataDir}`);
  const result = await restoreDatabase(target, args.file, { force: args.force });
  if (result.replacedFolder) console.log(`The database that was there is kept in ${result.replacedFolder}; delete it once the shop runs well.`);
  if (result.lostNumbers.length > 0) {
    console.log(`The replaced database had handed out numbers the backup does not know:\n${result.lostNumbers.map((lost) => `  - ${lost}`).join("\n")}`);
  }
  console.log(`Restored in ${((performance.now() - started) / 1000).toFixed(1)} s. Start the shop: pending migrations are applied on start.`);
});
