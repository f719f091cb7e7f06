import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/**
 * One process at a time per PGlite folder. PGlite takes no lock of its own (every WASM instance writes the same
 * pid into postmaster.pid), and two processes on one folder silently lose committed rows. So the folder gets a lock
 * file beside it, `<folder>.lock`, created exclusively and holding the owner's pid and host name; it goes away when
 * the database is closed or the process exits. A lock whose process is gone (a crash, a kill) is taken over. A lock
 * from another host (a container sharing the folder) cannot be checked and is never taken over.
 */

// The folders this process holds, shared by every copy of this module that Next's bundles load in one process.
const holder = globalThis as unknown as { shopDatabaseLocks?: Set<string> };
const heldHere = (holder.shopDatabaseLocks ??= new Set<string>());

/**
 * A lock file without a pid, or a takeover guard, younger than this may be another process halfway through taking
 * the lock; older, it was left by a process that died at that moment.
 */
const HALFWAY_MS = 10_000;

export function lockFileOf(folder: string): string {
  const resolved = path.resolve(folder);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.lock`);
}

/**
 * Takes the folder's lock or throws "database folder in use", naming the folder and the process that has it.
 * Returns the release, which is safe to call twice.
 */
export function lockDatabaseFolder(folder: string): () => void {
  const resolved = path.resolve(folder);
  const lockFile = lockFileOf(resolved);
  if (heldHere.has(resolved)) throw inUse(resolved, { pid: process.pid, host: hostname() }, lockFile);
  const token = `${process.pid}\n${hostname()}\n`;
  if (!tryCreate(lockFile, token)) {
    const owner = readOwner(lockFile);
    if (owner !== null && isAlive(owner)) throw inUse(resolved, owner, lockFile);
    takeOverStaleLock(resolved, lockFile, token);
  }
  heldHere.add(resolved);

  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldHere.delete(resolved);
    process.off("exit", release);
    // Only our own lock: a process that found ours stale (it cannot, while we live) must keep its own.
    if (readText(lockFile) === token) unlinkSync(lockFile);
  };
  process.on("exit", release);
  return release;
}

function tryCreate(lockFile: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Replaces a lock whose owner is gone. Two processes may find the same stale lock at once; the takeover guard, a
 * folder only one of them can create, lets one remove it, and the other then finds the winner's live lock.
 */
function takeOverStaleLock(folder: string, lockFile: string, token: string): void {
  const guard = `${lockFile}.takeover`;
  try {
    mkdirSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (!olderThan(guard, HALFWAY_MS)) throw inUse(folder, readOwner(lockFile), lockFile);
    rmSync(guard, { recursive: true, force: true });
    mkdirSync(guard);
  }
  try {
    const owner = readOwner(lockFile);
    if (owner !== null && isAlive(owner)) throw inUse(folder, owner, lockFile);
    if (owner === null && !olderThan(lockFile, HALFWAY_MS)) throw inUse(folder, null, lockFile);
    rmSync(lockFile, { force: true });
    if (!tryCreate(lockFile, token)) throw inUse(folder, readOwner(lockFile), lockFile);
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

function olderThan(file: string, milliseconds: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs >= milliseconds;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

type Owner = { pid: number; host: string };

/** Who holds a lock file; null when it holds nothing readable (a process halfway through taking it, or a crash then). */
function readOwner(lockFile: string): Owner | null {
  const [pidLine = "", host = ""] = (readText(lockFile) ?? "").split("\n");
  const pid = Number.parseInt(pidLine, 10);
  return Number.isInteger(pid) && pid > 0 ? { pid, host } : null;
}

function isAlive({ pid, host }: Owner): boolean {
  if (host !== hostname()) return true;
  // Our own pid in a lock we do not hold is an earlier life of this container or machine, not us.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function inUse(folder: string, owner: Owner | null, lockFile: string): Error {
  const who =
    owner === null
      ? "another process"
      : owner.host !== hostname()
        ? `process ${owner.pid} on ${owner.host}`
        : owner.pid === process.pid
          ? `this process (${owner.pid})`
          : `process ${owner.pid}`;
  return new Error(
    `${folder}: database folder in use by ${who}. PGlite allows one process per folder: stop the shop server (or ` +
      `the seed, migration or backup) that has it open first. If no such process runs, delete ${lockFile}.`,
  );
}
