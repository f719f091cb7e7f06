import { desc } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { logbook } from "@/server/db/schema";
import { logger } from "@/server/logger";
import { createCaller } from "@/server/root";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { defineJob } from "./define";
import { enqueueJob } from "./queue";
import { runWaitingJobs } from "./worker";

/** What staff see of the queue at /admin/jobs (`admin.jobs.*`), and the retry of a failed job. */

const t = databaseForFile();
let carrierUp = false;

const labelJob = defineJob({
  name: "test-label",
  schema: z.object({ orderNumber: z.string() }),
  retry: { limit: 1, delaySeconds: 0 },
  async run({ orderNumber }) {
    if (!carrierUp) throw new Error(`the carrier is down (order ${orderNumber})`);
  },
});

beforeAll(async () => {
});

const staff = async () => createCaller(contextFor(t.db, await makeUser(t.db, "ADMIN", "Jo Staff")));

describe("admin.jobs", () => {
  it("lists each kind of job with its counts and the failed jobs with their error and tries; a retry runs one again and is logged", async () => {
    await enqueueJob(t.db, labelJob, { orderNumber: "BC-1001" });
    await runWaitingJobs(t.database, [labelJob], logger);
    await enqueueJob(t.db, labelJob, { orderNumber: "BC-1002" }, { startAfter: new Date(Date.now() + 60_000) });
    const caller = await staff();

    const before = await caller.admin.jobs.list();
    expect(before.queues).toEqual([{ name: "test-label", waiting: 1, active: 0, failed: 1, doneLast24Hours: 0, schedule: null }]);
    expect(before.failed).toEqual([
      expect.objectContaining({ queue: "test-label", error: "the carrier is down (order BC-1001)", attempts: 2, data: { orderNumber: "BC-1001" } }),
    ]);
    const failedId = before.failed[0]!.id;

    carrierUp = true;
    await caller.admin.jobs.retry({ queue: "test-label", id: failedId });
    await runWaitingJobs(t.database, [labelJob], logger);

    const after = await caller.admin.jobs.list();
    expect(after.queues).toEqual([expect.objectContaining({ name: "test-label", failed: 0, doneLast24Hours: 1 })]);
    expect(after.failed).toEqual([]);
    const [logged] = await t.db.select().from(logbook).orderBy(desc(logbook.id)).limit(1);
    expect(logged?.description).toBe(`Job test-label (${failedId}) retried by staff after 2 failed tries`);

    await expect(caller.admin.jobs.retry({ queue: "test-label", id: failedId })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("is for staff only", async () => {
    const customer = await makeUser(t.db, "USER");
    await expect(createCaller(contextFor(t.db, customer)).admin.jobs.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createCaller(contextFor(t.db, null)).admin.jobs.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
