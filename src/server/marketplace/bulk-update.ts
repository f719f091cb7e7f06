import "server-only";
import { and, count, eq, gt, gte, isNull, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { marketplaceBulkRun, marketplaceOffer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { getMarketplace } from "@/server/integrations/marketplace/marketplace";
import { MarketplaceError, type MarketplacePort } from "@/server/integrations/marketplace/port";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { notifyStaff } from "@/server/notifications/service";
import { alreadyThere, batchOf, failed, revisionsPerOffer, sendListings, sendPriceQuantity, sendsPrice, type BatchOffer, type OfferOutcome } from "./bulk-batch";
import { bulkRunView, fieldsInWords, percentOf, runningRun, setProgressParam, type RunRow } from "./bulk-progress";
import { logMarketplaceEvent, logMarketplaceWarning } from "./logbook";
import { shopProductPictures, type ProductPictures } from "./offer-record";
import type { MarketplaceActor } from "./offers";
import type { BulkFields, BulkRunView } from "./schemas";
import { marketplaceDay, REVISIONS_PER_DAY, revisionsOn } from "./revisions";

/*
 * The bulk update of every published offer: a marketplace_bulk_run walks the published offers in product id order,
 * 25 at a time (one marketplace call), in stretches of a job that queues its own next stretch. Each batch is first
 * claimed on the run row (inFlightFromId..inFlightToId), then sent, then recorded in one transaction with the run's
 * counts, its last product id and BULK_UPDATE_EBAY_OFFERS_CURRENT_ID. A process that dies between sending and
 * recording leaves the claim behind; whoever takes the run up again asks the marketplace what those offers hold and
 * sends only what is missing, so no offer is written twice in one run. What a batch sends is bulk-batch.ts; what staff
 * see of a run, bulk-progress.ts.
 */

/** How long a stretch goes on, unless its caller says otherwise (`runBulkUpdateStretch`'s options). */
const stretchLimits = {
  /** How long one stretch sends batches before it hands over to the next job: well inside the job's expiry. */
  stretchMs: 15_000,
  /** How long a stretch may wait out the marketplace's refusals (429, 5xx) before it hands over instead. */
  waitLimitMs: 40_000,
};
const EXPIRE_SECONDS = 60;
/**
 * A claimed batch younger than this may still be on its way in another process (a try the queue gave up on keeps
 * running until its call returns); the run waits until it is older before asking the marketplace about it. A try
 * whose worker died or stopped is handed back at once (jobs/hand-back.ts), and the next try takes up the batch it
 * left without waiting (`previousTryStopped`).
 */
const IN_FLIGHT_GRACE_MS = EXPIRE_SECONDS * 1000;

/** Starts rewriting every published offer; refused while another bulk update runs. */
export async function startBulkUpdate(db: Db, fields: BulkFields, actor: MarketplaceActor): Promise<BulkRunView> {
  return db.transaction(async (tx) => {
    // Two staff members starting at once take turns here; the second finds the first's run.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('marketplace-bulk-update/start', 0))`);
    const running = await runningRun(tx);
    if (running) throw new AppError("CONFLICT", `A bulk update is already running: ${percentOf(running)} % done.`);
    const [published] = await tx.select({ value: count() }).from(marketplaceOffer).where(eq(marketplaceOffer.status, "PUBLISHED"));
    const totalCount = published?.value ?? 0;
    if (totalCount === 0) throw new AppError("PRECONDITION_FAILED", "No offers are published on the marketplace, so there is nothing to update.");

    const [run] = await tx.insert(marketplaceBulkRun).values({ fields, totalCount, startedBy: actor.userId }).returning();
    await setProgressParam(tx, 0);
    await logMarketplaceEvent(tx, {
      userId: actor.userId,
      newState: { runId: run!.id, fields, totalCount },
      description: `Bulk update ${run!.id} of ${totalCount} published offers started (${fieldsInWords(fields)})`,
    });
    await enqueueJob(tx, bulkUpdateJob, { runId: run!.id }, { singletonKey: String(run!.id) });
    return bulkRunView(run!);
  });
}

/** Stops the running bulk update after the batch it is sending; null when none runs. */
export async function cancelBulkUpdate(db: Db, actor: MarketplaceActor): Promise<BulkRunView | null> {
  return db.transaction(async (tx) => {
    const [running] = await tx.select().from(marketplaceBulkRun).where(eq(marketplaceBulkRun.status, "RUNNING")).for("update");
    if (!running) return null;
    const [run] = await tx
      .update(marketplaceBulkRun)
      .set({ status: "CANCELLED", finishedAt: new Date() })
      .where(eq(marketplaceBulkRun.id, running.id))
      .returning();
    await setProgressParam(tx, 0);
    await logMarketplaceEvent(tx, {
      userId: actor.userId,
      previousState: { status: running.status },
      newState: { status: "CANCELLED", doneCount: run!.doneCount, failedCount: run!.failedCount },
      description: `Bulk update ${run!.id} cancelled at ${percentOf(run!)} % (${run!.doneCount} offers updated, ${run!.failedCount} failed)`,
    });
    return bulkRunView(run!);
  });
}

/**
 * What one batch came to: the run is finished or was stopped (cancelled), a batch was recorded, the run changed
 * under it (look again), or a batch claimed by another process is maybe still on its way (wait).
 */
type BatchResult = "finished" | "stopped" | "recorded" | "look again" | { waitUntil: Date };

/** The queue's job running a stretch, and whether its try before this one was handed back (JobContext). */
type StretchJob = { id: string; previousTryStopped: boolean };

/**
 * Claims, sends and records the next batch of a run, or takes up the batch claimed before and not recorded.
 * `ownClaim` is a batch this process claimed itself (a refusal for now interrupted it): no need to wait for it; nor
 * for one an earlier try of this same job claimed, when the queue handed that try back because its worker went away
 * (`job.previousTryStopped`). A claim of another job (the next stretch, queued by a try at its end) is waited for.
 */
async function processBatch(
  db: Db,
  port: MarketplacePort,
  runId: number,
  ownClaim: number | null,
  context: { now: () => Date; pictures: () => ProductPictures; job: StretchJob | undefined },
): Promise<BatchResult> {
  const { now } = context;
  const [run] = await db.select().from(marketplaceBulkRun).where(eq(marketplaceBulkRun.id, runId));
  if (!run || run.status !== "RUNNING") return "stopped";

  let offers: BatchOffer[];
  let batch: { fromId: number; toId: number };
  const claimed = run.inFlightFromId !== null && run.inFlightToId !== null ? { fromId: run.inFlightFromId, toId: run.inFlightToId } : null;
  if (claimed) {
    const claimedAt = run.updatedAt.getTime();
    const leftByStoppedTry = context.job?.previousTryStopped === true && run.inFlightJobId === context.job.id;
    if (ownClaim !== claimed.fromId && !leftByStoppedTry && now().getTime() - claimedAt < IN_FLIGHT_GRACE_MS) return { waitUntil: new Date(claimedAt + IN_FLIGHT_GRACE_MS) };
    offers = await batchOf(db, and(gt(marketplaceOffer.productId, run.lastProductId), gte(marketplaceOffer.productId, claimed.fromId), lte(marketplaceOffer.productId, claimed.toId)));
    batch = claimed;
  } else {
    offers = await batchOf(db, gt(marketplaceOffer.productId, run.lastProductId));
    if (offers.length === 0) return finishRun(db, runId);
    batch = { fromId: offers[0]!.productId, toId: offers.at(-1)!.productId };
    const claim = await db
      .update(marketplaceBulkRun)
      .set({ inFlightFromId: batch.fromId, inFlightToId: batch.toId, inFlightJobId: context.job?.id ?? null })
      .where(and(eq(marketplaceBulkRun.id, runId), eq(marketplaceBulkRun.status, "RUNNING"), eq(marketplaceBulkRun.lastProductId, run.lastProductId), isNull(marketplaceBulkRun.inFlightFromId)))
      .returning({ id: marketplaceBulkRun.id });
    if (claim.length === 0) return "look again";
  }
  const day = marketplaceDay(now());

  const outcomes: OfferOutcome[] = [];
  const toSend: BatchOffer[] = [];
  // Also for a batch of our own: a refusal for now (a timeout, a 5xx) does not say whether the marketplace applied it.
  const there = claimed ? await alreadyThere(port, offers, run.fields) : new Set<number>();
  for (const offer of offers) {
    const revisionsToday = revisionsOn(offer, day);
    if (there.has(offer.productId)) outcomes.push({ productId: offer.productId, ok: true, error: null, revisions: revisionsPerOffer(run.fields) });
    else if (offer.offerId === null) outcomes.push(failed(offer.productId, "The offer has no id on the marketplace; publish it again."));
    else if (revisionsToday + revisionsPerOffer(run.fields) > REVISIONS_PER_DAY) {
      outcomes.push(failed(offer.productId, `The listing was revised ${revisionsToday} times today, eBay's limit is ${REVISIONS_PER_DAY} a day; it is left as it is until tomorrow.`));
    } else toSend.push(offer);
  }
  if (toSend.length > 0) {
    outcomes.push(...(run.fields.description ? await sendListings(db, port, toSend, context.pictures()) : await sendPriceQuantity(port, toSend, run.fields)));
  }

  await recordBatch(db, run, batch, offers, outcomes, now());
  return "recorded";
}

/** Writes what a batch did: the offers, the run's counts and position, and the progress parameter, all at once. */
async function recordBatch(db: Db, run: RunRow, batch: { fromId: number; toId: number }, offers: BatchOffer[], outcomes: OfferOutcome[], at: Date): Promise<void> {
  const day = marketplaceDay(at);
  const stamp = at.toISOString();
  const offerById = new Map(offers.map((offer) => [offer.productId, offer]));
  const rows = outcomes.map((outcome) => {
    const offer = offerById.get(outcome.productId)!;
    return {
      product_id: outcome.productId,
      ok: outcome.ok,
      quantity: offer.quantity,
      price: sendsPrice(run.fields) ? offer.price.toFixed(2) : null,
      error: outcome.error,
      revisions: revisionsOn(offer, day) + outcome.revisions,
    };
  });
  const done = outcomes.filter((outcome) => outcome.ok).length;
  const failed = outcomes.length - done;
  await db.transaction(async (tx) => {
    const [locked] = await tx.select({ status: marketplaceBulkRun.status }).from(marketplaceBulkRun).where(eq(marketplaceBulkRun.id, run.id)).for("update");
    if (rows.length > 0) {
      // One statement for the batch: 400 batches of 25 updates each would be 10,000 round trips.
      await tx.execute(sql`
        update ${marketplaceOffer} as o set
          pushed_quantity = case when v.ok then v.quantity else o.pushed_quantity end,
          pushed_price = case when v.ok then coalesce(v.price, o.pushed_price) else o.pushed_price end,
          last_pushed_at = case when v.ok then ${stamp}::timestamptz else o.last_pushed_at end,
          last_error = case when v.ok then null else v.error end,
          last_error_at = case when v.ok then null else ${stamp}::timestamptz end,
          revision_day = ${day}::date,
          revisions_today = v.revisions,
          last_bulk_run_id = ${run.id},
          updated_at = ${stamp}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as v(product_id integer, ok boolean, quantity integer, price numeric, error text, revisions integer)
        where o.product_id = v.product_id`);
    }
    await tx
      .update(marketplaceBulkRun)
      .set({
        doneCount: sql`${marketplaceBulkRun.doneCount} + ${done}`,
        failedCount: sql`${marketplaceBulkRun.failedCount} + ${failed}`,
        lastProductId: batch.toId,
        inFlightFromId: null,
        inFlightToId: null,
        inFlightJobId: null,
        lastError: null,
      })
      .where(eq(marketplaceBulkRun.id, run.id));
    // A run cancelled while this batch was on its way still records what was sent, but no longer shows progress.
    if (locked?.status === "RUNNING") await setProgressParam(tx, batch.toId);
    if (failed > 0) {
      await logMarketplaceWarning(tx, {
        errorData: outcomes.filter((outcome) => !outcome.ok).map((outcome) => ({ productId: outcome.productId, error: outcome.error })),
        description: `Bulk update ${run.id}: ${failed} of ${outcomes.length} offers (products ${batch.fromId} to ${batch.toId}) were not updated`,
      });
    }
  });
}

async function finishRun(db: Db, runId: number): Promise<"finished" | "stopped"> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .update(marketplaceBulkRun)
      .set({ status: "DONE", finishedAt: new Date() })
      .where(and(eq(marketplaceBulkRun.id, runId), eq(marketplaceBulkRun.status, "RUNNING")))
      .returning();
    if (!run) return "stopped";
    await setProgressParam(tx, 0);
    const counts = `${run.doneCount} offers updated, ${run.failedCount} failed`;
    await logMarketplaceEvent(tx, {
      userId: null,
      newState: { status: "DONE", doneCount: run.doneCount, failedCount: run.failedCount },
      description: `Bulk update ${run.id} done: ${counts}`,
    });
    await notifyStaff(tx, {
      type: "OTHER",
      severity: run.failedCount > 0 ? "WARNING" : "INFO",
      message: `The bulk update of the eBay offers (${fieldsInWords(run.fields)}) is done: ${counts}${run.failedCount > 0 ? "; the offers table shows why" : ""}.`,
    });
    return "finished";
  });
}

