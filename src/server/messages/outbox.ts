import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailMessage } from "@/server/db/schema";
import type { MailMessage } from "@/server/integrations/mail/port";
import { enqueueJob } from "@/server/jobs/queue";
import { mailDeliveryJob } from "./jobs";

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
