// `npm run bench:cost-backfill -- --reuse bench_xxx`: how long the one-time recording of cost layers for an existing
// ledger takes (`backfillCostLayers`, issue 29), run as a start-up runs it (`runMigrations`: the migrations, then
// the backfill under their lock), on a copy of a database seeded by `npm run bench:orders -- --keep` before the
// layers existed. Prints the time, what was recorded, and whether every product's lots hold its stock. It changes the
// database it is given: give it a copy (`createdb -T bench_base bench_mine`), not the original.
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";

process.env.LOG_LEVEL = "silent";
applyEmbeddedDefaults();

const index = process.argv.indexOf("--reuse");
const name = index >= 0 ? process.argv[index + 1] : undefined;

async function main() {
  if (!name || !/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error("Name the database copy to fill: --reuse bench_xxx");
  const { openDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/setup/migrate");
  const { rawRows } = await import("@/server/db/raw-rows");
  const { sql } = await import("drizzle-orm");
  const database = openDatabase({ url: `postgres://postgres@127.0.0.1:5432/${name}` });
  try {
    const started = performance.now();
    await runMigrations(database);
    console.log(`Migrated and recorded the cost layers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const [counts] = await rawRows<{ lots: number; costs: number; drifting: number }>(
      database.db,
      sql`select (select count(*) from stock_lot)::int as lots, (select count(*) from stock_record_cost)::int as costs,
            (select count(*) from product p left join (select product_id, sum(pieces_left) as left from stock_lot group by product_id) l on l.product_id = p.id
             where p.stock <> coalesce(l.left, 0))::int as drifting`,
    );
    console.log(`${counts!.lots} lots, ${counts!.costs} cost rows; products whose lots do not hold their stock: ${counts!.drifting}`);
  } finally {
    await database.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
