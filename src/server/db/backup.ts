import "server-only";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { embeddedDatabaseFolder, openPglite } from "./client";
import { lockDatabaseFolder } from "./lock";
import { handedOutFromNotices, keepHandedOutNumbersSql, lostNumbers, readHandedOutNumbers, type HandedOutNumbers, type RowsOf } from "./numbering";
import { privateTarball } from "./private-tarball";

/**
 * Backups of the shop's database, and restoring one. The embedded database is copied with PGlite's own
 * `dumpDataDir()` (a gzipped tarball of its folder, its entries made owner-only) while holding the folder's lock, so
 * never from under a running server; PostgreSQL with `pg_dump` in its custom format, restored through `pg_restore`
 * and `psql` in one transaction. A backup holds the database only: the generated secrets (`secrets.json`) and the
 * sandbox files are kept apart and backed up separately. A restore over a database that moved on since the backup
 * keeps its order and invoice numbers from going back (numbering.ts).
 */

export type DatabaseTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

/** The database the shop itself uses: PostgreSQL at DATABASE_URL when set, the embedded one in DATA_DIR otherwise. */
export function shopDatabaseTarget(config: { DATABASE_URL?: string; DATA_DIR: string }): DatabaseTarget {
  return config.DATABASE_URL ? { kind: "postgres", url: config.DATABASE_URL } : { kind: "pglite", dataDir: embeddedDatabaseFolder(config.DATA_DIR) };
}

export type BackupResult = { file: string; bytes: number };
export type RestoreResult = {
  /** Where the embedded database that was replaced was moved. */
  replacedFolder: string | null;
  /** Numbers the replaced database had handed out that the backup does not know: never handed out again. */
  lostNumbers: string[];
};

/** Where `npm run db:backup` writes when no --out is given: a private folder beside the database. */
export function defaultBackupFile(dataDir: string, kind: DatabaseTarget["kind"], now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replaceAll(":", "").replace("T", "-");
  return path.join(dataDir, "backups", `shop-${stamp}.${kind === "pglite" ? "tar.gz" : "pgdump"}`);
}

/** Writes a backup of the database to `file`, which must not exist yet. */
export async function backupDatabase(target: DatabaseTarget, file: string): Promise<BackupResult> {
  const destination = path.resolve(file);
  if (existsSync(destination)) throw new Error(`${destination} exists already; choose another file with --out.`);
  // A new folder is made owner-only; an existing one is the caller's and keeps its mode.
  mkdirSync(path.dirname(destination), { recursive: true, mode: 0o700 });
  // Written under another name first, so that an interrupted backup never looks like a finished one.
  const partial = `${destination}.partial`;
  try {
    if (target.kind === "pglite") {
      if (!holdsDatabase(target.dataDir)) throw new Error(`There is no database in ${target.dataDir} to back up.`);
      const { client, close } = openPglite(target.dataDir);
      try {
        // dumpDataDir on a database still starting up waits on itself for ever: PGlite's start-up queries queue
        // behind the dump's lock.
        await client.waitReady;
        const tarball = await client.dumpDataDir("gzip");
        await writeFile(partial, privateTarball(new Uint8Array(await tarball.arrayBuffer())), { mode: 0o600 });
      } finally {
        await close();
      }
    } else {
      await writeFile(partial, "", { mode: 0o600 });
      await runPgTool("pg_dump", ["--format=custom", `--file=${partial}`], target.url);
    }
    await rename(partial, destination);
  } finally {
    await rm(partial, { force: true });
  }
  return { file: destination, bytes: (await stat(destination)).size };
}

/**
 * Restores a backup into the database. An existing database is refused unless `force`: then the embedded folder is
 * moved aside (its new name is returned), and on PostgreSQL everything in the database is replaced by what the backup
 * holds, in one transaction. Either way the order and invoice numbers go on from the higher of the two databases'.
 */
