import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/server/db/client";
import { logbook, mailMessage, orderDetail } from "@/server/db/schema";
import { runMigrations } from "@/server/setup/migrate";
import { seedDatabase } from "@/server/setup/seed/seed";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { withJobClient } from "@/server/jobs/queue";
import { queueOrderConfirmation } from "@/server/orders/confirmation";
import { transitionOrder } from "@/server/orders/service";
import { placeOneWatchOrder } from "../../../tests/helpers/factories";
import { resendApiKey, startResendStandIn } from "../../../tests/helpers/resend-stand-in";
import { queryRows } from "../../../tests/helpers/test-database";
import { killWorker, meeting, startWorkerProcess, type Meeting } from "../../../tests/helpers/worker-process";
import { mailDeliveryJob } from "./jobs";

/**
 * RELIABILITY-REVIEW D1 and D5, acceptance 4 of issue 24: a paid order's confirmation e-mail arrives exactly once when
 * the worker sending it is killed (SIGKILL) or stopped (SIGTERM) in the send window: after Resend took the e-mail and
 * before the shop heard back. The worker runs in a process of its own against a Resend stand-in that keeps its answer
 * back, as a slow mail service does; the stand-in keeps idempotency keys as Resend does. The whole server under the
 * same faults is `npm run bench:faults -- --only mail-send-window`.
 */

const cleanUps: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

const now = new Date();

/** A shop with one order just paid, its confirmation e-mail written to the outbox in the paying transaction. */
async function paidOrder(where: Meeting) {
  const database = await where.open();
  await runMigrations(database);
  await seedDatabase(database.db, createSandboxStorage({ root: path.join(os.tmpdir(), `outbox-crash-${process.pid}`) }), { products: 0, images: 0, now });
  const placed = await placeOneWatchOrder(database.db, { email: "ada@example.com", method: "IDEAL", now });
  await database.db.transaction(async (tx) => {
    await transitionOrder(tx, placed.orderId, "PAID_READY_TO_SHIP", { userId: null, description: "Paid in the test", now });
    await queueOrderConfirmation(tx, placed.orderNumber);
  });
  await where.handOver();
  return placed;
}

async function startMailWorker(where: Meeting, resendUrl: string) {
  const worker = startWorkerProcess({
    env: { ...where.childEnv, MAIL_SERVICE: "resend", RESEND_API_KEY: resendApiKey, RESEND_API_URL: resendUrl, LOG_LEVEL: "warn" },
    module: "./src/server/messages/jobs.ts",
    exportName: "messageJobs",
    cleanUps,
  });
  await worker.printed(/worker started/);
  return worker;
}

const confirmationOf = async (database: Database, orderId: number) => {
  const [message] = await database.db.select().from(mailMessage).where(and(eq(mailMessage.orderId, orderId), eq(mailMessage.kind, "order-confirmation")));
  const [detail] = await database.db.select({ sent: orderDetail.orderEmailSent }).from(orderDetail).where(eq(orderDetail.orderId, orderId));
  const logged = await database.db
    .select({ description: logbook.description })
    .from(logbook)
    .where(and(eq(logbook.eventType, "EMAIL"), eq(logbook.entityType, "ORDER"), eq(logbook.entityId, String(orderId))));
  return { message: message!, flagged: detail!.sent, logged: logged.map((entry) => entry.description) };
};

describe("a paid order's confirmation e-mail when its worker ends in the send window", () => {
  it("arrives once after a kill: the message stays queued, and the retry sends it again under its key", async () => {
    const resend = await startResendStandIn();
    cleanUps.push(() => resend.close());
    const where = await meeting(cleanUps);
    const placed = await paidOrder(where);

    resend.holdAnswers(true);
    const first = await startMailWorker(where, resend.url);
    await vi.waitFor(() => expect(resend.sent).toHaveLength(1), { timeout: 30_000, interval: 50 });
    await killWorker(first);

    let database = await where.open();
    // Not called sent: the shop never heard that it was.
    const killed = await confirmationOf(database, placed.orderId);
    expect(killed.message.status).toBe("QUEUED");
    expect(killed.flagged).toBe(false);
    // The queue fails the try once its time runs out (maintenance); the test does so at once, and lets the retry start now.
    const [job] = await queryRows<{ id: string }>(database.db, sql`select id from pgboss.job where name = ${mailDeliveryJob.name} and state = 'active'`);
    await withJobClient(database.db, (boss, db) => boss.fail(mailDeliveryJob.name, job!.id, { message: "its time ran out" }, { db }));
    await database.db.execute(sql`update pgboss.job set start_after = now() where id = ${job!.id}`);
    await where.handOver();

    resend.holdAnswers(false);
    const second = await startMailWorker(where, resend.url);
    database = await (async () => {
      if (!process.env.TEST_DATABASE_URL) {
        // PGlite is one process's at a time: the worker delivers, stops, and the folder comes back here.
        await vi.waitFor(() => expect(resend.requests.filter((request) => request.path === "/emails")).toHaveLength(2), { timeout: 30_000, interval: 100 });
        second.child.kill("SIGTERM");
        await second.exited;
      }
      return where.open();
    })();
    await vi.waitFor(async () => expect((await confirmationOf(database, placed.orderId)).message.status).toBe("SENT"), { timeout: 30_000, interval: 100 });

    const delivered = await confirmationOf(database, placed.orderId);
    expect(delivered.flagged).toBe(true);
    expect(delivered.logged).toEqual([`Order confirmation e-mail of ${placed.orderNumber} sent to ada@example.com`]);
    // Two requests under one key, one e-mail in the customer's inbox.
    const requests = resend.requests.filter((request) => request.path === "/emails");
    expect(requests.map((request) => request.headers["idempotency-key"])).toEqual([`order-confirmation/${placed.orderNumber}`, `order-confirmation/${placed.orderNumber}`]);
    expect(resend.sent.map((email) => email.to)).toEqual([["ada@example.com"]]);
  }, 120_000);

  it("arrives once after a stop: the worker finishes the send before the process ends, and nothing is sent again", async () => {
    const resend = await startResendStandIn();
    cleanUps.push(() => resend.close());
    const where = await meeting(cleanUps);
    const placed = await paidOrder(where);

    resend.holdAnswers(true);
    const worker = await startMailWorker(where, resend.url);
    await vi.waitFor(() => expect(resend.sent).toHaveLength(1), { timeout: 30_000, interval: 50 });
    worker.child.kill("SIGTERM");
    await worker.printed(/stopping/);
    // The mail service answers a moment later; the stopping worker waits for it.
    setTimeout(() => resend.holdAnswers(false), 1_000);
    expect(await worker.exited).toBe(0);

    const database = await where.open();
    const stopped = await confirmationOf(database, placed.orderId);
    expect(stopped.message).toMatchObject({ status: "SENT", attempts: 1 });
    expect(stopped.flagged).toBe(true);
    const [job] = await queryRows<{ state: string }>(database.db, sql`select state from pgboss.job where name = ${mailDeliveryJob.name}`);
    expect(job!.state).toBe("completed");
    expect(resend.requests.filter((request) => request.path === "/emails")).toHaveLength(1);
    expect(resend.sent).toHaveLength(1);
  }, 120_000);
});