export type StretchOutcome = { kind: "finished" | "stopped" } | { kind: "more"; notBefore: Date | undefined };

/**
 * Sends batches of a run until it is finished or stopped, or `stretchMs` has passed (then the caller queues the next
 * stretch). A marketplace that refuses for now (429, 5xx, no answer) is waited out with a growing pause, within
 * `waitLimitMs`; past that the next stretch is queued for later.
 */
export async function runBulkUpdateStretch(
  db: Db,
  port: MarketplacePort,
  runId: number,
  options: {
    stretchMs?: number;
    waitLimitMs?: number;
    maxBatches?: number;
    pictures?: ProductPictures;
    now?: () => Date;
    sleep?: (ms: number) => Promise<void>;
    /** The job running the stretch, whose id each claim records. */
    job?: StretchJob;
  } = {},
): Promise<StretchOutcome> {
  const now = options.now ?? (() => new Date());
  // Only a description run reads pictures, and the shop's storage is opened only then.
  const pictures = () => options.pictures ?? shopProductPictures();
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  const stretchMs = options.stretchMs ?? stretchLimits.stretchMs;
  const waitLimitMs = options.waitLimitMs ?? stretchLimits.waitLimitMs;
  let ownClaim: number | null = null;
  let refusals = 0;
  for (let batches = 0; batches < (options.maxBatches ?? Number.POSITIVE_INFINITY); ) {
    let result: BatchResult;
    try {
      result = await processBatch(db, port, runId, ownClaim, { now, pictures, job: options.job });
    } catch (error) {
      if (!(error instanceof MarketplaceError && error.retryable)) throw error;
      const [run] = await db
        .update(marketplaceBulkRun)
        .set({ lastError: `${errorMessage(error)} (waiting and trying again)` })
        .where(eq(marketplaceBulkRun.id, runId))
        .returning({ inFlightFromId: marketplaceBulkRun.inFlightFromId });
      ownClaim = run?.inFlightFromId ?? null;
      refusals += 1;
      const pauseMs = Math.min(1000 * 2 ** (refusals - 1), 30_000);
      if (Date.now() + pauseMs - started > waitLimitMs) return { kind: "more", notBefore: new Date(Date.now() + pauseMs) };
      await sleep(pauseMs);
      continue;
    }
    if (result === "finished" || result === "stopped") return { kind: result };
    if (result === "look again") continue;
    if (result !== "recorded") return { kind: "more", notBefore: result.waitUntil };
    ownClaim = null;
    refusals = 0;
    batches += 1;
    if (Date.now() - started >= stretchMs) return { kind: "more", notBefore: undefined };
  }
  return { kind: "more", notBefore: undefined };
}

export const bulkUpdateJob = defineJob({
  name: "marketplace-bulk-update",
  schema: z.object({ runId: z.number().int().positive() }),
  // A stretch ends well inside its expiry, so the queue's retry after expiry means the process died; a run is
  // killed at most a few times.
  expireInSeconds: EXPIRE_SECONDS,
  retry: { limit: 20, delaySeconds: 5 },
  async run({ runId }, { db, jobId, previousTryStopped }) {
    const outcome = await runBulkUpdateStretch(db, getMarketplace(), runId, { job: { id: jobId, previousTryStopped: previousTryStopped ?? false } });
    if (outcome.kind !== "more") return;
    // Queued while this try is still active, which "waiting" allows: the next stretch starts once this one ends.
    await enqueueJob(db, bulkUpdateJob, { runId }, { singletonKey: String(runId), singletonWhile: "waiting", startAfter: outcome.notBefore });
  },
});
