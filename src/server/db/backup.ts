import "server-only";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "pg";
import { embeddedDatabaseFolder, openPglite } from "./client";
import { lockDatabaseFolder } from "./lock";

/**
 * Backups of the shop's database, and restoring one. The embedded database is copied with PGlite's own
 * `dumpDataDir()` (a gzipped tarball of its folder) while holding the folder's lock, so never from under a running
 * server; PostgreSQL with `pg_dump` in its custom format and `pg_restore`. A backup holds the database only: the
 * generated secrets (`secrets.json`) and the sandbox files are kept apart and backed up separately.
 */

export type DatabaseTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

/** The database the shop itself uses: PostgreSQL at DATABASE_URL when set, the embedded one in DATA_DIR otherwise. */
export function shopDatabaseTarget(config: { DATABASE_URL?: string; DATA_DIR: string }): DatabaseTarget {
  return config.DATABASE_URL ? { kind: "postgres", url: config.DATABASE_URL } : { kind: "pglite", dataDir: embeddedDatabaseFolder(config.DATA_DIR) };
}

export type BackupResult = { file: string; bytes: number };
export type RestoreResult = { replacedFolder: string | null };

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
        await writeFile(partial, Buffer.from(await tarball.arrayBuffer()), { mode: 0o600 });
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
 * moved aside (its new name is returned), and on PostgreSQL the objects the backup holds are dropped and recreated.
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

/**
 * Fills a staging folder beside the database from the tarball, and only once that opened cleanly swaps it in: a
 * backup that cannot be read leaves the current database as it was. The database folder stays locked throughout.
 */
async function restorePglite(dataDir: string, source: string, force: boolean): Promise<RestoreResult> {
  const folder = path.resolve(dataDir);
  mkdirSync(path.dirname(folder), { recursive: true, mode: 0o700 });
  const release = lockDatabaseFolder(folder);
  const staging = `${folder}.restoring`;
  try {
    if (holdsDatabase(folder) && !force) {
      throw new Error(`${folder} already holds a database. Restore into an empty DATA_DIR, or add --force to move the current one aside.`);
    }
    rmSync(staging, { recursive: true, force: true });
    const { client, close } = openPglite(staging, { loadDataDir: new Blob([await readFile(source)]) });
    try {
      await client.query("select 1");
    } finally {
      await close();
    }
    let replacedFolder: string | null = null;
    if (holdsDatabase(folder)) {
      replacedFolder = `${folder}.replaced-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}`;
      renameSync(folder, replacedFolder);
    } else {
      rmSync(folder, { recursive: true, force: true });
    }
    renameSync(staging, folder);
    return { replacedFolder };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

async function restorePostgres(url: string, source: string, force: boolean): Promise<RestoreResult> {
  const tables = await countTables(url);
  if (tables > 0 && !force) {
    throw new Error(`The database at DATABASE_URL already has ${tables} tables. Restore into an empty database, or add --force to replace what the backup holds.`);
  }
  // One transaction: a restore that fails half-way leaves the database as it was.
  await runPgTool(
    "pg_restore",
    ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", ...(tables > 0 ? ["--clean", "--if-exists"] : []), source],
    url,
  );
  return { replacedFolder: null };
}

function holdsDatabase(folder: string): boolean {
  return existsSync(path.join(folder, "PG_VERSION"));
}

async function countTables(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      "select count(*) as count from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return Number(result.rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
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

/**
 * Runs pg_dump or pg_restore on the database. The password travels in PGPASSWORD rather than on the command line,
 * where any local user could read it from the process list.
 */
async function runPgTool(tool: "pg_dump" | "pg_restore", args: string[], url: string): Promise<void> {
  const address = new URL(url);
  const password = decodeURIComponent(address.password);
  address.password = "";
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(tool, [`--dbname=${address.toString()}`, ...args], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(`${tool} is not installed. It comes with PostgreSQL's client tools (Debian: apt-get install postgresql-client), of the server's version or newer.`)
          : error,
      ),
    );
    child.once("close", resolve);
  });
  if (code !== 0) throw new Error(`${tool} failed (exit ${code}):\n${stderr.join("").trim()}`);
}
