// `npm run bench:crash`: is placing an order crash safe? 16 buyers place guest orders through the shop's HTTP API
// (the production build on a fresh PostgreSQL database); 2 to 5 s into the load the server's process group gets
// SIGKILL, the server starts again on the same database, and SQL counts what the crash left behind:
//
//   orders half-written: an order without its items, address, detail or payment detail          must be 0
//   products whose stock differs from the sum of their stock ledger                              must be 0
//   payments without an order: payment details, and sandbox payments naming an order that is gone must be 0
//   orders the shop confirmed to a buyer that are missing after the restart                      must be 0
//
// Exits non-zero when a figure is not 0. Needs the production build (`npx next build`) and PostgreSQL on
// 127.0.0.1:5432 (user postgres); the database it creates is dropped at the end. All traffic goes to 127.0.0.1, and
// the load is bounded: at most 250 orders per buyer, and it stops at the kill.
//
//   npm run bench:crash [-- --buyers 16]
import { count, guestOrder, placeOrder, productsOffLedgerSql } from "./guest-orders";
import { delay, option, withBenchShop, withClient } from "./shop-server";

const buyers = Number(option("buyers", "16"));
/** Each buyer's X-Forwarded-For names its round in the last octet, so rounds stay under 256. */
const maxRoundsPerBuyer = 250;

type Load = { placed: string[]; refused: Map<string, number>; failedBeforeKill: number; failedAtKill: number; killed: boolean };

async function buyer(index: number, baseUrl: string, productIds: number[], load: Load): Promise<void> {
  for (let round = 0; round < maxRoundsPerBuyer && !load.killed; round++) {
    // A client address per buyer and round, so that the shop's per-client limits on placing orders do not stop the load.
    const outcome = await placeOrder({ baseUrl, clientAddress: `10.77.${index}.${round}` }, guestOrder(index, round, productIds));
    if (outcome.kind === "placed") load.placed.push(outcome.orderNumber);
    else if (outcome.kind === "refused") load.refused.set(outcome.code, (load.refused.get(outcome.code) ?? 0) + 1);
    else if (load.killed) load.failedAtKill++;
    else load.failedBeforeKill++;
  }
}

const figuresSql = {
  halfWritten: `select count(*)::int as n from "order" o
    where not exists (select 1 from order_item i where i.order_id = o.id)
       or not exists (select 1 from order_address a where a.order_id = o.id)
       or not exists (select 1 from order_detail d where d.order_id = o.id)
       or not exists (select 1 from payment_detail p where p.order_id = o.id)`,
  stockOffLedger: productsOffLedgerSql,
  paymentDetailsWithoutOrder: `select count(*)::int as n from payment_detail p where not exists (select 1 from "order" o where o.id = p.order_id)`,
  sandboxPaymentsWithoutOrder: `select count(*)::int as n from sandbox_payment s where not exists (select 1 from "order" o where o.id = s.order_id)`,
};

async function main(): Promise<number> {
  return withBenchShop("crash", {
    // The buyers stand behind one proxy of our own making: their X-Forwarded-For is the client address.
    TRUSTED_PROXY_HOPS: "1",
  }, async ({ database, baseUrl, ...shop }) => {
    console.log(`Starting the shop on ${baseUrl} with a fresh PostgreSQL database ${database} (migrations and demo seed)...`);
    await shop.start();

    const { productIds, units, ordersBefore } = await withClient(database, async (client) => {
      const { rows } = await client.query<{ id: number; stock: number }>(`select id, stock from product where ws_status = 'ONLINE' and stock > 0 order by id`);
      return { productIds: rows.map((row) => row.id), units: rows.reduce((sum, row) => sum + row.stock, 0), ordersBefore: await count(client, `select count(*)::int as n from "order"`) };
    });
    const killAfterMs = 2_000 + Math.round(Math.random() * 3_000);
    console.log(`${buyers} buyers over ${productIds.length} products in stock (${units} pieces); SIGKILL ${(killAfterMs / 1000).toFixed(1)} s into the load.`);

    const load: Load = { placed: [], refused: new Map(), failedBeforeKill: 0, failedAtKill: 0, killed: false };
    const buying = Promise.all(Array.from({ length: buyers }, (_, index) => buyer(index, baseUrl, productIds, load)));
    await Promise.race([delay(killAfterMs), buying]);
    if (!load.killed) {
      load.killed = true;
      await shop.kill();
    }
    const placedBeforeKill = load.placed.length;
    await buying;

    console.log("Restarting the shop on the same database...");
    await shop.start();
    // What is still in stock now: the load may have sold out the pieces it started with.
    const stillInStock = await withClient(database, async (client) =>
      (await client.query<{ id: number }>(`select id from product where ws_status = 'ONLINE' and stock > 0 order by id`)).rows.map((row) => row.id),
    );
    const afterRestart = await placeOrder({ baseUrl, clientAddress: "10.77.255.1" }, guestOrder(255, 0, stillInStock));

    const figures = await withClient(database, async (client) => ({
      halfWritten: await count(client, figuresSql.halfWritten),
      stockOffLedger: await count(client, figuresSql.stockOffLedger),
      paymentDetailsWithoutOrder: await count(client, figuresSql.paymentDetailsWithoutOrder),
      sandboxPaymentsWithoutOrder: await count(client, figuresSql.sandboxPaymentsWithoutOrder),
      confirmedMissing: await count(client, `select count(*)::int as n from unnest($1::text[]) as confirmed(number) where not exists (select 1 from "order" o where o.order_number = confirmed.number)`, [load.placed]),
      ordersNow: await count(client, `select count(*)::int as n from "order"`),
    }));

    const refused = [...load.refused].map(([code, n]) => `${code} ${n}`).join(", ") || "none";
    const unanswered = figures.ordersNow - ordersBefore - placedBeforeKill - (afterRestart.kind === "placed" ? 1 : 0);
    const paymentsWithoutOrder = figures.paymentDetailsWithoutOrder + figures.sandboxPaymentsWithoutOrder;
    const line = (label: string, value: number | string) => console.log(`${label.padEnd(64)} ${value}`);
    console.log("");
    line("orders placed before the kill", placedBeforeKill);
    line("requests failed at the kill", load.failedAtKill);
    line("requests failed before the kill", load.failedBeforeKill);
    line("orders refused by the shop (by error code)", refused);
    line("orders committed but not answered when the server died", unanswered);
    line("an order after the restart", afterRestart.kind === "placed" ? `placed (${afterRestart.orderNumber})` : afterRestart.kind === "refused" ? `refused (${afterRestart.code})` : "failed");
    console.log("");
    line("orders half-written (must be 0)", figures.halfWritten);
    line("products whose stock differs from their ledger sum (must be 0)", figures.stockOffLedger);
    line("payments without an order (must be 0)", `${paymentsWithoutOrder} (payment details ${figures.paymentDetailsWithoutOrder}, sandbox payments ${figures.sandboxPaymentsWithoutOrder})`);
    line("confirmed orders missing after the restart (must be 0)", figures.confirmedMissing);

    const safe = figures.halfWritten === 0 && figures.stockOffLedger === 0 && paymentsWithoutOrder === 0 && figures.confirmedMissing === 0;
    // Without orders before the kill, or a working shop after it, the figures prove nothing.
    const meaningful = placedBeforeKill > 0 && afterRestart.kind === "placed";
    console.log(safe && meaningful ? "\nCrash safe." : safe ? "\nThe run proves nothing: no orders before the kill, or none after the restart." : "\nNOT crash safe.");
    return safe && meaningful;
  });
}

process.exitCode = await main();
