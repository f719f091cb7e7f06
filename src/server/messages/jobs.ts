import "server-only";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { getMail } from "@/server/integrations/mail/mail";
import { defineJob } from "@/server/jobs/define";
import { deliverMail } from "./delivery";

/** How often, and how far apart, the delivery is tried before the message is FAILED and staff are told. */
const DELIVERY_RETRY = { limit: 8, delaySeconds: 30, backoff: true };

export const mailDeliveryJob = defineJob({
  name: "mail-delivery",
  schema: z.object({ messageId: rowId }),
  retry: DELIVERY_RETRY,
  // Well above one try: a mail server may take its time to answer.
  expireInSeconds: 180,
  async run({ messageId }, { db, attempt }) {
    await deliverMail(db, messageId, getMail(db), { lastTry: attempt > DELIVERY_RETRY.limit });
  },
});

/** `mail-delivery` sends one message of the outbox (`outbox.ts`) and records it delivered (`delivery.ts`). */
export const messageJobs = [mailDeliveryJob];
