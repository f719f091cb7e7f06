// `npm run bench:two-instances`: the shop on two instances behind nginx (scripts/two-instances.mjs: the production
// build twice, one PostgreSQL database made fresh for the run, Redis for Next's cache), checked for what running on
// several machines must not break:
//
//   a. a price that staff change on instance A is on the product page that instance B serves within 1 s. B has
//      served that page a few times first, so it is the invalidation that reaches B, not a first render.
//   b. buyers (100), each with a visitor token and a cart of their own, order the last piece of a product at the same
//      moment through nginx, which spreads them over both instances: exactly one order gets it, the stock ends at 0
//      and every other buyer is refused with the shop's sold-out message.
//   c. the order confirmation e-mails of paid orders (40), queued by the payment webhooks and sent by both
//      instances' job workers, each go exactly once: one try per job, one e-mail per order.
//   d. the catalogue at the edge: autocannon (32 connections, a warm-up then a measured run per target, asking for
//      compressed answers as browsers do) asks for the home page, a category listing and a product page from
//      instance a directly and then through nginx, which serves them from its cache (scripts/nginx-site.mjs), and
//      for /robots.txt through nginx (a prerendered route that nginx does not keep: Next's own floor, behind the
//      proxy). Each page through nginx must answer at least 10 times the requests a second of the same page from
//      Next directly.
//
// Each buyer connects from an address of its own on the loopback network (127.0.1.x, 127.0.2.x): nginx puts it in
// X-Forwarded-For and the instances, trusting one proxy, count each buyer as the client it is. So the shop's limits
// on placing orders (per client and per visitor) apply as they would to real buyers, and none is lifted for the run.
//
// Exits non-zero when a check fails. Needs the production build (`npx next build`), PostgreSQL on 127.0.0.1:5432
// (user postgres), Debian's nginx and redis-server: the run has a Redis of its own unless REDIS_URL names one. The
// database, data folder and Redis it makes are gone at the end. All traffic goes to 127.0.0.0/8 and every loop is
// bounded.
//
//   npm run bench:two-instances [-- --buyers 100 --orders 40 --edge-seconds 8]
import { spawn } from "node:child_process";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import autocannon from "autocannon";
import { Redis } from "ioredis";
import { formatEuro } from "@/lib/money";
import { transformer } from "@/lib/trpc/transformer";
import { descriptionTextFields, type AdminProduct, type ProductFormInput } from "@/server/catalog/admin-schemas";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { CACHE_STATUS_HEADER } from "../scripts/nginx-site.mjs";
import { startTwoInstances, type RunningInstance, type TwoInstances } from "../scripts/two-instances.mjs";
import { delay, option, withClient } from "./shop-server";
import { signInWithEmailLink } from "./staff-session";

const buyerCount = Number(option("buyers", "100"));
const paidOrderCount = Number(option("orders", "40"));
const edgeSeconds = Number(option("edge-seconds", "8"));
const edgeWarmupSeconds = 2;
const edgeConnections = 32;
/** How many times Next's requests a second a page through nginx must answer. */
const edgeGoal = 10;
const postgresServer = "postgres://postgres@127.0.0.1:5432";
const requestTimeoutMs = 60_000;
/** How soon B must show the new price, how often it is asked, and how long the bench waits to report a late one. */
const priceDeadlineMs = 1_000;
const pricePollMs = 50;
const priceWaitMs = 15_000;
const jobsWaitMs = 60_000;

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One HTTP request on a connection of its own, from `from` (a loopback address) when given. */
function send(url: string, options: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string; from?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? "GET", headers: options.headers, localAddress: options.from, agent: false, timeout: requestTimeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error(`${url}: no answer within ${requestTimeoutMs / 1000} s`)));
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

type Called<T> = { ok: true; data: T } | { ok: false; code: string; message: string };

