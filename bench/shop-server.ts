// What the benches that run the shop share: starting the production build as its own process group, killing and
// stopping it, waiting for it to be healthy, a free port, and a client on a database of the local PostgreSQL.
import { spawn, type ChildProcess } from "node:child_process";
import type { WriteStream } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { Client } from "pg";

const root = process.cwd();
export const postgresServer = "postgres://postgres@127.0.0.1:5432";
const startTimeoutMs = 180_000;

export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

export type ShopServer = { child: ChildProcess; exited: Promise<void> };

/**
 * Starts the production build the way tests/e2e/global-setup.ts does (through the shop's front door,
 * scripts/serve.mjs), in a process group of its own so that one signal reaches the server and anything it started.
 */
export function startServer(port: number, env: NodeJS.ProcessEnv, log: WriteStream): ShopServer {
  const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, exited };
}

export function signalGroup(server: ShopServer, signal: NodeJS.Signals): void {
  try {
    process.kill(-server.child.pid!, signal);
  } catch {
    // Already gone.
  }
}

export async function stopServer(server: ShopServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  signalGroup(server, "SIGTERM");
  if (!(await Promise.race([server.exited.then(() => true), delay(10_000).then(() => false)]))) signalGroup(server, "SIGKILL");
  await Promise.race([server.exited, delay(5_000)]);
}

export async function waitForHealth(baseUrl: string, server: ShopServer): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  let gone = false;
  void server.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error("The shop server exited before it was healthy");
    try {
      if ((await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(10_000) })).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await delay(500);
  }
  throw new Error(`GET ${baseUrl}/api/health did not answer 200 within ${startTimeoutMs / 1000} s`);
}

/** Kept referenced: between a kill and the restart a pause is all that keeps the bench's process alive. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export async function withClient<T>(database: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `${postgresServer}/${database}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
