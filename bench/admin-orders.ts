// `npm run bench:orders`: p50/p95 latency of the order admin's table query (`listOrders`, page and count) over a large
// order history, of the dashboard and sidebar that count orders, and of the monthly margins (12 and 24 months, read
// from the sales rollups). Creates a PostgreSQL database of its own on 127.0.0.1:5432 (user postgres), seeds it as
// `npm run db:seed -- --products 100000 --orders 1000000` would (a few minutes), vacuums it as autovacuum would,
// measures, and drops it. Target: p95 under 50 ms per shape (issue 12); the dashboard under 100 ms (issue 29).
//
//   npm run bench:orders -- [--products 100000] [--orders 1000000] [--rounds 40] [--explain] [--keep]
//   npm run bench:orders -- --reuse bench_orders_xxx        (measure a database an earlier --keep left, no seeding)
//   npm run bench:orders -- --reuse bench_orders_xxx --only search   (the shapes whose name holds "search", nothing else)
//   npm run bench:orders -- --reuse bench_orders_xxx --only dashboard  (the dashboard, sidebar and margins, nothing else)
//   npm run bench:orders -- --reuse bench_orders_xxx --only reports  (the owner's reports, nothing else)
//
// --reuse first applies the migrations the kept database lacks (and their backfills), timed.
//
// --explain prints EXPLAIN (ANALYZE, BUFFERS) of each statement `listOrders` sends for each shape, as it sends it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";
import { benchOwnerReports } from "./owner-reports";

process.env.LOG_LEVEL = "silent";
applyEmbeddedDefaults();

