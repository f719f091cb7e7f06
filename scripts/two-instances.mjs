#!/usr/bin/env node
// `npm run start:two-instances`: the shop as it runs on several machines, on this one. Two instances of the
// production build (scripts/serve.mjs, each with TRUSTED_PROXY_HOPS=1) share one PostgreSQL (DATABASE_URL, created
// when missing), Redis for Next's cache (REDIS_URL, redis://127.0.0.1:6379 unless set), one data folder (DATA_DIR:
// the generated secrets and the sandbox's files) and one public address: nginx on 127.0.0.1:8080, which spreads
// the requests over both and serves catalogue pages from its cache for the second the shop allows
// (scripts/nginx-site.mjs, the same configuration as the README's). Its configuration, pid, logs and page cache live
// in a folder of their own (`nginx -p`); no system configuration is read or touched.
//
// The first instance migrates the database and creates the demo shop on an empty one; the second starts once the
// first is healthy, so the two never race for it. Ctrl-C (or SIGTERM) stops nginx, then both instances.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/shop npm run start:two-instances [-- --port 8080 --instance-ports 3101,3102]
//
// startTwoInstances() does the same for a bench (bench/two-instances.ts) and answers how to stop it again.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, closeSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import pg from "pg";
import { nginxConfig } from "./nginx-site.mjs";

const root = path.resolve(import.meta.dirname, "..");
export const NGINX = "/usr/sbin/nginx";
const DATABASE_URL_REQUIRED = "DATABASE_URL is required: both instances share one PostgreSQL database (the embedded one is opened by one process only)";
const startTimeoutMs = 180_000;
const stopTimeoutMs = 10_000;

/** Creates the database DATABASE_URL names when the server has none of that name; answers whether it did. */
export async function ensureDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${databaseUrl}`);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (rowCount) return false;
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    return true;
  } catch (error) {
    // Someone else created it meanwhile.
    if (error?.code === "42P04") return false;
    throw error;
  } finally {
    await client.end();
  }
}

async function checkRedis(redisUrl) {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // Why it failed comes as an event; without a listener ioredis would print it as unhandled.
  let cause;
  redis.on("error", (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${redisUrl} does not answer (${(cause ?? error)?.message ?? String(error)}); start it or set REDIS_URL`);
  } finally {
    redis.disconnect();
  }
}

function checkPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => reject(new Error(`127.0.0.1:${port} is in use (${error.code ?? error.message}); choose other ports`)));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A child in a process group of its own, so that one signal reaches it and whatever it started. */
function spawnGroup(command, args, { env, logFile, label, echo }) {
  const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const log = createWriteStream(logFile, { flags: "a", mode: 0o600 });
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipe(log, { end: false });
    if (echo) stream.on("data", (chunk) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, `[${label}] `)));
  }
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  child.once("error", () => undefined);
  return { child, exited, log, label };
}

