// RELIABILITY-REVIEW D3: PostgreSQL frozen for 20 s (SIGSTOP of a server of the bench's own, as a stalled disk or a
// network partition looks) under the running shop. /api/health must answer 503 within 5 s all along, so that a load
// balancer takes the instance out; no request may wait longer than the statement timeout; and the shop must answer
// again on its own once the database does.
import { Client } from "pg";
import { startOwnPostgres } from "../../tests/helpers/own-postgres";
import { guestOrder, placeOrder, quoteCheckout } from "../guest-orders";
import { delay, withBenchShop } from "../shop-server";
import { seconds, timedFetch, type FaultScenario } from "./scenario";

const freezeMs = 20_000;
const statementMs = 15_000;
const healthLimitMs = 5_000;
/** Timers and a loaded machine: what a request may run over the statement timeout. */
const slackMs = 2_000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

export const frozenDatabase: FaultScenario = {
  name: "frozen-database",
  description: `PostgreSQL frozen for ${freezeMs / 1000} s under the running shop (statement timeout ${statementMs / 1000} s)`,
  async run() {
    const own = await startOwnPostgres();
    const figures: Record<string, string | number> = {};
    try {
      await own.createDatabase("shop");
      let pass = false;
      await withBenchShop(
        "faults_frozen",
        { DATABASE_STATEMENT_TIMEOUT_MS: String(statementMs) },
        async (shop) => {
          await shop.start();
          const client = new Client({ connectionString: shop.databaseUrl });
          await client.connect();
          const { rows } = await client.query<{ id: number }>("select id from product where ws_status = 'ONLINE' and stock > 0 order by id limit 20");
          await client.end();
          const productIds = rows.map((row) => row.id);
          const health = () => timedFetch(`${shop.baseUrl}/api/health`);
          const guest = { baseUrl: shop.baseUrl, clientAddress: "10.88.0.1" };

          own.freeze();
          const thawed = delay(freezeMs).then(() => own.thaw());
          const [checks, search, quote, order] = await Promise.all([
            Promise.all([0, 5_000, 10_000, 15_000].map((at) => delay(at).then(health))),
            timedFetch(`${shop.baseUrl}/search?search=frozen${Date.now().toString(36)}`),
            timed(() => quoteCheckout(guest, { items: [{ productId: productIds[0]!, quantity: 1 }], countryCode: "NL" })),
            timed(() => placeOrder(guest, guestOrder(1, 1, productIds))),
          ]);
          await thawed;
          const recovered = await timed(async () => {
            for (let tries = 0; tries < 60; tries++) {
              if ((await health()).status === 200) return true;
              await delay(500);
            }
            return false;
          });
          const afterwards = await timed(() => placeOrder(guest, guestOrder(2, 1, productIds)));

          const slowestHealth = Math.max(...checks.map((check) => check.ms));
          const waits = [search.ms, quote.ms, order.ms];
          figures["health during the freeze"] = checks.map((check) => `${check.status} in ${seconds(check.ms)}`).join(", ");
          figures["uncached search page"] = `${search.status} in ${seconds(search.ms)}`;
          figures["checkout quote"] = `${quote.value.kind} in ${seconds(quote.ms)}`;
          figures["order placed during the freeze"] = `${order.value.kind} in ${seconds(order.ms)}`;
          figures["health 200 again after the thaw"] = recovered.value ? `after ${seconds(recovered.ms)}` : "never (30 s)";
          figures["order placed after the thaw"] = `${afterwards.value.kind} in ${seconds(afterwards.ms)}`;
          pass =
            checks.every((check) => check.status === 503) &&
            slowestHealth < healthLimitMs &&
            Math.max(...waits) < statementMs + slackMs &&
            recovered.value &&
            afterwards.value.kind === "placed";
          return pass;
        },
        { databaseUrl: own.urlOf("shop") },
      );
      return { pass, figures };
    } finally {
      own.thaw();
      await own.stop();
    }
  },
};