const server = "postgres://postgres@127.0.0.1:5432";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const products = Number(option("products", "100000"));
const orders = Number(option("orders", "1000000"));
const rounds = Number(option("rounds", "40"));
const reuse = process.argv.includes("--reuse") ? option("reuse", "") : null;
const keep = process.argv.includes("--keep") || reuse !== null;
const explain = process.argv.includes("--explain");
const only = process.argv.includes("--only") ? option("only", "") : null;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** One statement outside any transaction (CREATE DATABASE, VACUUM), on a database of the server. */
async function onServer(database: string, statement: string): Promise<void> {
  const { openDatabase } = await import("@/server/db/client");
  const { sql } = await import("drizzle-orm");
  const connection = openDatabase({ url: `${server}/${database}` });
  try {
    await connection.db.execute(sql.raw(statement));
  } finally {
    await connection.close();
  }
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(0)} s`;
}

async function main() {
  const name = reuse ?? `bench_orders_${Date.now().toString(36)}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Use a plain database name, not "${name}"`);
  const url = `${server}/${name}`;
  const { openDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/setup/migrate");
  const { seedDatabase } = await import("@/server/setup/seed/seed");
  const { createSandboxStorage } = await import("@/server/integrations/storage/sandbox");
  const { listOrders } = await import("@/server/orders/order-table");
  const { orderListInput } = await import("@/server/orders/admin-schemas");
  const { getDashboard } = await import("@/server/admin/dashboard-service");
  const { getSidebarInformation } = await import("@/server/admin/sidebar-service");
  const { monthlyMargins } = await import("@/server/margins/monthly-margins");
  const { rawRows } = await import("@/server/db/raw-rows");
  const { sql } = await import("drizzle-orm");

  if (!reuse) await onServer("postgres", `create database ${name}`);
  const database = openDatabase({ url });
  const storageRoot = mkdtempSync(path.join(os.tmpdir(), "bench-orders-"));
  try {
    if (!reuse) {
      let started = performance.now();
      await runMigrations(database);
      console.log(`Database ${name}: migrated in ${seconds(started)}; seeding ${products} products and ${orders} orders...`);
      started = performance.now();
      await seedDatabase(database.db, createSandboxStorage({ root: storageRoot }), { products, orders, images: 0, log: (line) => console.log(`  ${line}`) });
      console.log(`Seeded in ${seconds(started)}`);
      started = performance.now();
      // What autovacuum does soon after a bulk load: the visibility map lets index-only scans skip the table.
      await onServer(name, "vacuum analyze");
      console.log(`Vacuumed in ${seconds(started)}\n`);
    } else {
      // A database kept by an earlier run gets the migrations it lacks, with their backfills of what it holds.
      const started = performance.now();
      await runMigrations(database);
      console.log(`Database ${name}: brought to this build's migrations in ${seconds(started)}`);
    }
    if (only === "reports") {
      await benchOwnerReports(database.db, Math.min(rounds, 20));
      return;
    }

    const [counts] = await rawRows<{ orders: number; products: number }>(
      database.db,
      sql`select (select count(*) from "order")::int as orders, (select count(*) from product)::int as products`,
    );
    // Real values to look for, spread over the history, a different one each round so no answer is simply cached.
    const samples = await rawRows<{ email: string; order_number: string; last_name: string }>(
      database.db,
      sql`select a.email, o.order_number, a.last_name from "order" o join order_address a on a.order_id = o.id
          where o.id % ${Math.max(1, Math.floor((counts?.orders ?? 1) / rounds))} = 0 order by o.id limit ${rounds}`,
    );
    const [admin] = await rawRows<{ id: string }>(database.db, sql`select id from "user" where email = 'admin@example.com'`);
    const pick = <T,>(round: number, values: T[]) => values[round % values.length]!;
    const lastYear = new Date().getFullYear() - 1;

    // `acceptance`: the shapes issue 12 names (newest first, by status, e-mail, order number, date range).
    type Shape = { name: string; acceptance: boolean; input: (round: number) => Record<string, unknown> };
    const shapes: Shape[] = [
      { name: "all · newest first · page 1", acceptance: true, input: () => ({}) },
      { name: "all · newest first · page 20", acceptance: true, input: () => ({ page: 20 }) },
      { name: "all · oldest first · page 1", acceptance: true, input: () => ({ direction: "asc" }) },
      { name: "status PAID_READY_TO_SHIP · newest first", acceptance: true, input: () => ({ status: "PAID_READY_TO_SHIP" }) },
      { name: "status SHIPPED · newest first · page 5", acceptance: true, input: () => ({ status: "SHIPPED", page: 5 }) },
      { name: "status CANCELLED · newest first", acceptance: true, input: () => ({ status: "CANCELLED" }) },
      { name: "search e-mail (whole)", acceptance: true, input: (round) => ({ search: pick(round, samples).email }) },
      // A buyer's name part of the address, without the number: all of that buyer's addresses.
      { name: "search e-mail (start: first.last)", acceptance: true, input: (round) => ({ search: pick(round, samples).email.split("@")[0]!.replace(/\d+$/, "") }) },
      { name: "search order number (whole)", acceptance: true, input: (round) => ({ search: pick(round, samples).order_number }) },
      { name: "search order number (bare digits)", acceptance: true, input: (round) => ({ search: String(Number(pick(round, samples).order_number.slice(-6))) }) },
      { name: "date range · one week last year", acceptance: true, input: () => ({ from: `${lastYear}-03-02`, to: `${lastYear}-03-08` }) },
      { name: "date range · one month · oldest first", acceptance: true, input: () => ({ from: `${lastYear}-06-01`, to: `${lastYear}-06-30`, direction: "asc" }) },
      { name: "date range · SHIPPED in a week", acceptance: true, input: () => ({ status: "SHIPPED", from: `${lastYear}-09-07`, to: `${lastYear}-09-13` }) },
      { name: "search order number (start: 10 000 numbers)", acceptance: false, input: (round) => ({ search: pick(round, samples).order_number.slice(0, 10) }) },
      { name: "search last name", acceptance: false, input: (round) => ({ search: pick(round, samples).last_name }) },
      { name: "search last name, no accent ('muller')", acceptance: false, input: () => ({ search: "muller" }) },
      // Every buyer with that first name: a start that tens of thousands of addresses share.
      { name: "search e-mail (start: first.)", acceptance: false, input: (round) => ({ search: `${pick(round, samples).email.split(".")[0]!}.` }) },
      { name: "search product word 'seiko'", acceptance: false, input: () => ({ search: "seiko" }) },
      { name: "search product caliber '6139'", acceptance: false, input: () => ({ search: "6139" }) },
      { name: "sort by total · highest first", acceptance: false, input: () => ({ sort: "total" }) },
      { name: "filter shop EBAY", acceptance: false, input: () => ({ shop: "EBAY" }) },
      { name: "filter country DE · TNT", acceptance: false, input: () => ({ countryCode: "DE", shippingMethod: "TNT" }) },
    ];

    console.log(`${counts?.orders} orders, ${counts?.products} products; ${rounds} timed rounds per shape after 3 warm-up rounds; page of 50 with its count.\n`);
    const all = { acceptance: [] as number[], other: [] as number[] };
    for (const shape of shapes.filter((candidate) => only === null || (only !== "dashboard" && candidate.name.includes(only)))) {
      const run = (round: number) => listOrders(database.db, orderListInput.parse(shape.input(round)));
      for (let i = 0; i < 3; i++) await run(i);
      const times: number[] = [];
      let matches = "";
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        const page = await run(round);
        times.push(performance.now() - started);
        matches = `${page.totalIsEstimate ? "~" : ""}${page.totalItems} matches`;
      }
      times.sort((a, b) => a - b);
      all[shape.acceptance ? "acceptance" : "other"].push(...times);
      console.log(`${shape.name.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms   (${matches})`);
      if (explain) await explainShape(url, listOrders, orderListInput.parse(shape.input(0)));
    }
    console.log("");
    for (const [label, times] of [["acceptance shapes", all.acceptance], ["other shapes", all.other]] as const) {
      if (times.length === 0) continue;
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(`${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms — target < 50 ms: ${p95 < 50 ? "met" : "NOT met"}`);
    }
    console.log("");

    for (const [label, run] of only !== null && only !== "dashboard" ? [] : [
      ["dashboard (getDashboard)", () => getDashboard(database.db, admin!.id)],
      ["sidebar counts (getSidebarInformation)", () => getSidebarInformation(database.db, admin!.id)],
      ["margins, 12 months (monthlyMargins)", () => monthlyMargins(database.db, { months: 12 })],
      ["margins, 24 months (monthlyMargins)", () => monthlyMargins(database.db, { months: 24 })],
    ] as const) {
      for (let i = 0; i < 2; i++) await run();
      const times: number[] = [];
      for (let round = 0; round < Math.min(rounds, 20); round++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(`${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms`);
    }
    if (only !== "dashboard") await benchOwnerReports(database.db, Math.min(rounds, 20));
  } finally {
    await database.close();
    rmSync(storageRoot, { recursive: true, force: true });
    if (keep) console.log(`\nKept database ${name}; measure it again with: npm run bench:orders -- --reuse ${name}`);
    else await onServer("postgres", `drop database if exists ${name} with (force)`);
  }
}

/**
 * Runs `listOrders` once through a connection that records what it sends, then shows PostgreSQL's plan and timing
 * of each statement with the same parameters.
 */
async function explainShape(url: string, listOrders: typeof import("@/server/orders/order-table").listOrders, input: Parameters<typeof listOrders>[1]) {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const schema = await import("@/server/db/schema");
  const sent: { query: string; params: unknown[] }[] = [];
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const recording = drizzle({ client, schema, casing: "snake_case", logger: { logQuery: (query, params) => sent.push({ query, params }) } });
    await listOrders(recording as unknown as Parameters<typeof listOrders>[0], input);
    for (const { query, params } of sent) {
      if (query.startsWith("explain")) continue;
      const { rows } = await client.query(`explain (analyze, buffers) ${query}`, params);
      console.log(`\n  ${query.replace(/\s+/g, " ").slice(0, 300)}\n  params ${JSON.stringify(params).slice(0, 200)}`);
      for (const row of rows) console.log(`    ${row["QUERY PLAN"]}`);
    }
    console.log("");
  } finally {
    await client.end();
  }
}

await main();
