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
import { mapCatalogueAddress, normaliseRequestHeaders } from "./front-door.mjs";

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

const server = createServer((request, response) => {
  normaliseRequestHeaders(request, hops);
  mapCatalogueAddress(request);
  handle(request, response);
});
server.listen(port, hostname, () => {
  console.log(`Shop listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port} (trusted proxy hops: ${hops})`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    // Keep-alive connections would hold close() open; a stop is a stop.
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