/** One tRPC call as the shop's pages make it: batched, superjson, a query as GET and a mutation as POST. */
async function call<T>(baseUrl: string, procedure: string, kind: "query" | "mutation", input: unknown, options: { headers?: Record<string, string>; from?: string } = {}): Promise<Called<T>> {
  const batch = JSON.stringify({ 0: transformer.serialize(input) });
  const answer =
    kind === "query"
      ? await send(`${baseUrl}/api/trpc/${procedure}?batch=1&input=${encodeURIComponent(batch)}`, { headers: options.headers, from: options.from })
      : await send(`${baseUrl}/api/trpc/${procedure}?batch=1`, { method: "POST", headers: { "content-type": "application/json", ...options.headers }, body: batch, from: options.from });
  type Reply = { result?: { data: Parameters<typeof transformer.deserialize>[0] }; error?: { json: { message: string; data?: { code?: string } } } };
  let reply: Reply | undefined;
  try {
    [reply] = JSON.parse(answer.body) as Reply[];
  } catch {
    reply = undefined;
  }
  if (reply?.result) return { ok: true, data: transformer.deserialize(reply.result.data) as T };
  return { ok: false, code: reply?.error?.json.data?.code ?? `HTTP ${answer.status}`, message: reply?.error?.json.message ?? answer.body.slice(0, 200) };
}

function expectOk<T>(procedure: string, called: Called<T>): T {
  if (!called.ok) throw new Error(`${procedure}: ${called.code} ${called.message}`);
  return called.data;
}

async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let index = 0; index < count; index++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
      const address = server.address();
      ports.push(typeof address === "object" && address ? address.port : 0);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/**
 * A Redis of the run's own (Debian's redis-server, nothing saved to disk), stopped at the end: the run's database is
 * new, so its cache must be too, or pages cached by an earlier run on another database could be served. With
 * REDIS_URL set, that Redis is used instead.
 */
async function startRunRedis(port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  const url = `redis://127.0.0.1:${port}`;
  const server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  let failed: Error | undefined;
  server.once("error", (error) => (failed = error));
  const stop = async () => {
    server.kill("SIGTERM");
    await Promise.race([exited, delay(5_000)]);
  };
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await delay(100)) {
    if (failed) throw new Error(`redis-server could not start (${failed.message}): apt-get install redis-server, or set REDIS_URL`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refused until the server listens: the answer to connect() says so.
    client.on("error", () => undefined);
    const answered = await client.connect().then(() => client.ping()).catch(() => null);
    client.disconnect();
    if (answered === "PONG") return { url, stop };
  }
  await stop();
  throw new Error(`redis-server on ${url} did not answer within 5 s`);
}

const line = (label: string, value: number | string) => console.log(`  ${label.padEnd(66)} ${value}`);
const verdict = (ok: boolean) => (ok ? "passed" : "FAILED");
const ms = (value: number) => `${Math.round(value)} ms`;

/** The product form's values as the admin form sends them for a saved product, with another price. */
function productFormOf(product: AdminProduct, price: Decimal): ProductFormInput & { id: number } {
  const description = Object.fromEntries(descriptionTextFields.map((field) => [field, product[field] ?? ""])) as Record<(typeof descriptionTextFields)[number], string>;
  if (product.categoryId === null || product.manufacturerId === null) throw new Error(`Product ${product.id} has no category or maker; the form needs both`);
  return {
    ...description,
    id: product.id,
    name: product.name,
    price: price.toFixed(2),
    shippingFee: product.shippingFee?.toFixed(2) ?? "",
    isBulk: product.isBulk,
    categoryId: product.categoryId,
    manufacturerId: product.manufacturerId,
    countryId: product.countryId,
    wsStatus: product.wsStatus,
    ebayStatus: product.ebayStatus,
    caliber: product.caliber,
    state: product.state,
    itemType: product.itemType,
    gender: product.gender,
  };
}

