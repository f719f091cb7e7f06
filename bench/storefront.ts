// `npm run bench:storefront`: how the storefront holds up under load on a large catalogue (issue 16, "Benchmarks that
// compare"). On a PostgreSQL database with 100 000 products (bench/large-catalogue.ts) the shop's production build
// starts, and autocannon sends 32 connections at each target in turn over loopback, a 3 s warm-up then 10 s
// measured, and prints requests per second, p50 and p99:
//
//   references   /robots.txt (Next serving a prerendered route), /api/health (one database ping)
//   pages        /, /product/<an online product>, /search?category=<the top category with most products>,
//                /search?search=omega                          target: ≥ 0.5 × robots.txt's req/s, p99 < 300 ms
//   cold pages   /product/<a different online product each request>, none asked for before in the run (a crawler
//                walking the catalogue): every one rendered anew   target (issue 29): ≥ 150 req/s, p99 < 500 ms
//   tRPC         shared.product.getMany as the browser's batch link sends it (GET, superjson), with facets:
//                one query repeated ('omega')                   target: ≥ 0.5 × /api/health's req/s
//                a different query per request (words, a filter, a price ceiling)   target (issue 29): p95 < 50 ms
//
// The p95 is read from every answer's own time (autocannon's histogram stops at p90 and p97.5).
// Every answer must be 200; anything else, and connection errors (a request over --timeout seconds among them),
// are counted and shown. It prints the Cache-Control each target answers with (SPEC section 7: catalogue
// pages `s-maxage=1, stale-while-revalidate=86400`).
//
// Then checkout throughput: 16 buyers place guest orders for --checkout-seconds as the browser does (a visitor token,
// the cart priced after adding to it, the checkout quote, the order with the sandbox iDEAL payment); it prints orders
// per second, p50 and p99 of a placement, and whether the orders and the stock agree afterwards. The shop limits
// order placement per client address and per visitor (src/server/rate-limit): as in bench/crash-orders.ts, the
// buyers stand behind a proxy of ours (TRUSTED_PROXY_HOPS=1) and each order comes from a visitor and an address of
// its own, so every placement is counted by the limiter and none is over it.
//
// Exits non-zero when a target is missed, an answer is not 200, or the orders and the stock disagree. Needs the
// production build (`npx next build`) and PostgreSQL on 127.0.0.1:5432 (user postgres). The catalogue's database is
// kept for the next run (reseeded only when it holds another number of products, or with --reseed); the orders
// placed stay in it. All traffic goes to 127.0.0.1, and a run takes about two and a half minutes after the seed.
//
//   npm run bench:storefront -- [--url postgres://postgres@127.0.0.1:5432/shop_bench_storefront] [--products 100000]
//                               [--reseed] [--connections 32] [--warmup 3] [--duration 10] [--buyers 16]
//                               [--timeout 30] [--checkout-seconds 10] [--only <part of a target's label>]
//                               [--cpu-prof <folder>]
//
// `--cpu-prof <folder>` has the shop's server write a V8 CPU profile of the whole run there when it stops (open it in
// Chrome's DevTools, Performance tab): with `--only "different one"`, where a cold product page's time goes.
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Client } from "pg";
import { transformer } from "@/lib/trpc/transformer";
import type { GetManyProductsInput } from "@/server/catalog/schemas";
import { count, guestOrder, placeOrder, priceCart, productsOffLedgerSql, quoteCheckout, visitorToken, type Guest } from "./guest-orders";
import { largeCatalogueOptions, openLargeCatalogue } from "./large-catalogue";
import { hasProductionBuild, option, percentile, withBenchShop } from "./shop-server";

process.env.LOG_LEVEL ??= "silent";

const catalogue = largeCatalogueOptions("shop_bench_storefront");
const connections = Number(option("connections", "32"));
const warmupSeconds = Number(option("warmup", "3"));
const durationSeconds = Number(option("duration", "10"));
/**
 * How long a request may take before it counts as an error. Generous, so that a slow page is measured rather than
 * cut off: a request given up on keeps the server busy, and the load would then be resent requests on top of it.
 */
const timeoutSeconds = Number(option("timeout", "30"));
const buyers = Number(option("buyers", "16"));
const checkoutSeconds = Number(option("checkout-seconds", "10"));
/**
 * `--only "product/<,distinct"`: the targets whose label holds one of these (and the references), without the
 * checkout; all by default.
 */
