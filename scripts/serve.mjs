#!/usr/bin/env node
// `npm start`: serves the production build through the shop's front door (scripts/front-door.mjs), which decides
// each request's client address from the socket, or from TRUSTED_PROXY_HOPS trusted proxies, before Next.js sees
// it. Rate limits and the sandbox pages' loopback check rely on that address (SECURITY-REVIEW C1, H2).
//
// Listens on 127.0.0.1:3000 unless HOST / PORT (or -H / -p) say otherwise: a default start is not reachable from
// the network. Put it behind a reverse proxy, or set HOST=0.0.0.0, to serve others.
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import next from "next";
import { isServedTarget, mapCatalogueAddress, normaliseRequestHeaders, guardResponseHead } from "./front-door.mjs";

const { values } = parseArgs({ options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname ?? process.env.HOST ?? "127.0.0.1";
const hops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0);
if (!Number.isInteger(hops) || hops < 0 || hops > 5) {
  console.error(`TRUSTED_PROXY_HOPS must be a whole number from 0 to 5, not "${process.env.TRUSTED_PROXY_HOPS}"`);
  process.exit(1);
}
process.env.PORT = String(port);
// Tells the app that the client address header is this front door's (src/server/http/client-address.ts).
process.env.SHOP_FRONT_DOOR = "1";

// No hostname for Next itself: it calls the proxy with a "localhost" address, and a proxy rewrite is only served
// inside this server when its origin matches the one Next builds from this hostname; any other is fetched over HTTP.
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), port });
const handle = app.getRequestHandler();
await app.prepare();
// What the start-up hook made of this process (src/instrumentation.ts): the function that stops its job worker, or
// why the shop could not start (the database folder in use by another server, a migration that failed...). A server
// that could not start must not listen and answer 500 to everything (SECURITY-REVIEW N-L7).
let stopWorker = async () => {};
try {
  stopWorker = (await globalThis.shopServerStarted) ?? stopWorker;
} catch (error) {
  console.error(`The shop could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const server = createServer((request, response) => {
  if (!isServedTarget(request)) {
    response.writeHead(400, { "content-type": "text/plain", connection: "close" }).end("The request target must be a path.");
    return;
  }
  normaliseRequestHeaders(request, hops);
  mapCatalogueAddress(request);
  guardResponseHead(response);
  handle(request, response);
});
// A client that trickles its headers or its body holds a connection for no more than these (Node's own are minutes);
// the request time leaves a 50 MB upload on a slow line its minutes. Idle keep-alive connections close after 5 s,
// above the README's nginx keepalive_timeout, so that nginx never sends on a connection being closed.
server.headersTimeout = 20_000;
server.requestTimeout = 300_000;
server.keepAliveTimeout = 5_000;
server.listen(port, hostname, () => {
  console.log(`Shop listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port} (trusted proxy hops: ${hops})`);
});

/**
 * A stop (a deploy's SIGTERM, Ctrl-C) stops taking requests and connections, lets the requests in flight finish, and
 * lets the job worker finish the jobs it runs: it takes no new one, waits up to 20 s, then hands those still running
 * back to the queue, where another instance takes them at once (src/server/jobs/worker.ts). So an ordinary deploy
 * cuts no e-mail or label in half (RELIABILITY-REVIEW D5), and exits 0. A second signal, or a stop that takes longer
 * than STOP_LIMIT_MS (a database out of reach), exits 1 at once: the jobs it held go back to the queue a few seconds
 * later anyway, once this process's heartbeat is seen to have stopped.
 */
const STOP_LIMIT_MS = 30_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    const exitNow = (why) => {
      console.error(`${why}: exiting without waiting any longer; the jobs still running are handed back once this process's heartbeat is missed`);
      process.exit(1);
    };
    for (const again of ["SIGTERM", "SIGINT"]) process.once(again, () => exitNow(`${again} again`));
    setTimeout(() => exitNow(`the stop took longer than ${STOP_LIMIT_MS / 1000} s`), STOP_LIMIT_MS).unref();
    console.log(`${signal}: stopping; finishing the requests and jobs under way`);
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    // Keep-alive connections of clients that never send again would hold close() open.
    setTimeout(() => server.closeAllConnections(), 5_000).unref();
    Promise.all([closed, stopWorker()]).then(
      () => {
        console.log("stopped");
        process.exit(0);
      },
      (error) => {
        console.error(`Stopping the job worker failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  });
}
