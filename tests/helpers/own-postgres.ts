import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort } from "./free-port";

/**
 * A PostgreSQL server of a test's own, for tests that must stall, stop or restart a database: never the shared one.
 * It runs from the machine's PostgreSQL binaries (Debian's /usr/lib/postgresql/<version>/bin) in a temporary folder,
 * on a free port of 127.0.0.1, as the `postgres` user when the test runs as root (the server refuses root). Freezing
 * stops the postmaster and every process it forked (each backend is a process group of its own), as a stalled disk or
 * a network partition would.
 */
export type OwnPostgres = {
  /** The server's `postgres` database. */
  url: string;
  /** Another database on the same server. */
  urlOf: (database: string) => string;
  /** Creates an empty database on the server and returns its address. */
  createDatabase: (database: string) => Promise<string>;
  /** Stops every process of the server where it is (SIGSTOP), until `thaw`. */
  freeze: () => void;
  thaw: () => void;
  /** Shuts the server down (fast shutdown: connections are ended), keeping its data, as a database outage looks. */
  down: () => Promise<void>;
  /** Starts the server again on the same port and data after `down`, and waits until it accepts connections. */
  up: () => Promise<void>;
  /** Stops the server for good and removes its folder. */
  stop: () => Promise<void>;
};

/** The folder of the newest PostgreSQL binaries on this machine, or null when there are none. */
export function postgresBinaries(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((version) => existsSync(path.join(base, version, "bin", "postgres")) && existsSync(path.join(base, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], "bin") : null;
}

/** The user the server runs as: the current one, or `postgres` when that is root. Null when there is no such user. */
function serverUser(): { uid: number; gid: number } | null | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why this machine cannot run a server of a test's own, or null when it can. */
export function ownPostgresUnavailable(): string | null {
  if (process.platform !== "linux") return "only on Linux";
  if (!postgresBinaries()) return "no PostgreSQL binaries under /usr/lib/postgresql";
  if (serverUser() === null) return "running as root without a postgres user to run the server as";
  return null;
}


async function waitUntilAccepting(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the test's PostgreSQL exited with code ${server.exitCode}`);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const unavailable = ownPostgresUnavailable();
  if (unavailable) throw new Error(`No PostgreSQL of a test's own: ${unavailable}`);
  const bin = postgresBinaries()!;
  const user = serverUser() ?? undefined;
  const folder = mkdtempSync(path.join(os.tmpdir(), "own-postgres-"));
  const data = path.join(folder, "data");
  if (user) chownSync(folder, user.uid, user.gid);
  const init = spawnSync(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"], { ...user, encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const launch = () =>
    spawn(
      path.join(bin, "postgres"),
      ["-D", data, "-p", String(port), "-k", folder, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      // A process group of its own: the postmaster and the backends it forks, frozen and stopped together.
      { ...user, detached: true, stdio: "ignore" },
    );
  let server = launch();
  let exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  /** The postmaster and its children: backends, the checkpointer, the WAL writer... */
  const processes = () => {
    if (server.exitCode !== null || server.signalCode !== null) return [];
    const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(server.pid)], { encoding: "utf8" }).stdout;
    return [server.pid!, ...children.split("\n").map(Number).filter((pid) => pid > 0)];
  };
  const signal = (name: NodeJS.Signals) => {
    for (const pid of processes()) {
      try {
        process.kill(pid, name);
      } catch {
        // Already gone.
      }
    }
  };
  try {
    await waitUntilAccepting(urlOf("postgres"), server, 30_000);
  } catch (error) {
    signal("SIGKILL");
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    url: urlOf("postgres"),
    urlOf,
    async createDatabase(database) {
      const admin = new Client({ connectionString: urlOf("postgres") });
      await admin.connect();
      try {
        await admin.query(`create database "${database}"`);
      } finally {
        await admin.end();
      }
      return urlOf(database);
    },
    freeze: () => signal("SIGSTOP"),
    thaw: () => signal("SIGCONT"),
    async down() {
      signal("SIGCONT");
      // Fast shutdown of the postmaster: every session is ended at once, and the next start needs no recovery.
      process.kill(server.pid!, "SIGINT");
      await exited;
    },
    async up() {
      server = launch();
      exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
      await waitUntilAccepting(urlOf("postgres"), server, 30_000);
    },
    async stop() {
      signal("SIGCONT");
      // Immediate shutdown: a test's server has nothing to keep.
      signal("SIGQUIT");
      const killed = setTimeout(() => signal("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killed);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
