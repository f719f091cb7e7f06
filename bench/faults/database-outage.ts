// RELIABILITY-REVIEW D6: PostgreSQL shut down for 20 s under the running shop (a server of the bench's own), right
// after a product's price changed. Catalogue pages in the cache must answer their cached copy (a changed one as last
// rendered; only the one request that finds the database gone may get a 503), a page that cannot be rendered and an
// API call must answer 503 with Retry-After, never 500; once the database is back the shop shows the new price.
import { Client } from "pg";
import { startOwnPostgres } from "../../tests/helpers/own-postgres";
import { delay, withBenchShop } from "../shop-server";
import { seconds, type FaultScenario } from "./scenario";

const outageMs = 20_000;

/** A page's answer: its status, Retry-After, and the price its schema.org offer states (product pages). */
async function visit(url: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null; price: string | null }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = await response.text();
    return { status: response.status, retryAfter: response.headers.get("retry-after"), price: /"price":"(\d+\.\d\d)"/.exec(body)?.[1] ?? null };
  } catch {
    return { status: 0, retryAfter: null, price: null };
  }
}

const tally = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${count}× ${status}`)
    .join(", ");

export const databaseOutage: FaultScenario = {
  name: "database-outage",
  description: `PostgreSQL shut down for ${outageMs / 1000} s under the running shop, just after a price changed`,
  async run() {
    const own = await startOwnPostgres();
    const figures: Record<string, string | number> = {};
    try {
      await own.createDatabase("shop");
      let pass = false;
      await withBenchShop(
        "faults_outage",
        { DATABASE_CONNECT_TIMEOUT_MS: "2000" },
        async (shop) => {
          await shop.start();
          const sql = async <T>(text: string): Promise<T[]> => {
            const client = new Client({ connectionString: shop.databaseUrl });
            await client.connect();
            try {
              return (await client.query(text)).rows as T[];
            } finally {
              await client.end();
            }
          };
          const ids = (await sql<{ id: number }>("select id from product where ws_status = 'ONLINE' order by id limit 3")).map((row) => row.id);
          const [kept, changed, neverShown] = ids as [number, number, number];
          const cached = ["/", `/product/${kept}`];
          // Rendered and kept before the outage.
          for (const path of [...cached, `/product/${changed}`]) for (let n = 0; n < 2; n++) await visit(shop.baseUrl + path);
          const before = await visit(`${shop.baseUrl}/product/${changed}`);

          // The price changes and every instance hears of it; then the database goes away.
          await sql(`update product set price = price + 1000 where id = ${changed}`);
          await sql(`select pg_notify('catalogue_changed', 'product:${changed},listings')`);
          await delay(1_000);
          await own.down();
          const downAt = performance.now();
          const seen = { home: [] as number[], kept: [] as number[], changed: [] as number[], changedPrices: new Set<string | null>(), uncached: [] as number[], api: [] as number[], retryAfter: new Set<string | null>() };
          while (performance.now() - downAt < outageMs) {
            const home = await visit(`${shop.baseUrl}/`);
            seen.home.push(home.status);
            if (home.status !== 200) seen.retryAfter.add(home.retryAfter);
            seen.kept.push((await visit(`${shop.baseUrl}/product/${kept}`)).status);
            const changedPage = await visit(`${shop.baseUrl}/product/${changed}`);
            seen.changed.push(changedPage.status);
            seen.changedPrices.add(changedPage.price);
            const uncached = await visit(`${shop.baseUrl}/product/${neverShown}`);
            seen.uncached.push(uncached.status);
            seen.retryAfter.add(uncached.retryAfter);
            const input = encodeURIComponent(JSON.stringify({ json: { page: 2 } }));
            const api = await visit(`${shop.baseUrl}/api/trpc/shared.product.getMany?input=${input}`, { headers: { cookie: "authjs.session-token=outage" } });
            seen.api.push(api.status);
            seen.retryAfter.add(api.retryAfter);
            await delay(1_000);
          }
          await own.up();
          const upAt = performance.now();
          let after = await visit(`${shop.baseUrl}/product/${changed}`);
          while (after.price === before.price && performance.now() - upAt < 60_000) {
            await delay(1_000);
            after = await visit(`${shop.baseUrl}/product/${changed}`);
          }

          const cachedPages = [...seen.home, ...seen.kept, ...seen.changed];
          const all = [...cachedPages, ...seen.uncached, ...seen.api];
          figures["home page (its listings changed) during the outage"] = tally(seen.home);
          figures["an unchanged product's page during the outage"] = tally(seen.kept);
          figures["the changed product's page during the outage"] = `${tally(seen.changed)}; price ${[...seen.changedPrices].join(", ")} (before: ${before.price})`;
          figures["a product never shown before"] = tally(seen.uncached);
          figures["API query with a session cookie"] = tally(seen.api);
          figures["Retry-After on the 503s"] = [...seen.retryAfter].join(", ");
          figures["answers 500 during the outage"] = all.filter((status) => status === 500).length;
          figures["new price shown after the database is back"] = after.price !== before.price ? `${after.price} after ${seconds(performance.now() - upAt)}` : "not within 60 s";
          pass =
            // The request that finds the database gone renders a changed page before anyone knows: 503 for it alone.
            cachedPages.every((status) => status === 200 || status === 503) &&
            cachedPages.filter((status) => status === 503).length <= 1 &&
            [...seen.changedPrices].every((price) => price === before.price) &&
            seen.uncached.every((status) => status === 503) &&
            seen.api.every((status) => status === 503) &&
            [...seen.retryAfter].every((value) => value === "30") &&
            after.price !== before.price;
          return pass;
        },
        { databaseUrl: own.urlOf("shop") },
      );
      return { pass, figures };
    } finally {
      await own.stop();
    }
  },
};
