import "server-only";
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { errorMessage } from "@/lib/error-message";
import { rowId } from "@/lib/id";
import type { Db } from "@/server/db/client";
import { mailMessage, orderDetail } from "@/server/db/schema";
import { getMail } from "@/server/integrations/mail/mail";
import type { MailMessage, MailPort } from "@/server/integrations/mail/port";
import { defineJob } from "@/server/jobs/define";
import { enqueueJob } from "@/server/jobs/queue";
import { logChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";

/*
 * The shop's e-mails to customers, sent so that none is lost (RELIABILITY-REVIEW D1). A domain writes the rendered
 * e-mail here (`queueMail`) in the transaction that makes it necessary, so it exists if and only if that change
 * committed; the `mail-delivery` job queued with it sends it and then records it delivered. The send comes first: a
 * process that dies, or is stopped, in between leaves the message QUEUED, and the job's retry sends it again under the
 * same idempotency key, which the mail service (Resend, the sandbox outbox) honours by not delivering it twice. So an
 * e-mail goes at least once, exactly once where the service keeps keys, and is never marked sent before it was.
 */

/** A rendered e-mail with its key, and what it is about. */
export type QueuedMail = MailMessage & {
  idempotencyKey: string;
  orderId?: number;
  refundId?: number;
  /** The order detail's flag that says it went (the order page's "Sent"). */
  orderFlag?: "orderEmailSent" | "shippingEmailSent";
  /** The logbook's words once it is delivered. */
  description: string;
};

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

export const messageJobs = [mailDeliveryJob];

/**
 * Writes an e-mail to the outbox and queues its delivery, in the caller's transaction. The same key twice (a webhook
 * replayed, a job run again) keeps the first: an e-mail is written once for good.
 */
export async function queueMail(tx: Db, mail: QueuedMail): Promise<void> {
  const [written] = await tx
    .insert(mailMessage)
    .values({
      idempotencyKey: mail.idempotencyKey,
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      links: mail.links,
      orderId: mail.orderId ?? null,
      refundId: mail.refundId ?? null,
      orderFlag: mail.orderFlag ?? null,
      description: mail.description,
    })
    .onConflictDoNothing({ target: mailMessage.idempotencyKey })
    .returning({ id: mailMessage.id });
  if (written) await enqueueJob(tx, mailDeliveryJob, { messageId: written.id }, { singletonKey: `mail-${written.id}` });
}

/**
 * Sends a QUEUED message and records it delivered: its status, the order's flag and the logbook entry, together. A
 * failed send is recorded on the message and thrown, for the job to try again; on the last try the message is FAILED
 * and staff are told. Answers what it did.
 */
export async function deliverMail(db: Db, messageId: number, mail: MailPort, options: { lastTry?: boolean } = {}): Promise<"sent" | "already sent"> {
  const [message] = await db.select().from(mailMessage).where(eq(mailMessage.id, messageId));
  if (!message) throw new Error(`Mail message ${messageId} does not exist`);
  if (message.status === "SENT") return "already sent";
  const entity = message.refundId !== null ? { entityType: "REFUND" as const, entityId: message.refundId } : message.orderId !== null ? { entityType: "ORDER" as const, entityId: message.orderId } : {};
  try {
    await mail.send({ to: message.to, subject: message.subject, html: message.html, text: message.text, kind: message.kind, links: message.links, idempotencyKey: message.idempotencyKey });
  } catch (error) {
    const failed = options.lastTry ? "FAILED" : "QUEUED";
    await db.transaction(async (tx) => {
      await tx
        .update(mailMessage)
        .set({ status: failed, attempts: sql`${mailMessage.attempts} + 1`, lastError: errorMessage(error) })
        .where(and(eq(mailMessage.id, messageId), ne(mailMessage.status, "SENT")));
      await logChange(tx, {
        userId: null,
        eventType: "EMAIL",
        ...entity,
        logLevel: options.lastTry ? "ERROR" : "WARNING",
        errorData: { message: errorMessage(error), to: message.to, kind: message.kind },
        description: `${message.subject} (to ${message.to}) could not be sent${options.lastTry ? "; it was tried for the last time" : "; it is tried again"}`,
      });
      if (options.lastTry) {
        await notifyStaff(tx, { type: "OTHER", severity: "ERROR", message: `The e-mail "${message.subject}" to ${message.to} could not be sent: ${errorMessage(error)}` });
      }
    });
    throw error;
  }
  await db.transaction(async (tx) => {
    const [marked] = await tx
      .update(mailMessage)
      .set({ status: "SENT", sentAt: new Date(), attempts: sql`${mailMessage.attempts} + 1`, lastError: null })
      .where(and(eq(mailMessage.id, messageId), ne(mailMessage.status, "SENT")))
      .returning({ id: mailMessage.id });
    // Delivered by another try at the same moment: that one recorded it.
    if (!marked) return;
    if (message.orderFlag && message.orderId !== null) {
      await tx.update(orderDetail).set({ [message.orderFlag]: true }).where(eq(orderDetail.orderId, message.orderId));
    }
    await logChange(tx, {
      userId: null,
      eventType: "EMAIL",
      ...entity,
      newState: { to: message.to, kind: message.kind, idempotencyKey: message.idempotencyKey, ...(message.orderFlag ? { [message.orderFlag]: true } : {}) },
      description: message.description,
    });
  });
  return "sent";
}

/** Where an e-mail about an order is: on its way (with the last failure, while it is tried again), gone, or given up. */
export type MailState = { status: "QUEUED" | "SENT" | "FAILED"; attempts: number; lastError: string | null; sentAt: Date | null };

/** The newest e-mail of each kind about an order, by kind. */
export async function mailStatesOfOrder(db: Db, orderId: number, kinds: readonly string[]): Promise<Map<string, MailState>> {
  const rows = await db
    .select({ kind: mailMessage.kind, status: mailMessage.status, attempts: mailMessage.attempts, lastError: mailMessage.lastError, sentAt: mailMessage.sentAt })
    .from(mailMessage)
    .where(and(eq(mailMessage.orderId, orderId), inArray(mailMessage.kind, [...kinds])))
    .orderBy(desc(mailMessage.id));
  const states = new Map<string, MailState>();
  for (const { kind, ...state } of rows) if (!states.has(kind)) states.set(kind, state);
  return states;
}
