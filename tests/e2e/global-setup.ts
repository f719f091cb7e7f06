import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ownRedisUnavailable, startOwnRedis, type OwnRedis } from "../helpers/own-redis";
import { freePort } from "../helpers/free-port";

/**
 * Starts the production build through the shop's front door (scripts/serve.mjs, what `npm start` runs) on a free port with a fresh data folder, so the server opens a new
 * embedded PGlite, migrates it and seeds the demo catalogue itself on start (instrumentation hook), with sandbox
 * integrations. Tests read the address with `inject("baseUrl")`. Where the machine has `redis-server`, the shop shares
 * its page cache through a Redis of the run's own, as instances do in production (never the machine's shared Redis,
 * whose keys other runs use); `inject("serverRedisUrl")` is its address, or "" without one.
 *
 * Set E2E_SERVER_LOG=1 to stream the server's output; it is always written to .test-data/e2e/server.log as it comes.
 * Set E2E_KEEP_DATA=1 to keep the server's data folder after the run.
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** The running shop, without a trailing slash: http://localhost:PORT */
    baseUrl: string;
    /** The server's data folder: its PGlite database, storage and sandbox outbox live there. */
    serverDataDir: string;
    /** The server's output so far, one JSON log line each: where a staff account's sign-in link is found. */
    serverLogFile: string;
    /** The Redis the shop's page cache uses, or "" when the machine has no redis-server to start one. */
    serverRedisUrl: string;
  }
}

const root = process.cwd();
const startTimeoutMs = Number(process.env.E2E_START_TIMEOUT_MS ?? 120_000);
const logFile = path.join(root, ".test-data", "e2e", "server.log");

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("No production build in .next: run `npx next build` first (`npm run test:e2e` does it for you).");
  }

  const port = await freePort();
  // "localhost", not the address it listens on: browsers allow passkeys (WebAuthn) on a name only, and localhost is
  // the one name a browser trusts over plain http, as it does for a developer running the shop.
  const baseUrl = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-e2e-"));
  mkdirSync(path.dirname(logFile), { recursive: true });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    // The address the server puts in links it makes (e-mails, payment return pages, auth callbacks), read at run time.
    AUTH_URL: baseUrl,
    // As behind nginx: the journeys' browsers send no X-Forwarded-For and count as this machine; a test can name
    // another client or https the way a proxy would (tests/e2e/security.e2e.ts).
    TRUSTED_PROXY_HOPS: "1",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // Always the embedded database and the sandboxes, whatever the calling shell has.
  delete env.DATABASE_URL;
  delete env.INTEGRATIONS;
  delete env.REDIS_URL;
  env.ENVIRONMENT = "development";
  const redis: OwnRedis | null = ownRedisUnavailable() ? null : await startOwnRedis();
  if (redis) env.REDIS_URL = redis.url;

  writeFileSync(logFile, "");
  const server = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env,
    // Its own process group, so that teardown stops the server and anything it started.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const record = (chunk: Buffer) => {
    const text = chunk.toString();
    appendFileSync(logFile, text);
    if (process.env.E2E_SERVER_LOG === "1") process.stdout.write(`[server] ${text}`);
  };
  server.stdout?.on("data", record);
  server.stderr?.on("data", record);
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));

  const stop = async () => {
    await stopProcessGroup(server, exited);
    await redis?.stop();
    if (process.env.E2E_KEEP_DATA !== "1") rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, exited);
  } catch (error) {
    await stop();
    console.error(`\n--- output of the server (also in ${path.relative(root, logFile)}) ---\n${readFileSync(logFile, "utf8")}--- end ---\n`);
    throw error;
  }

  project.provide("baseUrl", baseUrl);
  project.provide("serverDataDir", dataDir);
  project.provide("serverLogFile", logFile);
  project.provide("serverRedisUrl", redis?.url ?? "");
  return stop;
}

async function waitForHealth(baseUrl: string, exited: Promise<number | null>): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  let serverExit: number | null | undefined;
  void exited.then((code) => (serverExit = code ?? -1));
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (serverExit !== undefined) throw new Error(`The shop server exited with code ${serverExit} before it was healthy`);
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ""}` : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`GET ${baseUrl}/api/health did not answer 200 within ${startTimeoutMs / 1000} s; last: ${last}`);
}

async function stopProcessGroup(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  signalGroup("SIGTERM");
  const stopped = await Promise.race([exited.then(() => true), delay(10_000).then(() => false)]);
  if (!stopped) {
    signalGroup("SIGKILL");
    await Promise.race([exited, delay(5_000)]);
  }
  // Anything the server started that outlived it.
  signalGroup("SIGKILL");
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

