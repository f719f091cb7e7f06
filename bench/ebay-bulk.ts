// `npm run bench:ebay-bulk`: the bulk update of every marketplace offer (issue 14, acceptance 3). On a fresh
// PostgreSQL database the shop (production build) starts; 10,000 products with stock get published offers on the
// sandbox marketplace (written straight into its tables, a euro below the shop's price and with no pieces, so the
// update changes every one); staff start a bulk update of price and quantity through admin.ebay.startBulkUpdate and
// the bench polls admin.ebay.getBulkProductEbayOffersProgress, as the admin top bar does. When the progress passes
// 50 % the server's process group gets SIGKILL, the server starts again on the same database, and the run has to
// continue where it stopped. Past 75 % the server gets SIGTERM, as a deploy stops it: it must exit 0 (the stretch
// under way finished or handed back), start again, and the run finish. Then SQL checks the sandbox marketplace:
//
//   offers written more than once in the run (sandbox_marketplace_offer.writeCount > 1)          must be 0
//   offers not written (writeCount 0)                                                           must be 0
//   offers whose price or quantity on the marketplace differs from the shop's                   must be 0
//   seconds from the restarted server answering to the run sending again (after each)           must be 10 at most
//   the server's exit code after SIGTERM                                                        must be 0
//
// (issue 30: the restarted instance hands back the killed one's job once its heartbeat is missed, instead of the
// queue waiting for the job's 60 s expiry) and prints the time it took: in all, before the kill, after the restart,
// and offers per second while sending. Exits non-zero when a figure is not 0 or the run did not
// finish within --timeout minutes. Needs the production build (`npx next build`) and PostgreSQL on 127.0.0.1:5432
// (user postgres); the database it creates is dropped at the end.
//
//   npm run bench:ebay-bulk [-- --offers 10000] [--kill-at 50] [--stop-at 75] [--timeout 30]   (--stop-at 0: no SIGTERM)
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { transformer } from "@/lib/trpc/transformer";
import { hashSessionToken } from "@/server/auth/session-token";
import type { BulkOfferProgress, BulkRunView } from "@/server/marketplace/schemas";
import { delay, option, withBenchShop, withClient } from "./shop-server";

const offerCount = Number(option("offers", "10000"));
const killAtPercent = Number(option("kill-at", "50"));
const stopAtPercent = Number(option("stop-at", "75"));
const timeoutMs = Number(option("timeout", "30")) * 60_000;
const pollMs = 1_000;


/**
 * The products and their offers, listed on the sandbox marketplace a euro below the shop's price with no pieces, in
 * eBay's record shapes as the sandbox adapter stores them. Straight into the tables, a few thousand rows a statement:
 * publishing 10,000 offers one by one would measure the publishing, not the bulk update.
 */
async function seedOffers(client: Client, count: number): Promise<void> {
  await client.query(
    `insert into product (name, price, stock, ws_status, ebay_status, search_text)
     select 'Bench watch ' || g, (100 + g % 900)::numeric(12, 2), 1 + g % 3, 'OFFLINE', 'ONLINE', 'bench watch ' || g
     from generate_series(1, $1) as g`,
    [count],
  );
  const bench = `from product p where p.name like 'Bench watch %'`;
  await client.query(
    `insert into sandbox_marketplace_item (sku, quantity, record)
     select 'BC-' || p.id, 0, jsonb_build_object(
       'sku', 'BC-' || p.id, 'locale', 'nl_NL', 'condition', 'USED_GOOD',
       'product', jsonb_build_object('title', p.name, 'description', p.name, 'aspects', '{}'::jsonb, 'imageUrls', '[]'::jsonb),
       'availability', jsonb_build_object('shipToLocationAvailability', jsonb_build_object('quantity', 0)))
     ${bench}`,
  );
  await client.query(
    `insert into sandbox_marketplace_offer (offer_id, sku, marketplace_id, available_quantity, price, status, listing_id, record)
     select 'sbo_bench' || p.id, 'BC-' || p.id, 'EBAY_NL', 0, p.price - 1, 'PUBLISHED', '9' || lpad(p.id::text, 11, '0'), jsonb_build_object(
       'offerId', 'sbo_bench' || p.id, 'sku', 'BC-' || p.id, 'marketplaceId', 'EBAY_NL', 'format', 'FIXED_PRICE',
       'availableQuantity', 0, 'categoryId', '31387', 'listingDescription', p.name, 'storeCategoryNames', '[]'::jsonb,
       'pricingSummary', jsonb_build_object('price', jsonb_build_object('value', (p.price - 1)::text, 'currency', 'EUR')),
       'status', 'PUBLISHED',
       'listing', jsonb_build_object('listingId', '9' || lpad(p.id::text, 11, '0'), 'listingStatus', 'ACTIVE', 'soldQuantity', 0))
     ${bench}`,
  );
  await client.query(
    `insert into marketplace_offer (product_id, sku, marketplace_id, offer_id, listing_id, status, pushed_quantity, pushed_price, last_pushed_at)
     select p.id, 'BC-' || p.id, 'EBAY_NL', 'sbo_bench' || p.id, '9' || lpad(p.id::text, 11, '0'), 'PUBLISHED', 0, p.price - 1, now()
     ${bench}`,
  );
  await client.query("analyze");
}