function signalGroup(running, signal) {
  try {
    process.kill(-running.child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function stopGroup(running, signal = "SIGTERM") {
  if (running.child.exitCode === null && running.child.signalCode === null) {
    signalGroup(running, signal);
    if (!(await Promise.race([running.exited.then(() => true), delay(stopTimeoutMs).then(() => false)]))) signalGroup(running, "SIGKILL");
    await Promise.race([running.exited, delay(5_000)]);
  }
  await new Promise((resolve) => running.log.end(resolve));
}

async function waitForHealth(url, running, logFile) {
  const deadline = Date.now() + startTimeoutMs;
  let gone;
  void running.exited.then((how) => (gone = how));
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (gone !== undefined) {
      const tail = readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n");
      throw new Error(`${running.label} exited (${gone}) before ${url}/api/health answered 200; the end of ${logFile}:\n${tail}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await delay(300);
  }
  throw new Error(`${url}/api/health did not answer 200 within ${startTimeoutMs / 1000} s (last: ${last}); see ${logFile}`);
}

/**
 * Starts nginx on 127.0.0.1:`port` in front of two instances on 127.0.0.1:`instancePorts`, the first healthy before
 * the second starts, against the PostgreSQL database at `databaseUrl` (created when missing) and Redis at
 * `redisUrl`. `dataDir` is shared by both (generated secrets, sandbox files); `env` adds to what the instances get.
 * `echo` copies their output to this process's, each line marked with the instance. Answers the addresses, the
 * log files and `stop`, which stops nginx and then the instances and, unless `keepFiles`, removes the folder with
 * nginx's configuration and the logs.
 */
export async function startTwoInstances(options = {}) {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error(DATABASE_URL_REQUIRED);
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const port = options.port ?? 8080;
  const instancePorts = options.instancePorts ?? [3101, 3102];
  const dataDir = path.resolve(root, options.dataDir ?? process.env.DATA_DIR ?? ".data");
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No production build in .next: run `npx next build` first");
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx`);

  for (const each of [port, ...instancePorts]) await checkPortFree(each);
  await checkRedis(redisUrl);
  const created = await ensureDatabase(databaseUrl);

  const workDir = mkdtempSync(path.join(os.tmpdir(), "shop-two-instances-"));
  // nginx's workers (nobody, when started as root) reach their temp folders through it; the logs stay private.
  chmodSync(workDir, 0o711);
  mkdirSync(path.join(workDir, "temp"), { mode: 0o711 });
  const publicUrl = `http://127.0.0.1:${port}`;
  const instances = instancePorts.map((instancePort, index) => {
    const name = String.fromCharCode("a".charCodeAt(0) + index);
    return { name, port: instancePort, url: `http://127.0.0.1:${instancePort}`, logFile: path.join(workDir, `instance-${name}.log`) };
  });
  const env = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    // Every link the shop makes (e-mails, payment returns, webhooks) points at nginx, whichever instance makes it.
    AUTH_URL: publicUrl,
    TRUSTED_PROXY_HOPS: "1",
    ...options.env,
  };
  const echo = options.echo ?? false;
  const started = [];
  let stopped;
  const stop = ({ keepFiles = false } = {}) =>
    (stopped ??= (async () => {
      // nginx first, so that no request goes to an instance that is stopping.
      for (const running of [...started].reverse()) await stopGroup(running);
      if (!keepFiles) rmSync(workDir, { recursive: true, force: true });
    })());

  try {
    for (const instance of instances) {
      const server = spawnGroup(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", String(instance.port), "-H", "127.0.0.1"], {
        env: { ...env, PORT: String(instance.port) },
        logFile: instance.logFile,
        label: instance.name,
        echo,
      });
      started.push(server);
      const begun = performance.now();
      await waitForHealth(instance.url, server, instance.logFile);
      instance.startMs = Math.round(performance.now() - begun);
    }

    const conf = path.join(workDir, "nginx.conf");
    writeFileSync(conf, nginxConfig({ prefix: workDir, listen: `127.0.0.1:${port}`, upstreams: instances.map((instance) => `127.0.0.1:${instance.port}`) }));
    // Made here, private: the access log holds the requests' addresses, sign-in links among them.
    for (const name of ["access.log", "error.log"]) closeSync(openSync(path.join(workDir, name), "a", 0o600));
    const nginxLog = path.join(workDir, "error.log");
    const nginx = spawnGroup(NGINX, ["-p", workDir, "-c", conf, "-e", nginxLog], { env: process.env, logFile: path.join(workDir, "nginx.out"), label: "nginx", echo });
    started.push(nginx);
    await waitForHealth(publicUrl, nginx, nginxLog);
  } catch (error) {
    await stop({ keepFiles: true });
    throw error;
  }

  return { publicUrl, instances, databaseCreated: created, dataDir, redisUrl, workDir, accessLog: path.join(workDir, "access.log"), stop };
}

async function main() {
  const { values } = parseArgs({
    options: { port: { type: "string", short: "p", default: "8080" }, "instance-ports": { type: "string", default: "3101,3102" } },
  });
  const port = Number(values.port);
  const instancePorts = values["instance-ports"].split(",").map(Number);
  const isPort = (each) => Number.isInteger(each) && each > 0 && each < 65_536;
  if (!isPort(port)) throw new Error(`--port takes a port, like 8080, not "${values.port}"`);
  if (instancePorts.length !== 2 || !instancePorts.every(isPort)) {
    throw new Error(`--instance-ports takes two ports, like 3101,3102, not "${values["instance-ports"]}"`);
  }
  // Before a build that may take minutes.
  if (!process.env.DATABASE_URL) throw new Error(DATABASE_URL_REQUIRED);
  const build = spawnSync(process.execPath, [path.join(root, "scripts", "build-if-needed.mjs")], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);

  console.log("Starting the first instance (it migrates the database and, on an empty one, creates the demo shop)...");
  const shop = await startTwoInstances({ port, instancePorts, echo: true });
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log("\nStopping nginx and both instances...");
      void shop.stop().then(() => process.exit(0));
    });
  }
  console.log(`
The shop:     ${shop.publicUrl}  (nginx, in front of both instances)
Instance a:   ${shop.instances[0].url}  (started in ${(shop.instances[0].startMs / 1000).toFixed(1)} s)
Instance b:   ${shop.instances[1].url}  (started in ${(shop.instances[1].startMs / 1000).toFixed(1)} s)
Database:     ${new URL(process.env.DATABASE_URL).pathname.slice(1)}${shop.databaseCreated ? " (created)" : ""}; Redis: ${shop.redisUrl}; data folder: ${shop.dataDir}
nginx:        configuration and logs in ${shop.workDir}
Ctrl-C stops everything.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
