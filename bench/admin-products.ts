// `npm run bench:admin`: p95 latency of the admin product table query (search + sort + page, with its count) on a
// large catalogue. Run it against PostgreSQL seeded with `npm run db:seed -- --products 100000`:
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/shop npm run bench:admin [-- --rounds 40]
//
// Prints one line per query shape and an overall p95; the target is under 50 ms (issue 6).
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";

applyEmbeddedDefaults();

type Shape = { name: string; input: Record<string, unknown> };

// What staff do all day: type a model or caliber, sort by a column, page through; plus the filter-only views.
const shapes: Shape[] = [
  { name: "search 'seiko' · price asc · page 1", input: { search: "seiko", sort: "price", direction: "asc", page: 1 } },
  { name: "search 'omega crown' · name asc · page 2", input: { search: "omega crown", sort: "name", direction: "asc", page: 2 } },
  { name: "search '6139' · stock desc · page 1", input: { search: "6139", sort: "stock", direction: "desc", page: 1 } },
  { name: "search 'automatic movement' · created desc · page 3", input: { search: "automatic movement", sort: "createdAt", direction: "desc", page: 3 } },
  { name: "search 'dial' · price desc · page 10", input: { search: "dial", sort: "price", direction: "desc", page: 10 } },
  { name: "no search · created desc · page 1", input: { sort: "createdAt", direction: "desc", page: 1 } },
  { name: "no search · name asc · page 200", input: { sort: "name", direction: "asc", page: 200 } },
  { name: "sold out · updated desc · page 1", input: { stock: "out", sort: "updatedAt", direction: "desc", page: 1 } },
];

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

async function main() {
  const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 30;
  const { env } = await import("@/env");
  const { openDatabase } = await import("@/server/db/client");
  const { listAdminProducts } = await import("@/server/catalog/admin-service");
  const { adminProductListInput } = await import("@/server/catalog/admin-schemas");
  if (!env.DATABASE_URL) {
    console.error("Set DATABASE_URL to a PostgreSQL database seeded with `npm run db:seed -- --products 100000`.");
    process.exitCode = 1;
    return;
  }
  const database = openDatabase({ url: env.DATABASE_URL });
  try {
    const { sql } = await import("drizzle-orm");
    const counted = (await database.db.execute(sql`select count(*)::int as n from product`)) as unknown as { rows: { n: number }[] };
    console.log(`Products: ${counted.rows[0]?.n}; ${rounds} timed rounds per shape after 3 warm-up rounds; page size 50, count included.\n`);
    const all: number[] = [];
    for (const shape of shapes) {
      const input = adminProductListInput.parse(shape.input);
      const run = () => listAdminProducts(database.db, input, (key) => `/storage/${key}`);
      for (let i = 0; i < 3; i++) await run();
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        const page = await run();
        times.push(performance.now() - started);
        total = page.totalItems;
      }
      times.sort((a, b) => a - b);
      all.push(...times);
      console.log(
        `${shape.name.padEnd(52)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms   (${total} matches)`,
      );
    }
    all.sort((a, b) => a - b);
    const p95 = percentile(all, 95);
    console.log(`\nall shapes: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms — target < 50 ms: ${p95 < 50 ? "met" : "NOT met"}`);
  } finally {
    await database.close();
  }
}

await main();