/**
 * A staff session as Auth.js keeps it (a database session named by the cookie, stored as the token's hash), for
 * admin@example.com of the demo seed, with its second factor confirmed as the demo authenticator would.
 */
async function staffCookie(client: Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`select id from "user" where email = 'admin@example.com' and role = 'ADMIN'`);
  if (!rows[0]) throw new Error("The demo seed has no admin@example.com");
  const token = randomBytes(32).toString("hex");
  await client.query(
    `insert into session (id, session_token, user_id, expires, second_factor_at, second_factor) values (gen_random_uuid()::text, $1, $2, now() + interval '1 day', now(), 'totp')`,
    [hashSessionToken(token), rows[0].id],
  );
  return `authjs.session-token=${token}`;
}

/** One admin tRPC call as the admin pages make it (batched, superjson). */
async function admin<T>(baseUrl: string, cookie: string, procedure: string, kind: "query" | "mutation", input?: unknown): Promise<T> {
  const body = JSON.stringify({ 0: transformer.serialize(input) });
  const response =
    kind === "query"
      ? await fetch(`${baseUrl}/api/trpc/${procedure}?batch=1&input=${encodeURIComponent(body)}`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) })
      : await fetch(`${baseUrl}/api/trpc/${procedure}?batch=1`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json", origin: baseUrl },
          body,
          signal: AbortSignal.timeout(30_000),
        });
  const [answer] = (await response.json()) as { result?: { data: unknown }; error?: { json: { message: string } } }[];
  if (!answer?.result) throw new Error(`${procedure}: ${answer?.error?.json.message ?? `HTTP ${response.status}`}`);
  return transformer.deserialize(answer.result.data as Parameters<typeof transformer.deserialize>[0]) as T;
}

async function progressOf(baseUrl: string, cookie: string): Promise<BulkOfferProgress["progress"] | "unreachable"> {
  try {
    return (await admin<BulkOfferProgress>(baseUrl, cookie, "admin.ebay.getBulkProductEbayOffersProgress", "query")).progress;
  } catch {
    return "unreachable";
  }
}

/** How soon after the restarted server answers the run must be sending again (issue 30, acceptance 3). */
const RESUME_LIMIT_MS = 10_000;

