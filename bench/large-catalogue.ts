// The large catalogue the scale benches measure on: a PostgreSQL database holding a given number of products
// (100 000 by default), without pictures. It is created when missing and seeded only when it does not hold the
// asked number of products (or with --reseed), so repeated runs measure without waiting for the seed again.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { applyEmbeddedDefaults } from "@/server/config/embedded-defaults";
import type { Database } from "@/server/db/client";
import { option } from "./shop-server";

export type LargeCatalogue = { url: string; products: number; reseed: boolean };

/** `--url`, `--products` and `--reseed` from the command line; a database of the bench's own by default. */
export function largeCatalogueOptions(defaultDatabase: string): LargeCatalogue {
  return {
    url: option("url", `postgres://postgres@127.0.0.1:5432/${defaultDatabase}`),
    products: Number(option("products", "100000")),
    reseed: process.argv.includes("--reseed"),
  };
}

async function ensureDatabase(address: string): Promise<void> {
  const name = new URL(address).pathname.slice(1);
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

/**
 * Creates the catalogue's database when missing, migrates it and seeds it when it does not hold `products`
 * products (or when `reseed`); answers it open, for the caller to close.
 */
export async function openLargeCatalogue({ url, products, reseed }: LargeCatalogue): Promise<Database> {
  applyEmbeddedDefaults();
  // The shop's modules validate the environment when first imported: after the defaults are in place.
  const { openDatabase } = await import("@/server/db/client");
  const { runMigrations } = await import("@/server/setup/migrate");
  const { seedDatabase } = await import("@/server/setup/seed/seed");
  const { createSandboxStorage } = await import("@/server/integrations/storage/sandbox");
  const { product } = await import("@/server/db/schema");
  const { count, sql } = await import("drizzle-orm");

  await ensureDatabase(url);
  const database = openDatabase({ url });
  try {
    await runMigrations(database);
    const [existing] = await database.db.select({ value: count() }).from(product);
    if (!reseed && existing?.value === products) {
      console.log(`Database already holds ${products.toLocaleString("en")} products; not reseeding (--reseed to force).`);
      return database;
    }
    console.log(`Seeding ${products.toLocaleString("en")} products (no pictures)...`);
    const started = performance.now();
    // No pictures are written; the seed still wants somewhere to put them.
    const storageDir = mkdtempSync(path.join(os.tmpdir(), "bench-catalogue-"));
    try {
      await seedDatabase(database.db, createSandboxStorage({ root: storageDir }), { products, images: 0 });
    } finally {
      rmSync(storageDir, { recursive: true, force: true });
    }
    // What autovacuum does soon after a bulk load on a live server: fold the GIN pending list into the index and
    // refresh the planner's statistics. Measuring before it would time the pending list, not the search.
    await database.db.execute(sql`vacuum analyze`);
    console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
