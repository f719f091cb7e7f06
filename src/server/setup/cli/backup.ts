// `npm run db:backup -- [--out FILE]`: writes a backup of the database. The embedded defaults must be in place before
// anything reads the environment, so every module that imports `@/env` is loaded after them.
import path from "node:path";
import { parseArgs } from "node:util";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";
import { runCli } from "./run-cli";

const defaults = applyEmbeddedDefaults();

const usage = `Usage: npm run db:backup -- [--out FILE]

  --out FILE   where to write the backup (default: DATA_DIR/backups/shop-<date>-<time>.tar.gz for the embedded
               database, .pgdump for PostgreSQL)

The embedded database can only be backed up while no server, seed or migration has it open. The backup holds the
database only: keep DATA_DIR/secrets.json (sessions, tokens and webhooks depend on it) in a safe place of its own.`;

function parseArguments(argv: string[]): { out?: string; help: boolean } {
  const { values } = parseArgs({ args: argv, options: { out: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.out === "") throw new Error("--out needs a file name");
  return { out: values.out, help: values.help ?? false };
}

runCli(usage, parseArguments, async (args) => {
  const started = performance.now();
  const { env } = await import("@/env");
  const { backupDatabase, defaultBackupFile, shopDatabaseTarget } = await import("@/server/db/backup");

  if (defaults.applied) console.log(`Embedded defaults: ${defaults.summary}`);
  const dataDir = path.resolve(env.DATA_DIR);
  const target = shopDatabaseTarget(env);
  console.log(`Backing up ${target.kind === "postgres" ? "the PostgreSQL database at DATABASE_URL" : `the embedded database in ${target.dataDir}`}`);
  const result = await backupDatabase(target, args.out ?? defaultBackupFile(dataDir, target.kind));
  console.log(
    [
      `Backup written to ${result.file} (${(result.bytes / 1_048_576).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s).`,
      `Restore it with: npm run db:restore -- ${result.file}`,
      `It does not hold ${path.join(dataDir, "secrets.json")}: keep that safe separately.`,
    ].join("\n"),
  );
});
