// What the benches that run the shop share: the production build on a fresh database of the local PostgreSQL, or on
// one the bench prepared (withBenchShop), started as its own process group, killed and started again; a client on a
// database.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, type WriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort } from "../tests/helpers/free-port";

const root = process.cwd();
const postgresServer = "postgres://postgres@127.0.0.1:5432";
const startTimeoutMs = 180_000;

export function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

/** The value at percentile `p` (0 to 100) of ascending `sorted`, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

type ShopServer = { child: ChildProcess; exited: Promise<void> };

/**
 * Starts the production build the way tests/e2e/global-setup.ts does (through the shop's front door,
 * scripts/serve.mjs), in a process group of its own so that one signal reaches the server and anything it started.
 */
function startServer(port: number, env: NodeJS.ProcessEnv, log: WriteStream): ShopServer {
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

function signalGroup(server: ShopServer, signal: NodeJS.Signals): void {
  try {
    process.kill(-server.child.pid!, signal);
  } catch {
    // Already gone.
  }
}

async function stopServer(server: ShopServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  signalGroup(server, "SIGTERM");
  if (!(await Promise.race([server.exited.then(() => true), delay(10_000).then(() => false)]))) signalGroup(server, "SIGKILL");
  await Promise.race([server.exited, delay(5_000)]);
}

async function waitForHealth(baseUrl: string, server: ShopServer): Promise<void> {
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


export async function withClient<T>(database: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `${postgresServer}/${database}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The shop a bench runs against: its PostgreSQL database, started, killed and started again on it. */
export type BenchShop = {
  /** The database's name; withClient reaches it when it is on the local server. */
  database: string;
  databaseUrl: string;
  baseUrl: string;
  /** Starts the shop's production build on the bench's database and waits until it is healthy. */
  start(): Promise<void>;
  /** SIGKILLs the shop's process group, as a crash would, and waits until it is gone. */
  kill(): Promise<void>;
  /** SIGTERMs the shop, as a deploy stops it, and answers its exit code once it is gone. */
  stop(): Promise<number | null>;
};

/** Whether the production build is there to start; says how to make it when it is not. */
export function hasProductionBuild(): boolean {
  if (existsSync(path.join(root, ".next", "BUILD_ID"))) return true;
  console.error(`No production build in ${path.join(root, ".next")}: run \`npx next build\` first.`);
  return false;
}

export type BenchShopOptions = {
  /** A database the bench prepared (a large catalogue, say): the shop runs on it as it is, and it is kept. */
  databaseUrl?: string;
};

/**
 * Runs a bench against the production build on a fresh database `shop_bench_<name>_<pid>` with sandbox integrations,
 * or on `options.databaseUrl`: `run` answers whether every figure held. A fresh database is dropped at the end (also
 * on Ctrl-C); the server's output is kept, and its last lines shown, when the bench failed. Answers the exit code.
 */
export async function withBenchShop(
  name: string,
  extraEnv: Record<string, string>,
  run: (shop: BenchShop) => Promise<boolean>,
  options: BenchShopOptions = {},
): Promise<number> {
  if (!hasProductionBuild()) return 1;
  const fresh = !options.databaseUrl;
  const databaseUrl = options.databaseUrl ?? `${postgresServer}/shop_bench_${name}_${process.pid}`;
  const database = new URL(databaseUrl).pathname.slice(1);
  const dropFresh = () => (fresh ? withClient("postgres", (client) => client.query(`drop database if exists ${database} with (force)`)) : Promise.resolve());
  const workDir = mkdtempSync(path.join(os.tmpdir(), `shop-bench-${name}-`));
  const logFile = path.join(workDir, "server.log");
  const log = createWriteStream(logFile);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: workDir,
    DATABASE_URL: databaseUrl,
    NEXT_PUBLIC_SERVER_URL: baseUrl,
    AUTH_URL: baseUrl,
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    ...extraEnv,
  };
  delete env.INTEGRATIONS;
  env.ENVIRONMENT = "development";

  if (fresh) await withClient("postgres", (client) => client.query(`create database ${database}`));
  let server: ShopServer | undefined;
  const stopOnInterrupt = () => {
    if (server) signalGroup(server, "SIGKILL");
    void dropFresh().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopOnInterrupt);
  let ok = false;
  try {
    ok = await run({
      database,
      databaseUrl,
      baseUrl,
      async start() {
        server = startServer(port, env, log);
        await waitForHealth(baseUrl, server);
      },
      async kill() {
        if (!server) return;
        signalGroup(server, "SIGKILL");
        await server.exited;
      },
      async stop() {
        if (!server) return null;
        const { child } = server;
        server.child.kill("SIGTERM");
        await server.exited;
        return child.exitCode;
      },
    });
    return ok ? 0 : 1;
  } finally {
    process.off("SIGINT", stopOnInterrupt);
    if (server) await stopServer(server);
    log.end();
    await dropFresh();
    if (!ok) {
      const tail = readFileSync(logFile, "utf8").split("\n").slice(-40).join("\n");
      console.error(`\n--- last lines of the server's output (all of it in ${logFile}) ---\n${tail}`);
    } else {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}