const only = option("only", "").split(",").filter(Boolean);
/** A folder for the server's CPU profile, written when it stops; none by default. */
const cpuProfileFolder = option("cpu-prof", "");

/** Each buyer's X-Forwarded-For names its round in the last octet, so rounds stay under 256. */
const maxRoundsPerBuyer = 250;
/** Issue 16's targets. */
const pageShareOfRobots = 0.5;
const pageP99Ms = 300;
const getManyShareOfHealth = 0.5;
/** Issue 29's: product pages nobody asked for yet, and listings nobody asked for yet. */
const coldPageGoal = { reqPerSec: 150, p99Ms: 500 };
const distinctGetManyGoal = { p95Ms: 50 };

/** `shared.product.getMany` in the address, as the browser's batch link (superjson, batching on) sends a query. */
function getManyPath(input: GetManyProductsInput): string {
  return `/api/trpc/shared.product.getMany?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: transformer.serialize(input) }))}`;
}

const distinctWords = ["seiko", "omega crown", "crystal", "sapphire", "valjoux", "leather strap", "bezel", "dial", "chronograph", "pocket", "diver", "jewels", "steel bracelet", "hands", "serviced", "gasket"];
const distinctFilters: Partial<GetManyProductsInput>[] = [
  { caliber: ["AUTOMATIC"] }, { caliber: ["HANDWIND"] }, { caliber: ["QUARTZ_ELECTRONIC_KINETIC"] }, { caliber: ["CHRONOGRAPH"] },
  { state: ["NEW"] }, { state: ["USED"] }, { gender: ["MENS"] }, { gender: ["LADIES"] }, { gender: ["UNISEX"] },
];

/** Query `n` of a run in which no two queries are alike: words, one filter and a price ceiling that is n's own. */
function distinctQuery(n: number): GetManyProductsInput {
  return {
    search: distinctWords[n % distinctWords.length]!,
    ...distinctFilters[n % distinctFilters.length]!,
    priceMax: String(50 + 5 * n),
    orderBy: { relevance: "desc" },
    page: 1,
    facets: true,
  };
}

type Target = {
  label: string;
  /** The path of each request, called for every one. */
  path: () => string;
  headers?: Record<string, string>;
  /** The reference its req/s is compared with; none for the references themselves. */
  comparedWith?: "/robots.txt" | "/api/health";
  /**
   * What it must reach: at least `share` of the reference's req/s (issue 16) or `reqPerSec` (issue 29), and a p95 or
   * p99 below the given milliseconds.
   */
  goal?: { share?: number; reqPerSec?: number; p95Ms?: number; p99Ms?: number };
};

type Measured = {
  target: Target;
  reqPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers other than 200, warm-up included, by status, and connection errors by message. */
  notOk: Map<string, number>;
  firstNotOk?: string;
};

async function measure(baseUrl: string, target: Target): Promise<Measured> {
  const notOk = new Map<string, number>();
  let firstNotOk: string | undefined;
  const bump = (key: string) => notOk.set(key, (notOk.get(key) ?? 0) + 1);
  let answerMs: number[] = [];
  const run = (seconds: number) => {
    const instance = autocannon({
      url: baseUrl,
      connections,
      duration: seconds,
      timeout: timeoutSeconds,
      headers: target.headers,
      requests: [
        {
          setupRequest: (request) => ({ ...request, path: target.path() }),
          onResponse: (status, body) => {
            if (status === 200) return;
            bump(`HTTP ${status}`);
            firstNotOk ??= `HTTP ${status}: ${body.slice(0, 300)}`;
          },
        },
      ],
    });
    instance.on("reqError", (error: Error) => bump(`error: ${error.message}`));
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseMs: number) => answerMs.push(responseMs));
    return instance;
  };
  await run(warmupSeconds);
  answerMs = [];
  const result = await run(durationSeconds);
  const sorted = answerMs.sort((a, b) => a - b);
  return { target, reqPerSec: result.requests.average, p50: result.latency.p50, p95: percentile(sorted, 95), p99: result.latency.p99, notOk, firstNotOk };
}

type Verdict = { ratio?: number; pass?: boolean };