/** a. A price changed on A, seen on B's product page. */
async function checkPriceReachesOtherInstance(database: string, a: RunningInstance, b: RunningInstance): Promise<{ ok: boolean; productId: number }> {
  console.log(`\na. A price changed by staff on instance a (${a.url}) shows on instance b's (${b.url}) product page within ${priceDeadlineMs} ms`);
  const signInStarted = performance.now();
  const cookie = await signInWithEmailLink(a.url, a.logFile, "admin@example.com");
  line("staff signed in on a with the e-mail link (from a's log)", ms(performance.now() - signInStarted));

  const productId = await withClient(database, async (client) => {
    const { rows } = await client.query<{ id: number }>(`select id from product where ws_status = 'ONLINE' and stock > 1 order by id limit 1`);
    if (!rows[0]) throw new Error("The demo shop has no product on sale");
    return rows[0].id;
  });
  const product = expectOk("admin.product.get", await call<AdminProduct>(a.url, "admin.product.get", "query", { id: productId }, { headers: { cookie } }));
  const pagePath = `/product/${productId}`;
  const oldPrice = formatEuro(product.price);
  const newPriceValue = product.price.plus("111.11");
  const newPrice = formatEuro(newPriceValue);

  const warming: string[] = [];
  for (let round = 0; round < 4; round++) {
    const begun = performance.now();
    const page = await send(`${b.url}${pagePath}`);
    if (page.status !== 200 || !page.body.includes(oldPrice)) throw new Error(`b's ${pagePath} answered ${page.status} without the price ${oldPrice}`);
    warming.push(`${ms(performance.now() - begun)} (${page.headers["x-nextjs-cache"] ?? "no x-nextjs-cache header"})`);
  }
  line(`b's ${pagePath} before the change (${oldPrice}), 4 requests`, warming.join(", "));

  const sent = performance.now();
  expectOk("admin.product.update", await call(a.url, "admin.product.update", "mutation", productFormOf(product, newPriceValue), { headers: { cookie, origin: a.url } }));
  const saved = performance.now();
  line(`price changed to ${newPrice} through a (admin.product.update)`, ms(saved - sent));

  let seenAfter: number | null = null;
  let lastOldAfter: number | null = null;
  let polls = 0;
  while (seenAfter === null && performance.now() - saved < priceWaitMs) {
    polls++;
    const page = await send(`${b.url}${pagePath}`);
    if (page.body.includes(newPrice)) seenAfter = performance.now() - saved;
    else {
      lastOldAfter = performance.now() - saved;
      await delay(pricePollMs);
    }
  }
  const ok = seenAfter !== null && seenAfter <= priceDeadlineMs;
  line("b's page with the new price, after a answered the change", seenAfter === null ? `not within ${priceWaitMs / 1000} s` : ms(seenAfter));
  line("b's last answer with the old price, after a answered", lastOldAfter === null ? "none" : ms(lastOldAfter));
  line(`requests to b until then (one every ${pricePollMs} ms after the last answer)`, polls);
  line(`a. new price on b within ${priceDeadlineMs} ms`, verdict(ok));
  return { ok, productId };
}