export async function restoreDatabase(target: DatabaseTarget, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const source = path.resolve(file);
  const format = await backupFormat(source);
  if (format !== target.kind) {
    const what = { pglite: "an embedded (PGlite) database", postgres: "a PostgreSQL database" };
    throw new Error(`${source} is a backup of ${what[format]}; it cannot be restored into ${what[target.kind]}.`);
  }
  return target.kind === "pglite" ? restorePglite(target.dataDir, source, options.force ?? false) : restorePostgres(target.url, source, options.force ?? false);
}

const pgliteRows = (client: PGlite): RowsOf => async (text) => (await client.query<Record<string, unknown>>(text)).rows;

/**
 * Fills a staging folder beside the database from the tarball, and only once that opened cleanly (with the numbers
 * the current database handed out kept) swaps it in: a backup that cannot be read leaves the current database as it
 * was. The database folder stays locked throughout.
 */
async function restorePglite(dataDir: string, source: string, force: boolean): Promise<RestoreResult> {
  const folder = path.resolve(dataDir);
  mkdirSync(path.dirname(folder), { recursive: true, mode: 0o700 });
  const release = lockDatabaseFolder(folder);
  const staging = `${folder}.restoring`;
  try {
    const replacing = holdsDatabase(folder);
    if (replacing && !force) {
      throw new Error(`${folder} already holds a database. Restore into an empty DATA_DIR, or add --force to move the current one aside.`);
    }
    let before: HandedOutNumbers | null = null;
    if (replacing) {
      const current = openPglite(folder, { lockHeld: true });
      try {
        before = await readHandedOutNumbers(pgliteRows(current.client));
      } finally {
        await current.close();
      }
    }
    rmSync(staging, { recursive: true, force: true });
    const { client, close } = openPglite(staging, { loadDataDir: new Blob([await readFile(source)]) });
    let lost: string[] = [];
    try {
      if (before) {
        lost = lostNumbers(before, await readHandedOutNumbers(pgliteRows(client)));
        await client.exec(keepHandedOutNumbersSql(before));
      } else {
        await client.query("select 1");
      }
    } finally {
      await close();
    }
    let replacedFolder: string | null = null;
    if (replacing) {
      replacedFolder = `${folder}.replaced-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}`;
      renameSync(folder, replacedFolder);
    } else {
      rmSync(folder, { recursive: true, force: true });
    }
    renameSync(staging, folder);
    return { replacedFolder, lostNumbers: lost };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/**
 * Restores a PostgreSQL backup in one transaction: `pg_restore` writes the backup as SQL, and `psql` runs it after
 * statements that empty the database (every schema of its own dropped, `public` made anew) and before the ones that
 * keep the numbers it handed out. Dropping first, rather than `pg_restore --clean`, is what works on a database the
 * shop has run on: the job queue's partitioned tables cannot be dropped one by one (RELIABILITY-REVIEW D2). Any
 * error rolls the whole restore back, leaving the database as it was.
 */
async function restorePostgres(url: string, source: string, force: boolean): Promise<RestoreResult> {
  const { tables, schemas, before } = await withClient(url, async (client) => ({
    tables: await countTables(client),
    schemas: (await client.query<{ name: string }>("select nspname as name from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'")).rows.map(
      (row) => row.name,
    ),
    before: await readHandedOutNumbers(async (text) => (await client.query<Record<string, unknown>>(text)).rows),
  }));
  if (tables > 0 && !force) {
    throw new Error(`The database at DATABASE_URL already has ${tables} tables. Restore into an empty database, or add --force to replace it with the backup.`);
  }
  const emptying = [...schemas.map((schema) => `drop schema if exists "${schema.replaceAll('"', '""')}" cascade;`), "create schema public;"].join("\n");
  const notices = await runPgRestoreThroughPsql(source, url, `${emptying}\n`, `\n${keepHandedOutNumbersSql(before)}\n`);
  return { replacedFolder: null, lostNumbers: lostNumbers(before, handedOutFromNotices(notices)) };
}

function holdsDatabase(folder: string): boolean {
  return existsSync(path.join(folder, "PG_VERSION"));
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function countTables(client: Client): Promise<number> {
  const result = await client.query<{ count: string }>(
    "select count(*) as count from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
  );
  return Number(result.rows[0]?.count ?? 0);
}

/** Tells the two kinds of backup apart by their first bytes: gzip's magic number, or pg_dump's "PGDMP". */
async function backupFormat(file: string): Promise<DatabaseTarget["kind"]> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === "ENOENT" ? `There is no backup at ${file}.` : error.message);
  });
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
    if (head.toString("latin1") === "PGDMP") return "postgres";
    throw new Error(`${file} is not a backup made by npm run db:backup.`);
  } finally {
    await handle.close();
  }
}

