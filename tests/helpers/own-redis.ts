import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { freePort } from "./free-port";

/**
 * A Redis server of a test's own, for tests that fill, evict, stop or restart it: never the shared one on 6379. It
 * runs the machine's `redis-server` in a temporary folder on a free port of 127.0.0.1, with the settings the README
 * asks of a production Redis (a memory bound, `volatile-lru`) unless the test says otherwise, and keeps its snapshot
 * there, so that `restart` brings back what it saved, as Debian's Redis does after a restart.
 */
export type OwnRedis = {
  url: string;
  port: number;
  /** A client of the test's own (closed by `stop`). */
  client: Redis;
  /** Saves a snapshot and stops the server, as `systemctl stop redis` does; `start` brings it back from the snapshot. */
  down: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

/** Why this machine cannot run a Redis of a test's own, or null when it can. */
export function ownRedisUnavailable(): string | null {
  return spawnSync("redis-server", ["--version"]).status === 0 ? null : "no redis-server on this machine";
}


export async function startOwnRedis(settings: Record<string, string> = {}): Promise<OwnRedis> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "own-redis-"));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const options = { maxmemory: "64mb", "maxmemory-policy": "volatile-lru", save: "", appendonly: "no", ...settings };
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", folder, "--dbfilename", "dump.rdb", ...Object.entries(options).flatMap(([name, value]) => [`--${name}`, value])];
  let server: ChildProcess | undefined;
  let exited = Promise.resolve();
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 200 });
  client.on("error", () => undefined);

  async function start() {
    const child = spawn("redis-server", args, { stdio: "ignore" });
    server = child;
    exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on("error", () => undefined);
      try {
        await probe.connect();
        // A Redis loading its snapshot answers LOADING until it is done.
        if ((await probe.ping()) === "PONG") {
          probe.disconnect();
          break;
        }
      } catch {
        probe.disconnect();
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the test's redis-server on ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    if (client.status === "wait" || client.status === "end") await client.connect().catch(() => undefined);
    // The test's own client reconnects by itself after `down`: ready before the test goes on.
    while (client.status !== "ready") {
      if (Date.now() > deadline) throw new Error(`the test's client did not reconnect to the redis-server on ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function down() {
    const child = server;
    if (!child || child.exitCode !== null) return;
    const stopper = new Redis(url, { maxRetriesPerRequest: 0 });
    stopper.on("error", () => undefined);
    await stopper.call("shutdown", "save").catch(() => undefined);
    stopper.disconnect();
    await exited;
  }

  await start();
  return {
    url,
    port,
    client,
    down,
    start,
    async stop() {
      client.disconnect();
      server?.kill("SIGKILL");
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
