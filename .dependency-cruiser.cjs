// The map of the server's domains as a check: which way imports may run in src/server. docs/architecture.md draws
// this map; this file is its source of truth, and `npm test` runs it (the lint stage: `npm run lint:boundaries`).
//
// Three kinds of places, top to bottom:
//   wiring        - lists every domain: the router tree, each request's tRPC context, the job registry, the
//                   start-up, the demo seed and the database command-line tools. May import anything.
//   read models   - read across domains for one page (the dashboard and sidebar, the owner's reports, the health
//                   page). Import domains;
//                   only wiring imports them.
//   domains       - the shop's rules, each importing only the domains listed under it below (downward).
//   shared ground - what every domain stands on; imports no domain.
// Tests are not checked: a test may reach into any domain to set up its case.

/** A top-level file or folder of src/server as a path pattern. */
const place = (name) => (name.endsWith(".ts") ? `^src/server/${name.replace(".", "\\.")}$` : `^src/server/${name}/`);
const anyOf = (names) => names.map(place).join("|");

const wiring = ["root.ts", "trpc-context.ts", "job-registry.ts", "startup.ts", "setup"];
const readModels = ["admin", "reports", "health"];
const sharedGround = [
  "config",
  "db",
  "errors.ts",
  "logger.ts",
  "http",
  "integrations",
  "jobs",
  "logbook",
  "notifications",
  "rate-limit",
  "state-machine.ts",
  "cache",
  "documents",
];

/**
 * Each domain and the domains it may import, as docs/architecture.md lists them: imports run down this list. The
 * tRPC procedure builders (`trpc.ts`) stand on the shared ground with every router; they know the session's type
 * (see the exceptions below), and `trpc-context.ts` reads the session itself.
 */
const domains = {
  fulfilment: ["marketplace", "orders", "shipping", "stock", "catalog", "messages", "account", "auth"],
  marketplace: ["orders", "refunds", "catalog", "shipping", "stock", "messages"],
  checkout: ["orders", "account", "cart", "pricing", "catalog", "shipping", "stock", "discounts"],
  margins: ["orders", "stock"],
  refunds: ["orders", "stock", "messages"],
  orders: ["account", "pricing", "catalog", "discounts", "webhooks", "shipping", "stock", "messages"],
  account: ["discounts"],
  cart: ["pricing", "catalog", "discounts"],
  pricing: ["catalog", "discounts"],
  catalog: ["discounts", "stock", "storage"],
  navbar: [],
  maps: [],
  discounts: [],
  stock: [],
  storage: [],
  webhooks: [],
  shipping: [],
  messages: [],
  auth: ["token"],
  token: [],
};

/**
 * Imports that run against the map, each by path with its reason. Add none without a reason a reviewer accepts;
 * docs/architecture.md lists the same.
 */
const exceptions = [
  {
    place: "stock",
    from: "^src/server/stock/",
    to: "^src/server/marketplace/quantity-push\\.ts$",
    because:
      "bookStock queues the push of a product's new quantity in the transaction that changes it, so that no stock change, whichever domain makes it, can forget to tell the marketplace",
  },
  {
    place: "catalog",
    from: "^src/server/catalog/admin-service\\.ts$",
    to: "^src/server/marketplace/quantity-push\\.ts$",
    because:
      "a product's price change queues the push of its eBay price (marketplace/channel-price.ts) in the transaction that changes it, as bookStock does for its quantity, so the live listing follows the price staff set",
  },
  {
    place: "trpc.ts",
    from: "^src/server/trpc\\.ts$",
    to: "^src/server/auth/session\\.ts$",
    typeOnly: true,
    because:
      "the procedure builders narrow the context's session to auth's Session type (a type only: nothing runs across), and auth's own routers are built with those builders; one type with one home is worth this pair",
  },
];

/** Where the exceptions let `name` import against the map. */
const allowedAgainstTheMap = (name) => exceptions.filter((exception) => exception.place === name).map((exception) => exception.to);

const rules = [
  {
    name: "shared-ground-imports-no-domain",
    comment:
      "The shared ground (db, jobs, integrations, logbook, config, http, ...) is what every domain stands on: it receives what it needs from a domain as an argument, or the code moves up (docs/architecture.md).",
    severity: "error",
    from: { path: anyOf(sharedGround) },
    to: { path: "^src/server/", pathNot: [anyOf(sharedGround), "^src/server/trpc\\.ts$"] },
  },
  {
    name: "nothing-imports-wiring",
    comment: "Wiring (root.ts, job-registry.ts, startup.ts, setup/) lists the domains; no domain or shared ground may import it back.",
    severity: "error",
    from: { path: "^src/server/", pathNot: anyOf(wiring) },
    to: { path: anyOf(wiring) },
  },
  {
    name: "only-wiring-imports-read-models",
    comment: "admin/, reports/ and health/ read across domains for their pages; only the wiring imports them.",
    severity: "error",
    from: { path: "^src/server/", pathNot: [anyOf(wiring), anyOf(readModels)] },
    to: { path: anyOf(readModels) },
  },
  ...Object.entries(domains).map(([domain, below]) => ({
    name: `${domain}-imports-only-downward`,
    comment: `${domain}/ may import ${below.length ? below.join(", ") : "no other domain"} and the shared ground${allowedAgainstTheMap(domain).length ? ", plus the exceptions listed for it" : ""} (the map in docs/architecture.md and .dependency-cruiser.cjs).`,
    severity: "error",
    from: { path: place(domain) },
    to: {
      path: "^src/server/",
      pathNot: [place(domain), ...below.map(place), anyOf(sharedGround), "^src/server/trpc\\.ts$", ...allowedAgainstTheMap(domain)],
    },
  })),
  {
    name: "procedures-read-only-session-and-token",
    comment: "trpc.ts builds the procedures every router uses: it may read the session and the visitor token, nothing else of a domain.",
    severity: "error",
    from: { path: "^src/server/trpc\\.ts$" },
    to: { path: "^src/server/", pathNot: [anyOf(sharedGround), ...allowedAgainstTheMap("trpc.ts")] },
  },
  ...exceptions
    .filter((exception) => exception.typeOnly)
    .map((exception) => ({
      name: `${exception.place}-takes-only-types-against-the-map`,
      comment: `${exception.place} may import ${exception.to.replace(/^\^src\/server\//, "").replaceAll("\\", "").replace(/\$$/, "")} for its types only: ${exception.because}.`,
      severity: "error",
      from: { path: exception.from },
      to: { path: exception.to, dependencyTypesNot: ["type-only"] },
    })),
  {
    name: "every-server-place-is-on-the-map",
    comment: "A new top-level file or folder in src/server goes into .dependency-cruiser.cjs (wiring, read model, domain or shared ground) and docs/architecture.md.",
    severity: "error",
    from: { path: "^src/server/" },
    to: {
      path: "^src/server/",
      pathNot: [anyOf(wiring), anyOf(readModels), anyOf(Object.keys(domains)), anyOf(sharedGround), "^src/server/trpc\\.ts$"],
    },
  },
  {
    name: "server-imports-no-features",
    comment: "Nothing in src/server imports the browser's UI (src/features) or the routes (src/app).",
    severity: "error",
    from: { path: "^src/server/" },
    to: { path: "^src/(features|app)/" },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: rules,
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.(ts|tsx|mjs)$|\\.fixture\\.ts$|^src/server/.*\\.d\\.mts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".mjs", ".js"] },
  },
};