type PgTool = "pg_dump" | "pg_restore" | "psql";

/**
 * Starts one of PostgreSQL's client tools, on the database at `url` when given. The password travels in PGPASSWORD
 * rather than on the command line, where any local user could read it from the process list. `done` settles with the
 * exit code and what the tool wrote to stderr (its errors, and the server's notices).
 */
function startPgTool(tool: PgTool, args: string[], options: { url?: string; stdin?: "pipe" | "ignore"; stdout?: "pipe" | "ignore" } = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const connection: string[] = [];
  if (options.url) {
    const address = new URL(options.url);
    const password = decodeURIComponent(address.password);
    address.password = "";
    if (password) env.PGPASSWORD = password;
    connection.push(`--dbname=${address.toString()}`);
  }
  const child = spawn(tool, [...connection, ...args], { env, stdio: [options.stdin ?? "ignore", options.stdout ?? "ignore", "pipe"] });
  const stderr: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(`${tool} is not installed. It comes with PostgreSQL's client tools (Debian: apt-get install postgresql-client), of the server's version or newer.`)
          : error,
      ),
    );
    child.once("close", (code) => resolve({ code, stderr: stderr.join("").trim() }));
  });
  return { child, done };
}

async function runPgTool(tool: "pg_dump", args: string[], url: string): Promise<void> {
  const { code, stderr } = await startPgTool(tool, args, { url }).done;
  if (code !== 0) throw new Error(`${tool} failed (exit ${code}):\n${stderr}`);
}

/**
 * Runs the backup's SQL (as `pg_restore` writes it) through `psql` in one transaction, between `before` and `after`.
 * The transaction is committed only when psql reaches the end of its input without an error, and the input is ended
 * only once pg_restore has written the whole backup: a backup that cannot be read ends psql instead, which rolls
 * everything back. Answers the server's notices.
 */
async function runPgRestoreThroughPsql(source: string, url: string, before: string, after: string): Promise<string> {
  const restore = startPgTool("pg_restore", ["--no-owner", "--no-privileges", "--file=-", source], { stdout: "pipe" });
  const psql = startPgTool("psql", ["--single-transaction", "--set=ON_ERROR_STOP=1", "--no-psqlrc", "--quiet", "--output=/dev/null"], {
    url,
    stdin: "pipe",
  });
  const input = psql.child.stdin!;
  // psql that stopped at an error closes its input; what is still written then has nowhere to go.
  input.on("error", () => undefined);
  input.write(before);
  restore.child.stdout!.pipe(input, { end: false });
  const restored = await restore.done;
  if (restored.code === 0) input.end(after);
  else psql.child.kill("SIGKILL");
  const ran = await psql.done;
  if (restored.code !== 0) throw new Error(`pg_restore could not read the backup (exit ${restored.code}); the database is as it was:\n${restored.stderr}`);
  if (ran.code !== 0) throw new Error(`The restore failed and was rolled back; the database is as it was (psql exit ${ran.code}):\n${ran.stderr}`);
  return ran.stderr;
}
