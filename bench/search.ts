// `npm run bench:search`: seeds a PostgreSQL database with a large catalogue (100 000 products by default) and
// prints p50/p95 latency of `shared.product.getMany` for text queries with two filters, and for broad one-word
// queries that match thousands of products, with facet counts, called through the tRPC router as the shop calls
// it. Target: p95 under 50 ms for each.
//
//   npm run bench:search -- [--url postgres://postgres@127.0.0.1:5432/shop_bench_search] [--products 100000]
//                            [--runs 400] [--reseed]
//
// The database is created when missing and seeded only when it does not hold the asked number of products (or with
// --reseed), so repeated runs measure without waiting for the seed again.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";

process.env.LOG_LEVEL = "silent";
applyEmbeddedDefaults();

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}

const url = option("url", "postgres://postgres@127.0.0.1:5432/shop_bench_search");
const products = Number(option("products", "100000"));
const runs = Number(option("runs", "400"));
const reseed = process.argv.includes("--reseed");

/** The benchmarked calls, ranked by relevance, with facets: words (one misspelt) with two filters... */
const mainQueries = [
  { search: "seiko automatic", caliber: ["AUTOMATIC"], inStock: true },
  { search: "omega crown", state: ["NEW"], inStock: true },
  { search: "sieko movement", caliber: ["AUTOMATIC"], state: ["USED"] },
  { search: "crystal", gender: ["MENS"], inStock: true },
] as const;
/** ...and single words matching thousands of products, where counting and ranking every match would be slow. */
const broadQueries = [{ search: "crystal" }, { search: "watch" }, { search: "seiko" }, { search: "crown" }] as const;
const queries = [...mainQueries, ...broadQueries];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function ensureDatabase(address: string): Promise<void> {
  const target = new URL(address);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Use a plain database name, not "${name}"`);
  const admin = new URL(address);
  admin.pathname = "/postgres";
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const { openDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/db/migrate");
  const { seedDatabase } = await import("@/server/db/seed/seed");
  const { createSandboxStorage } = await import("@/server/integrations/storage/sandbox");
  const { createCaller } = await import("@/server/root");
  const { createTRPCContext } = await import("@/server/trpc");
  const { product } = await import("@/server/db/schema");
  const { count, sql } = await import("drizzle-orm");

  await ensureDatabase(url);
  const database = openDatabase({ url });
  const storageDir = mkdtempSync(path.join(os.tmpdir(), "bench-search-"));
  try {
    await runMigrations(database);
    const [existing] = await database.db.select({ value: count() }).from(product);
    if (reseed || existing?.value !== products) {
      console.log(`Seeding ${products.toLocaleString("en")} products (no pictures)...`);
      const started = performance.now();
      await seedDatabase(database.db, createSandboxStorage({ root: storageDir }), { products, images: 0 });
      // What autovacuum does soon after a bulk load on a live server: fold the GIN pending list into the index and
      // refresh the planner's statistics. Measuring before it would time the pending list, not the search.
      await database.db.execute(sql`vacuum analyze`);
      console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } else {
      console.log(`Database already holds ${products.toLocaleString("en")} products; not reseeding (--reseed to force).`);
    }

    const caller = createCaller(await createTRPCContext({ headers: new Headers(), requestId: "bench", db: database.db }));
    const call = (index: number) => caller.shared.product.getMany({ ...queries[index % queries.length]!, orderBy: { relevance: "desc" }, facets: true } as never);
    for (let i = 0; i < 20; i++) await call(i);

    const timings: number[][] = queries.map(() => []);
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const page = await call(i);
      timings[i % queries.length]!.push(performance.now() - started);
      if (i < queries.length) {
        const { totalItems, totalItemsExact } = page.pagination;
        console.log(`  ${JSON.stringify(queries[i])}: ${totalItems}${totalItemsExact ? "" : "+"} matches, facets ${page.facets?.exact ? "exact" : "lower bounds"}`);
      }
    }
    const report = (label: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(`${label.padEnd(64)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms   (${sorted.length} calls)`);
    };
    console.log(`\nshared.product.getMany on PostgreSQL, ${products.toLocaleString("en")} products, with facets:`);
    queries.forEach((query, index) => report(JSON.stringify(query), timings[index]!));
    report("main queries (text with two filters)", timings.slice(0, mainQueries.length).flat());
    report("broad queries (one word, thousands of matches)", timings.slice(mainQueries.length).flat());
  } finally {
    await database.close();
    rmSync(storageDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