function guestOrder(email: string, productId: number): PlaceOrderInput {
  return {
    email,
    address: { firstName: "Ada", lastName: "Buyer", street: "Keizersgracht", houseNumber: "1", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" },
    shippingMethod: "TNT",
    paymentMethod: "IDEAL",
    items: [{ productId, quantity: 1 }],
  };
}

/** A buyer at its own address with its own visitor token, as the shop's pages get one (shared.token.manage). */
async function newVisitor(baseUrl: string, from: string): Promise<{ from: string; headers: Record<string, string> }> {
  const token = expectOk("shared.token.manage", await call<string>(baseUrl, "shared.token.manage", "mutation", {}, { from }));
  return { from, headers: { "x-token": token } };
}

/** The access log's placeOrder requests written since `offset`, by the instance nginx sent each to. */
function placeOrderRequestsByInstance(shop: TwoInstances, offset: number): string {
  const byUpstream = new Map<string, number>();
  for (const entry of readFileSync(shop.accessLog, "utf8").slice(offset).split("\n")) {
    if (!entry.includes("shared.checkout.placeOrder")) continue;
    const upstream = /upstream=(\S+)/.exec(entry)?.[1] ?? "none";
    byUpstream.set(upstream, (byUpstream.get(upstream) ?? 0) + 1);
  }
  return shop.instances.map((instance) => `${instance.name} ${byUpstream.get(`127.0.0.1:${instance.port}`) ?? 0}`).join(", ");
}

/** b. Many buyers, one piece. */
async function checkLastPiece(shop: TwoInstances, database: string, exceptProductId: number): Promise<boolean> {
  console.log(`\nb. ${buyerCount} buyers order the last piece at the same moment through nginx (${shop.publicUrl})`);
  const product = await withClient(database, async (client) => {
    const { rows } = await client.query<{ id: number; name: string }>(
      `select id, name from product where ws_status = 'ONLINE' and stock = 1 and id <> $1 order by id limit 1`,
      [exceptProductId],
    );
    if (!rows[0]) throw new Error("The demo shop has no product on sale with one piece in stock");
    return rows[0];
  });
  const items = [{ productId: product.id, quantity: 1 }];
  const buyers = await Promise.all(
    Array.from({ length: buyerCount }, async (_, index) => {
      const visitor = await newVisitor(shop.publicUrl, `127.0.1.${index + 1}`);
      // The checkout page's summary of the buyer's cart, as each buyer sees it before placing the order.
      expectOk("shared.checkout.quote", await call(shop.publicUrl, "shared.checkout.quote", "query", { countryCode: "NL", items }, visitor));
      return visitor;
    }),
  );
  line(`buyers with a visitor token and product ${product.id} in their cart`, buyers.length);

  const lastOrderBefore = await withClient(database, async (client) => (await client.query<{ id: number }>(`select coalesce(max(id), 0) as id from "order"`)).rows[0]!.id);
  const logOffset = statSync(shop.accessLog).size;
  const begun = performance.now();
  const outcomes = await Promise.all(
    buyers.map((buyer, index) =>
      call<{ orderNumber: string }>(shop.publicUrl, "shared.checkout.placeOrder", "mutation", guestOrder(`race-buyer-${index + 1}@example.com`, product.id), buyer).catch(
        (error: unknown) => ({ ok: false as const, code: "NO ANSWER", message: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  );
  const tookMs = performance.now() - begun;
  const soldOutMessage = `Sorry, "${product.name}" has just sold out. Please remove it from your cart.`;
  const placed = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.data.orderNumber] : []));
  const soldOut = outcomes.filter((outcome) => !outcome.ok && outcome.message === soldOutMessage).length;
  const others = new Map<string, number>();
  for (const outcome of outcomes) {
    if (outcome.ok || outcome.message === soldOutMessage) continue;
    const key = `${outcome.code}: ${outcome.message}`;
    others.set(key, (others.get(key) ?? 0) + 1);
  }
  const after = await withClient(database, async (client) => {
    const { rows } = await client.query<{ stock: number; ledger: number; ordered: number }>(
      `select p.stock,
              (select coalesce(sum(s.quantity), 0)::int from stock_record s where s.product_id = p.id) as ledger,
              (select count(*)::int from order_item i where i.product_id = p.id and i.order_id > $2) as ordered
       from product p where p.id = $1`,
      [product.id, lastOrderBefore],
    );
    return rows[0]!;
  });

  line("placeOrder requests by the instance nginx sent them to", placeOrderRequestsByInstance(shop, logOffset));
  line("all answered within", ms(tookMs));
  line("orders placed (must be 1)", `${placed.length}${placed.length ? ` (${placed.join(", ")})` : ""}`);
  line(`refused as sold out (must be ${buyerCount - 1})`, soldOut);
  line("refused otherwise or not answered (must be 0)", others.size === 0 ? 0 : [...others].map(([key, count]) => `${count}× ${key}`).join("; "));
  line("stock afterwards, and the sum of its ledger (must be 0 and 0)", `${after.stock} and ${after.ledger}`);
  line("order lines for the product in the orders placed now (must be 1)", after.ordered);
  console.log(`  the sold-out message: ${soldOutMessage}`);
  const ok = placed.length === 1 && soldOut === buyerCount - 1 && others.size === 0 && after.stock === 0 && after.ledger === 0 && after.ordered === 1;
  line("b. exactly one order gets the last piece", verdict(ok));
  return ok;
}

/** The order confirmation e-mails the sandbox mail logged in an instance's log, to the given addresses. */
function confirmationsLogged(instance: RunningInstance, addresses: Set<string>): number {
  let count = 0;
  for (const entry of readFileSync(instance.logFile, "utf8").split("\n")) {
    if (!entry.includes('"MAIL_SANDBOX"')) continue;
    try {
      const logged = JSON.parse(entry) as { kind?: string; to?: string };
      if (logged.kind === "order-confirmation" && logged.to && addresses.has(logged.to)) count++;
    } catch {
      // Not a whole line yet.
    }
  }
  return count;
}

/** c. Jobs queued on either instance, run once by one of the two workers. */
async function checkJobsRunOnce(shop: TwoInstances, database: string, exceptProductIds: number[]): Promise<boolean> {
  console.log(`\nc. ${paidOrderCount} orders paid at once: their confirmation e-mail jobs run exactly once between both instances' workers`);
  const pieces = await withClient(database, async (client) => {
    const { rows } = await client.query<{ id: number; stock: number }>(
      `select id, stock from product where ws_status = 'ONLINE' and stock > 0 and not (id = any($1)) order by stock desc, id`,
      [exceptProductIds],
    );
    return rows.flatMap((row) => Array.from({ length: row.stock }, () => row.id));
  });
  if (pieces.length < paidOrderCount) throw new Error(`The demo shop has ${pieces.length} pieces on sale, fewer than ${paidOrderCount}`);

  const addresses = Array.from({ length: paidOrderCount }, (_, index) => `paying-buyer-${index + 1}@example.com`);
  const orderNumbers: string[] = [];
  // Not a race: a few at a time, each from its own address with its own visitor token.
  for (let start = 0; start < paidOrderCount; start += 8) {
    const placed = await Promise.all(
      addresses.slice(start, start + 8).map(async (email, offset) => {
        const index = start + offset;
        const visitor = await newVisitor(shop.publicUrl, `127.0.2.${index + 1}`);
        return expectOk("shared.checkout.placeOrder", await call<{ orderNumber: string }>(shop.publicUrl, "shared.checkout.placeOrder", "mutation", guestOrder(email, pieces[index]!), visitor));
      }),
    );
    orderNumbers.push(...placed.map((order) => order.orderNumber));
  }
  line("orders placed through nginx", orderNumbers.length);

  // The buyers choose "paid" on the sandbox's payment page: it records the outcome and calls the shop's webhook as
  // Mollie would, a form post with the payment's id to the address the shop gave (nginx's), all at once here.
  const payments = await withClient(database, async (client) => {
    const { rows } = await client.query<{ id: string; webhook_url: string }>(
      `update sandbox_payment set status = 'paid', completed_at = now()
       where status = 'open' and order_id in (select id from "order" where order_number = any($1))
       returning id, webhook_url`,
      [orderNumbers],
    );
    return rows;
  });
  const paidAt = performance.now();
  const webhooks = await Promise.all(
    payments.map((payment) =>
      send(payment.webhook_url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ id: payment.id }).toString() }),
    ),
  );
  const webhooksOk = webhooks.filter((answer) => answer.status === 200).length;
  line(`payment webhooks answered 200 (must be ${paidOrderCount})`, webhooksOk);

  type JobFigures = { queued: number; completed: number; tries: number; retried: number };
  const jobFigures = () =>
    withClient(database, async (client) => {
      const { rows } = await client.query<JobFigures>(
        `select count(*)::int as queued,
                count(*) filter (where state = 'completed')::int as completed,
                coalesce(sum(case when started_on is null then 0 else retry_count + 1 end), 0)::int as tries,
                count(*) filter (where retry_count > 0)::int as retried
         from pgboss.job j join mail_message m on j.singleton_key = 'mail-' || m.id
         where j.name = 'mail-delivery' and m.idempotency_key = any($1)`,
        [orderNumbers.map((orderNumber) => `order-confirmation/${orderNumber}`)],
      );
      return rows[0]!;
    });
  let jobs = await jobFigures();
  while (jobs.completed < paidOrderCount && performance.now() - paidAt < jobsWaitMs) {
    await delay(250);
    jobs = await jobFigures();
  }
  const doneAfter = performance.now() - paidAt;
  const emails = await withClient(database, async (client) => {
    const { rows } = await client.query<{ one: number; more: number }>(
      `select count(*) filter (where sent = 1)::int as one, count(*) filter (where sent > 1)::int as more
       from (select "to", count(*) as sent from mail_outbox where kind = 'order-confirmation' and "to" = any($1) group by "to") as per_order`,
      [addresses],
    );
    return rows[0]!;
  });
  const wanted = new Set(addresses);
  const [a, b] = shop.instances;
  const byA = confirmationsLogged(a, wanted);
  const byB = confirmationsLogged(b, wanted);

  line(`confirmation jobs queued (must be ${paidOrderCount}), and done`, `${jobs.queued}, ${jobs.completed} (all done ${ms(doneAfter)} after the payments)`);
  line(`tries those jobs took (must be ${paidOrderCount}); jobs tried more than once (must be 0)`, `${jobs.tries}; ${jobs.retried}`);
  line(`orders with one confirmation e-mail in the outbox (must be ${paidOrderCount}); with more (must be 0)`, `${emails.one}; ${emails.more}`);
  // Which worker takes a job is the queue's choice: on a quiet machine one may drain a burst before the other polls.
  line("e-mails sent by the job workers of a and b", `a ${byA}, b ${byB}`);
  const ok =
    webhooksOk === paidOrderCount &&
    jobs.queued === paidOrderCount &&
    jobs.completed === paidOrderCount &&
    jobs.tries === paidOrderCount &&
    jobs.retried === 0 &&
    emails.one === paidOrderCount &&
    emails.more === 0 &&
    byA + byB === paidOrderCount;
  line("c. each job ran exactly once", verdict(ok));
  return ok;
}