/** The bulk update's batch: one call to the marketplace. */
const BATCH = 25;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  return withBenchShop("ebay", {}, async ({ database, baseUrl, ...shop }) => {
    console.log(`Starting the shop on ${baseUrl} with a fresh PostgreSQL database ${database} (migrations and demo seed)...`);
    await shop.start();

    const started = performance.now();
    const cookie = await withClient(database, async (client) => {
      await seedOffers(client, offerCount);
      return staffCookie(client);
    });
    console.log(`${offerCount} products with published offers on the sandbox marketplace, made in ${seconds(performance.now() - started)}.`);

    const run = await admin<BulkRunView>(baseUrl, cookie, "admin.ebay.startBulkUpdate", "mutation", { price: true, quantity: true, description: false });
    const begun = performance.now();
    const deadline = Date.now() + timeoutMs;
    console.log(`Bulk update ${run.id} of ${run.totalCount} offers started (price and quantity); SIGKILL once past ${killAtPercent} %.`);

    let shown = -10;
    const show = (progress: NonNullable<BulkOfferProgress["progress"]>) => {
      const percent = Number(progress.currentPercent);
      if (percent < shown + 10) return;
      shown = percent - (percent % 10);
      const bar = "#".repeat(Math.round(percent / 5)).padEnd(20, ".");
      console.log(`  [${bar}] ${progress.currentPercent.padStart(3)} %  ${progress.currentCount}/${progress.totalCount}  ${progress.estimatedTimeToCompletion ?? "time left not known yet"}  (${seconds(performance.now() - begun)})`);
    };

    let killedAt: number | null = null;
    let countAtKill = 0;
    while (killedAt === null) {
      if (Date.now() > deadline) throw new Error("The run did not reach the kill point in time");
      const progress = await progressOf(baseUrl, cookie);
      if (progress && progress !== "unreachable") {
        show(progress);
        if (Number(progress.currentPercent) >= killAtPercent) {
          await shop.kill();
          killedAt = performance.now();
          countAtKill = progress.currentCount;
          console.log(`SIGKILL at ${progress.currentPercent} % (${progress.currentCount} offers recorded), ${seconds(killedAt - begun)} into the run.`);
          const { rows } = await withClient(database, (client) =>
            client.query<{ from: number | null; to: number | null; done: number }>(`select in_flight_from_id as from, in_flight_to_id as to, done_count + failed_count as done from marketplace_bulk_run where id = $1`, [run.id]),
          );
          const left = rows[0];
          // What the killed server recorded, not the last progress seen: batches may have landed after that poll.
          countAtKill = Math.max(countAtKill, left?.done ?? 0);
          console.log(
            left?.from != null
              ? `The kill left a batch in flight (products ${left.from} to ${left.to}, ${left.done} offers recorded): the restart asks the marketplace about it before sending.`
              : `The kill fell between two batches (${left?.done} offers recorded).`,
          );
        }
      } else if (progress === null) {
        throw new Error(`The run ended before ${killAtPercent} %: use more offers`);
      }
      await delay(pollMs);
    }

    const restartedAt = performance.now();
    console.log("Restarting the shop on the same database...");
    await shop.start();
    const upAt = performance.now();
    let resumedAt: number | null = null;
    /** The SIGTERM and the start after it. */
    let stop: { code: number | null; stopMs: number; countAtStop: number; upAt: number; resumedAt: number | null } | null = null;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`The run did not finish within ${timeoutMs / 60_000} minutes`);
      const progress = await progressOf(baseUrl, cookie);
      if (progress === null) break;
      if (progress !== "unreachable") {
        // Past the batch the kill left in flight, which the restart settles first: the run is sending again.
        if (resumedAt === null && progress.currentCount > countAtKill + BATCH) {
          resumedAt = performance.now();
          console.log(`Taken up again ${seconds(resumedAt - upAt)} after the restart (the restarted instance handed back the job of the killed one).`);
        }
        show(progress);
        if (stop === null && resumedAt !== null && stopAtPercent > 0 && Number(progress.currentPercent) >= stopAtPercent) {
          const signalledAt = performance.now();
          const code = await shop.stop();
          const stopMs = performance.now() - signalledAt;
          const done = await withClient(database, (client) => client.query<{ done: number }>(`select done_count + failed_count as done from marketplace_bulk_run where id = $1`, [run.id]));
          const countAtStop = Math.max(progress.currentCount, done.rows[0]?.done ?? 0);
          console.log(`SIGTERM at ${progress.currentPercent} %: the server exited with ${code} after ${seconds(stopMs)} (${countAtStop} offers recorded); starting it again...`);
          await shop.start();
          stop = { code, stopMs, countAtStop, upAt: performance.now(), resumedAt: null };
        } else if (stop !== null && stop.resumedAt === null && progress.currentCount > stop.countAtStop) {
          stop.resumedAt = performance.now();
          console.log(`Taken up again ${seconds(stop.resumedAt - stop.upAt)} after the start that followed the SIGTERM.`);
        }
      }
      await delay(pollMs);
    }
    const finishedAt = performance.now();

    const figures = await withClient(database, async (client) => {
      const one = async (query: string, values: unknown[] = []) => (await client.query<{ n: number }>(query, values)).rows[0]?.n ?? 0;
      const { rows } = await client.query<{ status: string; done_count: number; failed_count: number; started_at: Date; finished_at: Date | null }>(
        `select status, done_count, failed_count, started_at, finished_at from marketplace_bulk_run where id = $1`,
        [run.id],
      );
      const bench = `from sandbox_marketplace_offer s join marketplace_offer m on m.sku = s.sku join product p on p.id = m.product_id where p.name like 'Bench watch %'`;
      return {
        run: rows[0]!,
        pushedTwice: await one(`select count(*)::int as n ${bench} and s.write_count > 1`),
        notPushed: await one(`select count(*)::int as n ${bench} and s.write_count = 0`),
        differing: await one(`select count(*)::int as n ${bench} and (s.price <> p.price or s.available_quantity <> p.stock)`),
        stamped: await one(`select count(*)::int as n from marketplace_offer where last_bulk_run_id = $1`, [run.id]),
        notices: await one(`select count(*)::int as n from admin_notification where message like 'The bulk update of the eBay offers%'`),
      };
    });

    const line = (label: string, value: number | string) => console.log(`${label.padEnd(60)} ${value}`);
    // A run that finished before the poll saw it send again was taken up at once.
    const resumedInTime = (resumedAt ?? finishedAt) - upAt <= RESUME_LIMIT_MS && (stop === null || (stop.resumedAt ?? finishedAt) - stop.upAt <= RESUME_LIMIT_MS);
    const stoppedCleanly = stopAtPercent <= 0 || stop?.code === 0;
    const stopGapMs = stop === null ? 0 : (stop.resumedAt ?? finishedAt) - stop.upAt + stop.stopMs;
    const sendingMs = killedAt - begun + (finishedAt - (resumedAt ?? upAt)) - stopGapMs;
    console.log("");
    line("run", `${figures.run.status}: ${figures.run.done_count} updated, ${figures.run.failed_count} failed`);
    line("total time (start to done, restart included)", seconds(finishedAt - begun));
    line("time before the kill", seconds(killedAt - begun));
    line("time after the restart (server start to done)", seconds(finishedAt - restartedAt));
    line("  of which the server starting", seconds(upAt - restartedAt));
    line("  of which waiting for the queue to take the run up again", resumedAt === null ? "n/a" : seconds(resumedAt - upAt));
    if (stop !== null) {
      line("SIGTERM: the server's exit code (must be 0)", String(stop.code));
      line("  how long it took to exit", seconds(stop.stopMs));
      line("  waiting for the queue to take the run up again", stop.resumedAt === null ? "n/a" : seconds(stop.resumedAt - stop.upAt));
    } else if (stopAtPercent > 0) {
      line("SIGTERM (must have happened)", "the run ended first");
    }
    line("offers per second while sending", (offerCount / (sendingMs / 1000)).toFixed(0));
    line("offers per second overall", (offerCount / ((finishedAt - begun) / 1000)).toFixed(0));
    line("offers marked with this run", figures.stamped);
    line("staff notified when done", figures.notices > 0 ? "yes" : "no");
    console.log("");
    line("pushed twice (must be 0)", figures.pushedTwice);
    line("not pushed (must be 0)", figures.notPushed);
    line("price or quantity differing on the marketplace (must be 0)", figures.differing);

    line("taken up again within 10 s of the restart (must be yes)", resumedInTime ? "yes" : "no");

    const ok = figures.run.status === "DONE" && figures.pushedTwice === 0 && figures.notPushed === 0 && figures.differing === 0 && resumedInTime && stoppedCleanly;
    console.log(ok ? "\nThe bulk update survived the kill: every offer written exactly once." : "\nNOT as it should be.");
    return ok;
  });
}

process.exitCode = await main();