function verdictOf({ target, reqPerSec, p95, p99 }: Measured, byLabel: Map<string, Measured>): Verdict {
  const ratio = target.comparedWith ? reqPerSec / byLabel.get(target.comparedWith)!.reqPerSec : undefined;
  const goal = target.goal;
  if (!goal) return { ratio };
  const pass =
    (goal.share === undefined || (ratio ?? 0) >= goal.share) &&
    (goal.reqPerSec === undefined || reqPerSec >= goal.reqPerSec) &&
    (goal.p95Ms === undefined || p95 < goal.p95Ms) &&
    (goal.p99Ms === undefined || p99 < goal.p99Ms);
  return { ratio, pass };
}

function goalText(goal: Target["goal"]): string {
  if (!goal) return "";
  return [
    goal.share !== undefined ? `≥ ${goal.share}` : undefined,
    goal.reqPerSec !== undefined ? `≥ ${goal.reqPerSec} req/s` : undefined,
    goal.p95Ms !== undefined ? `p95 < ${goal.p95Ms} ms` : undefined,
    goal.p99Ms !== undefined ? `p99 < ${goal.p99Ms} ms` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

function printTable(results: Measured[]): boolean {
  const byLabel = new Map(results.map((measured) => [measured.target.label, measured]));
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(
    `\n${"target".padEnd(44)}${"req/s".padStart(9)}${"p50".padStart(9)}${"p95".padStart(9)}${"p99".padStart(9)}   ${"× reference".padEnd(24)}${"target".padEnd(30)}${"not 200".padStart(8)}  result`,
  );
  let allPass = true;
  for (const measured of results) {
    const { ratio, pass } = verdictOf(measured, byLabel);
    const { comparedWith, goal } = measured.target;
    const notOk = [...measured.notOk.values()].reduce((sum, n) => sum + n, 0);
    const answered = notOk === 0;
    const result = !answered ? "FAIL (not 200)" : pass === undefined ? "" : pass ? "PASS" : "FAIL";
    if (!answered || pass === false) allPass = false;
    console.log(
      `${measured.target.label.padEnd(44)}${measured.reqPerSec.toFixed(1).padStart(9)}${ms(measured.p50).padStart(9)}${ms(measured.p95).padStart(9)}${ms(measured.p99).padStart(9)}   ${(ratio === undefined ? "" : `${ratio.toFixed(2)} × ${comparedWith}`).padEnd(24)}${goalText(goal).padEnd(30)}${String(notOk).padStart(8)}  ${result}`,
    );
  }
  for (const measured of results.filter((each) => each.notOk.size > 0)) {
    console.log(`\n${measured.target.label}: ${[...measured.notOk].map(([what, n]) => `${what} × ${n}`).join(", ")}`);
    if (measured.firstNotOk) console.log(`  first: ${measured.firstNotOk}`);
  }
  return allPass;
}

type CheckoutLoad = {
  placed: string[];
  placementMs: number[];
  /** Steps refused or unanswered, by step and code. */
  trouble: Map<string, number>;
  /** Refusals other than a piece that sold out between the quote and the order (CONFLICT). */
  unexpected: number;
};

/** One buyer: a new visitor from an address of its own for each order, until the time is up. */
async function buyer(index: number, network: number, baseUrl: string, productIds: number[], until: number, load: CheckoutLoad): Promise<void> {
  const note = (step: string, outcome: { kind: "refused"; code: string } | { kind: "failed" }) => {
    const code = outcome.kind === "refused" ? outcome.code : "no answer";
    load.trouble.set(`${step}: ${code}`, (load.trouble.get(`${step}: ${code}`) ?? 0) + 1);
    if (code !== "CONFLICT") load.unexpected++;
  };
  for (let round = 0; round < maxRoundsPerBuyer && Date.now() < until; round++) {
    const guest: Guest = { baseUrl, clientAddress: `10.${network}.${index}.${round}` };
    const token = await visitorToken(guest);
    if (token.kind !== "answered") {
      note("visitor token", token);
      continue;
    }
    const visitor: Guest = { ...guest, visitorToken: token.data };
    const order = guestOrder(index, round, productIds);
    const items = order.items ?? [];
    let priced = true;
    // The cart drawer prices the cart each time a product goes in; then the checkout page quotes the order.
    for (let added = 1; added <= items.length && priced; added++) {
      const quote = await priceCart(visitor, { items: items.slice(0, added) });
      if (quote.kind !== "answered") {
        note("cart", quote);
        priced = false;
      }
    }
    if (!priced) continue;
    const checkoutQuote = await quoteCheckout(visitor, { countryCode: order.address.countryCode, items });
    if (checkoutQuote.kind !== "answered") {
      note("checkout quote", checkoutQuote);
      continue;
    }
    const started = performance.now();
    const outcome = await placeOrder(visitor, order);
    if (outcome.kind === "placed") {
      load.placementMs.push(performance.now() - started);
      load.placed.push(outcome.orderNumber);
    } else {
      note("place order", outcome);
    }
  }
}

async function checkout(baseUrl: string, client: Client): Promise<boolean> {
  const { rows: inStock } = await client.query<{ id: number; stock: number }>(`select id, stock from product where ws_status = 'ONLINE' and stock > 0`);
  const stockBefore = new Map(inStock.map((row) => [row.id, row.stock]));
  const lastOrderBefore = await count(client, `select coalesce(max(id), 0)::int as n from "order"`);
  // A network of this run's own: the catalogue's database keeps the limiter's counts of earlier runs.
  const network = 20 + Math.floor(Math.random() * 200);
  console.log(`\nCheckout: ${buyers} buyers for ${checkoutSeconds} s over ${inStock.length.toLocaleString("en")} products in stock, from 10.${network}.<buyer>.<order>...`);

  const load: CheckoutLoad = { placed: [], placementMs: [], trouble: new Map(), unexpected: 0 };
  const started = performance.now();
  const until = Date.now() + checkoutSeconds * 1000;
  const productIds = inStock.map((row) => row.id);
  await Promise.all(Array.from({ length: buyers }, (_, index) => buyer(index, network, baseUrl, productIds, until, load)));
  const seconds = (performance.now() - started) / 1000;

  const newOrders = await count(client, `select count(*)::int as n from "order" where id > $1`, [lastOrderBefore]);
  const { rows: sold } = await client.query<{ productId: number; quantity: number; stock: number }>(
    `select i.product_id as "productId", sum(i.quantity)::int as quantity, p.stock
     from order_item i join product p on p.id = i.product_id where i.order_id > $1 group by i.product_id, p.stock`,
    [lastOrderBefore],
  );
  const unitsSold = sold.reduce((sum, row) => sum + row.quantity, 0);
  const stockTaken = sold.reduce((sum, row) => sum + (stockBefore.get(row.productId) ?? 0) - row.stock, 0);
  const confirmedMissing = await count(
    client,
    `select count(*)::int as n from unnest($1::text[]) as confirmed(number) where not exists (select 1 from "order" o where o.order_number = confirmed.number)`,
    [load.placed],
  );
  const offLedger = await count(client, productsOffLedgerSql);

  const sorted = [...load.placementMs].sort((a, b) => a - b);
  const line = (label: string, value: number | string) => console.log(`  ${label.padEnd(62)} ${value}`);
  line("orders placed", `${load.placed.length} in ${seconds.toFixed(1)} s: ${(load.placed.length / seconds).toFixed(1)} orders/s`);
  line("placing an order (shared.checkout.placeOrder)", `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms`);
  line("steps refused or unanswered", [...load.trouble].map(([what, n]) => `${what} × ${n}`).join(", ") || "none");
  line("orders in the database = orders confirmed to buyers", `${newOrders} = ${load.placed.length}${confirmedMissing ? ` (${confirmedMissing} confirmed ones missing)` : ""}`);
  line("pieces in the new orders = stock taken from their products", `${unitsSold} = ${stockTaken}`);
  line("products whose stock differs from their ledger sum", offLedger);
  const agree = newOrders === load.placed.length && confirmedMissing === 0 && unitsSold === stockTaken && offLedger === 0;
  console.log(agree ? "  Orders and stock agree." : "  Orders and stock DISAGREE.");
  return agree && load.unexpected === 0 && load.placed.length > 0;
}

async function main(): Promise<number> {
  // Before the seed, which takes minutes: without the build there is nothing to measure.
  if (!hasProductionBuild()) return 1;
  const database = await openLargeCatalogue(catalogue);
  await database.close();

  return withBenchShop(
    "storefront",
    {
      TRUSTED_PROXY_HOPS: "1",
      // The server's own options only: the bench and autocannon stay unprofiled.
      ...(cpuProfileFolder ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --cpu-prof --cpu-prof-dir=${path.resolve(cpuProfileFolder)}`.trim() } : {}),
    },
    async ({ baseUrl, ...shop }) => {
      console.log(`Starting the shop's production build on ${baseUrl} with ${catalogue.url}...`);
      await shop.start();
      const client = new Client({ connectionString: catalogue.url });
      await client.connect();
      try {
        const { rows: products } = await client.query<{ id: number }>(
          `select id from product where ws_status = 'ONLINE' and stock > 0 order by id offset (select count(*) / 2 from product) limit 1`,
        );
        const { rows: categories } = await client.query<{ id: number; name: string; products: number }>(
          `with recursive tree as (select id as top, id from product_category where parent_id is null
             union all select tree.top, c.id from product_category c join tree on c.parent_id = tree.id)
           select t.top as id, max(c.name) as name, count(p.id)::int as products
           from tree t join product_category c on c.id = t.top join product p on p.category_id = t.id
           group by t.top order by products desc limit 1`,
        );
        // Every online product once, in an order of this run's own: no page is asked for twice, none is in the cache.
        const { rows: online } = await client.query<{ id: number }>(`select id from product where ws_status = 'ONLINE' order by random()`);
        const product = products[0];
        const category = categories[0];
        if (!product || !category) throw new Error("The catalogue has no online product in stock, or no top category with products");

        const token = await visitorToken({ baseUrl, clientAddress: "10.19.0.1" });
        if (token.kind !== "answered") throw new Error(`No visitor token for the tRPC calls: ${token.kind === "refused" ? token.code : "no answer"}`);
        const browserHeaders = { "x-token": token.data };
        const repeated = getManyPath({ search: "omega", orderBy: { relevance: "desc" }, page: 1, facets: true });
        let distinct = 0;
        let cold = 0;
        const coldPage = () => `/product/${online[cold++ % online.length]!.id}`;
        const fixed = (path: string) => () => path;
        const page = { comparedWith: "/robots.txt", goal: { share: pageShareOfRobots, p99Ms: pageP99Ms } } as const;
        const getMany = { headers: browserHeaders, comparedWith: "/api/health" } as const;
        const targets: Target[] = [
          { label: "/robots.txt", path: fixed("/robots.txt") },
          { label: "/api/health", path: fixed("/api/health") },
          { label: "/", path: fixed("/"), ...page },
          { label: `/product/${product.id}`, path: fixed(`/product/${product.id}`), ...page },
          { label: "/product/<a different one each request>", path: coldPage, goal: coldPageGoal },
          { label: `/search?category=${category.id} (${category.name})`, path: fixed(`/search?category=${category.id}`), ...page },
          { label: "/search?search=omega", path: fixed("/search?search=omega"), ...page },
          { label: "getMany 'omega' with facets, repeated", path: fixed(repeated), ...getMany, goal: { share: getManyShareOfHealth } },
          { label: "getMany distinct (words + 2 filters)", path: () => getManyPath(distinctQuery(distinct++)), ...getMany, goal: distinctGetManyGoal },
        ];

        const references = new Set(["/robots.txt", "/api/health"]);
        if (only.length > 0) targets.splice(0, targets.length, ...targets.filter((target) => references.has(target.label) || only.some((part) => target.label.includes(part))));

        // One request each before the load: that every target answers, and the Cache-Control a CDN would go by.
        console.log(`\nCache-Control (SPEC, catalogue pages: s-maxage=1, stale-while-revalidate=86400):`);
        for (const target of targets) {
          const response = await fetch(`${baseUrl}${target.path()}`, { headers: target.headers, signal: AbortSignal.timeout(60_000) });
          await response.arrayBuffer();
          console.log(`  ${target.label.padEnd(44)} HTTP ${response.status}  ${response.headers.get("cache-control") ?? "(none)"}`);
        }

        // The figures are only as quiet as the machine: say how busy it was.
        const [load] = os.loadavg();
        console.log(`\nautocannon: ${connections} connections, ${warmupSeconds} s warm-up then ${durationSeconds} s measured per target, on ${catalogue.products.toLocaleString("en")} products (load average ${load!.toFixed(1)} on ${os.availableParallelism()} cores)...`);
        const results: Measured[] = [];
        for (const target of targets) {
          const measured = await measure(baseUrl, target);
          console.log(`  ${target.label.padEnd(44)} ${measured.reqPerSec.toFixed(1).padStart(8)} req/s`);
          results.push(measured);
        }
        const targetsMet = printTable(results);
        const ordersAgree = only.length > 0 || (await checkout(baseUrl, client));
        return targetsMet && ordersAgree;
      } finally {
        await client.end();
      }
    },
    { databaseUrl: catalogue.url },
  );
}

process.exitCode = await main();