type EdgeFigures = { reqPerSec: number; p50: number; p99: number; notOk: number; cacheStatuses: Map<string, number> };

/** A response header by name, whichever case it came in and whether autocannon gives the headers as a list or a map. */
function headerOf(headers: Record<string, string | string[]> | string[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (Array.isArray(headers)) {
    const at = headers.findIndex((each, index) => index % 2 === 0 && each.toLowerCase() === wanted);
    return at === -1 ? undefined : headers[at + 1];
  }
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
  return found === undefined ? undefined : String(found);
}

/** autocannon at one address: a warm-up, then the measured run; answers other than 200 and nginx's cache statuses counted. */
async function hammer(url: string): Promise<EdgeFigures> {
  const cacheStatuses = new Map<string, number>();
  let notOk = 0;
  const run = (seconds: number, counted: boolean) =>
    autocannon({
      url,
      // As browsers ask: both Next and nginx send the page compressed.
      headers: { "accept-encoding": "gzip, deflate, br" },
      connections: edgeConnections,
      duration: seconds,
      timeout: 10,
      requests: [
        {
          onResponse: (status, _body, _context, headers) => {
            if (!counted) return;
            if (status !== 200) notOk++;
            const key = headerOf(headers, CACHE_STATUS_HEADER) ?? "none";
            cacheStatuses.set(key, (cacheStatuses.get(key) ?? 0) + 1);
          },
        },
      ],
    });
  await run(edgeWarmupSeconds, false);
  const result = await run(edgeSeconds, true);
  return { reqPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, notOk: notOk + result.errors, cacheStatuses };
}

/** d. Catalogue pages through nginx against the same pages from an instance directly. */
async function measureEdge(shop: TwoInstances, database: string): Promise<boolean> {
  console.log(
    `\nd. Catalogue pages through nginx (${shop.publicUrl}) against Next directly (instance a), autocannon ${edgeConnections} connections, ${edgeWarmupSeconds} s warm-up then ${edgeSeconds} s per target (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)`,
  );
  const { categoryId, productId } = await withClient(database, async (client) => {
    const { rows } = await client.query<{ categoryId: number; productId: number }>(
      `select category_id as "categoryId", id as "productId" from product where ws_status = 'ONLINE' and stock > 0 and category_id is not null order by id limit 1`,
    );
    if (!rows[0]) throw new Error("The demo shop has no product on sale");
    return rows[0];
  });
  const pages = [
    { label: "home", path: "/" },
    { label: "category", path: `/search?category=${categoryId}` },
    { label: "product", path: `/product/${productId}` },
  ];
  const direct = shop.instances[0].url;
  let ok = true;
  const rows: string[] = [];
  const row = (label: string, figures: EdgeFigures, ratio: string) =>
    rows.push(
      `  ${label.padEnd(40)} ${Math.round(figures.reqPerSec).toLocaleString("en").padStart(8)} req/s  p50 ${ms(figures.p50).padStart(7)}  p99 ${ms(figures.p99).padStart(7)}  ${ratio}`,
    );
  const robots = await hammer(`${shop.publicUrl}/robots.txt`);
  for (const page of pages) {
    const next = await hammer(`${direct}${page.path}`);
    const edge = await hammer(`${shop.publicUrl}${page.path}`);
    const ratio = edge.reqPerSec / next.reqPerSec;
    const hits = edge.cacheStatuses.get("HIT") ?? 0;
    const answered = [...edge.cacheStatuses.values()].reduce((sum, count) => sum + count, 0);
    const pass = ratio >= edgeGoal && edge.notOk === 0 && next.notOk === 0;
    ok &&= pass;
    row(`${page.label} ${page.path} from Next directly`, next, next.notOk ? `${next.notOk} not 200 or errors` : "");
    row(
      `${page.label} ${page.path} through nginx`,
      edge,
      `${ratio.toFixed(1)}× Next directly (goal ≥ ${edgeGoal}×) ${verdict(pass)}; ${(edge.reqPerSec / robots.reqPerSec).toFixed(1)}× robots.txt${edge.notOk ? `; ${edge.notOk} not 200 or errors` : ""}`,
    );
    rows.push(`  ${"".padEnd(40)} nginx's answers: ${[...edge.cacheStatuses].map(([status, count]) => `${status} ${((count / answered) * 100).toFixed(2)}%`).join(", ")} (${hits.toLocaleString("en")} hits)`);
  }
  row("/robots.txt through nginx (the reference)", robots, robots.notOk ? `${robots.notOk} not 200 or errors` : "");
  for (const each of rows) console.log(each);
  line(`d. every catalogue page through nginx at least ${edgeGoal}× Next directly`, verdict(ok));
  return ok;
}

async function main(): Promise<number> {
  // Each buyer has an address of its own in one /24 of the loopback network.
  for (const [name, value] of [["buyers", buyerCount], ["orders", paidOrderCount]] as const) {
    if (!Number.isInteger(value) || value < 2 || value > 254) {
      console.error(`--${name} takes a whole number from 2 to 254, not ${value}`);
      return 1;
    }
  }
  const database = `shop_bench_two_${process.pid}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-two-"));
  const [port, portA, portB, redisPort] = await freePorts(4);
  let shop: TwoInstances | undefined;
  let redis: Awaited<ReturnType<typeof startRunRedis>> | undefined;
  let ok = false;
  const cleanUp = async () => {
    await shop?.stop({ keepFiles: !ok });
    await redis?.stop();
    await withClient("postgres", (client) => client.query(`drop database if exists ${database} with (force)`));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const stopOnInterrupt = () => void cleanUp().finally(() => process.exit(130));
  process.once("SIGINT", stopOnInterrupt);
  process.once("SIGTERM", stopOnInterrupt);

  const started = performance.now();
  try {
    console.log(`Starting two instances and nginx on a fresh PostgreSQL database ${database} (the first migrates and creates the demo shop)...`);
    // Sign-in links and sent e-mails are read from the instances' logs, which log them at info.
    redis = await startRunRedis(redisPort!);
    shop = await startTwoInstances({
      databaseUrl: `${postgresServer}/${database}`,
      redisUrl: redis.url,
      port: port!,
      instancePorts: [portA!, portB!],
      dataDir,
      env: { LOG_LEVEL: "info" },
    });
    const [a, b] = shop.instances;
    line(`instance a on ${a.url}, healthy after (migrations and demo shop)`, ms(a.startMs));
    line(`instance b on ${b.url}, healthy after`, ms(b.startMs));
    line("nginx on", `${shop.publicUrl} (Redis ${shop.redisUrl})`);

    const price = await checkPriceReachesOtherInstance(database, a, b);
    const lastPiece = await checkLastPiece(shop, database, price.productId);
    const jobs = await checkJobsRunOnce(shop, database, [price.productId]);
    const edge = await measureEdge(shop, database);
    ok = price.ok && lastPiece && jobs && edge;
  } catch (error) {
    console.error(`\nThe bench stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    process.off("SIGINT", stopOnInterrupt);
    process.off("SIGTERM", stopOnInterrupt);
    console.log(`\n${ok ? "All checks passed" : "A check FAILED"} in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
    if (!ok && shop) console.error(`The instances' logs and nginx's are kept in ${shop.workDir}.`);
    await cleanUp();
  }
  return ok ? 0 : 1;
}

process.exitCode = await main();
