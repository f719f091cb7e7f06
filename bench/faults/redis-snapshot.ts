// RELIABILITY-REVIEW D4: Redis stopped (saving its snapshot, as Debian's Redis does) while a price changes, then
// started again from that snapshot, which holds the product's old page and the old tag times. An instance started
// afterwards must show the new price at once, never the page that went stale while Redis was down.
import { startOwnRedis } from "../../tests/helpers/own-redis";
import { delay, withBenchShop, withClient } from "../shop-server";
import type { FaultScenario } from "./scenario";

async function priceOn(url: string): Promise<{ status: number; price: string | null }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  const body = await response.text();
  return { status: response.status, price: /"price":"(\d+\.\d\d)"/.exec(body)?.[1] ?? null };
}

export const redisSnapshot: FaultScenario = {
  name: "redis-snapshot",
  description: "Redis stopped while a price changes and started again from its snapshot; an instance started afterwards",
  async run() {
    const redis = await startOwnRedis({ save: "3600 1" });
    const figures: Record<string, string | number> = {};
    let pass = false;
    try {
      await withBenchShop("faults_redis", { REDIS_URL: redis.url }, async (shop) => {
        await shop.start();
        const sql = (text: string) => withClient(shop.database, (client) => client.query(text));
        const [product] = (await sql("select id from product where ws_status = 'ONLINE' order by id limit 1")).rows as { id: number }[];
        const url = `${shop.baseUrl}/product/${product!.id}`;
        await priceOn(url);
        const before = await priceOn(url);
        await delay(500);
        figures["entries in Redis before the stop"] = (await redis.client.keys("next-cache:*")).length;

        await redis.down();
        await sql(`update product set price = price + 1000 where id = ${product!.id}`);
        await sql(`select pg_notify('catalogue_changed', 'product:${product!.id},listings')`);
        await delay(1_000);
        const running = await priceOn(url);
        await redis.start();
        figures["old page back in Redis from the snapshot"] = (await redis.client.keys(`next-cache:*/product/${product!.id}`)).length > 0 ? "yes" : "no";
        // The running instance reconnects by itself.
        await delay(3_000);

        // A new instance (a deploy, a scale-up) on the same database and Redis.
        await shop.stop();
        await shop.start();
        // Its first cache use connects it to Redis (lazily): another page first, as visitors would come.
        await priceOn(`${shop.baseUrl}/`);
        await delay(1_000);
        const prices: (string | null)[] = [];
        for (let n = 0; n < 5; n++) {
          prices.push((await priceOn(url)).price);
          await delay(1_000);
        }
        figures["price before the change"] = before.price ?? "none";
        figures["running instance, Redis down"] = running.price ?? "none";
        figures["instance started after Redis came back (5 requests)"] = prices.join(", ");
        pass = running.price !== before.price && prices.every((price) => price !== null && price !== before.price);
        return pass;
      });
      return { pass, figures };
    } finally {
      await redis.stop();
    }
  },
};
