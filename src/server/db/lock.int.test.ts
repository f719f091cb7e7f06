import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./client";
import { lockFileOf } from "./lock";
import { rawRows } from "./raw-rows";

const root = path.resolve(import.meta.dirname, "../../..");
const folders: string[] = [];
const opened: Database[] = [];
const children: ChildProcess[] = [];

function freshDataDir(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "db-lock-"));
  folders.push(folder);
  return folder;
}

function open(dataDir: string): Database {
  const database = openDatabase({ dataDir });
  opened.push(database);
  return database;
}

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await Promise.allSettled(opened.splice(0).map((database) => database.close()));
});

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A separate process that opens the folder's database and keeps it open until killed. */
async function holdInAnotherProcess(dataDir: string): Promise<ChildProcess> {
  const script = [
    "await import('./src/server/config/apply-embedded-defaults.ts');",
    "const { openDatabase } = await import('./src/server/db/client.ts');",
    "const database = openDatabase({ dataDir: process.env.HOLD_DIR });",
    "await database.db.execute('select 1');",
    "console.log('holding');",
    "setInterval(() => {}, 1000);",
  ].join("\n");
  // Node itself with tsx's loader (not the tsx command, which runs the script in a child of its own), so that the
  // pid is the one that holds the folder.
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions", "react-server", "--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, HOLD_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("holding")) resolve();
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the holding process ended (${code}) before opening:\n${output}`)));
  });
  return child;
}

/** The pid the folder's lock file names as its owner. */
const lockOwner = (dataDir: string) => Number(readFileSync(lockFileOf(dataDir), "utf8").split("\n")[0]);

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once("exit", resolve));
}

describe("one process per embedded database folder", () => {
  it("refuses a second open of the same folder, naming the folder and the process, until the first closes", async () => {
    const dataDir = path.join(freshDataDir(), "pglite");
    const first = open(dataDir);
    await first.db.execute(sql`create table kept (note text)`);
    await first.db.execute(sql`insert into kept values ('written by the first opener')`);
    expect(lockOwner(dataDir)).toBe(process.pid);

    expect(() => open(dataDir)).toThrow(`${dataDir}: database folder in use by this process (${process.pid})`);

    await first.close();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);
    // The next opener holds the folder in its turn and finds every row the first committed.
    const again = open(dataDir);
    expect(await rawRows<{ note: string }>(again.db, sql`select note from kept`)).toEqual([{ note: "written by the first opener" }]);
    expect(lockOwner(dataDir)).toBe(process.pid);
    expect(() => open(dataDir)).toThrow(`${dataDir}: database folder in use by this process (${process.pid})`);
  }, 60_000);

  it("refuses a folder another process has open, and takes it over once that process is gone", async () => {
    const dataDir = path.join(freshDataDir(), "pglite");
    const holder = await holdInAnotherProcess(dataDir);

    expect(() => open(dataDir)).toThrow(`database folder in use by process ${holder.pid}`);

    // Killed outright, it leaves its lock file behind: a dead owner's lock is stale.
    holder.kill("SIGKILL");
    await exited(holder);
    expect(existsSync(lockFileOf(dataDir))).toBe(true);
    expect(lockOwner(dataDir)).toBe(holder.pid);
    const database = open(dataDir);
    expect(await rawRows<{ answer: number }>(database.db, sql`select 42 as answer`)).toEqual([{ answer: 42 }]);
    // Taken over, the lock is this process's own: the next opener is refused as the holder was refusing us.
    expect(lockOwner(dataDir)).toBe(process.pid);
    expect(() => open(dataDir)).toThrow(`${dataDir}: database folder in use by this process (${process.pid})`);
  }, 90_000);

  it("stops `npm run db:migrate` with a clear message while the server has the folder", async () => {
    const dataDir = freshDataDir();
    const server = open(path.join(dataDir, "pglite"));
    await server.db.execute(sql`select 1`);

    const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions", "react-server", "src/server/setup/cli/migrate.ts"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${path.join(dataDir, "pglite")}: database folder in use by process ${process.pid}`);
  }, 90_000);

  it("keeps the folder private to its owner, also one that an older version left open to everyone", async () => {
    const dataDir = freshDataDir();
    const folder = path.join(dataDir, "pglite");
    mkdirSync(folder);
    chmodSync(folder, 0o755);

    const database = open(folder);
    await database.db.execute(sql`select 1`);
    expect(statSync(folder).mode & 0o077).toBe(0);

    const fresh = path.join(freshDataDir(), "new", "pglite");
    const other = open(fresh);
    await other.db.execute(sql`select 1`);
    expect(statSync(fresh).mode & 0o077).toBe(0);
  }, 60_000);
});
