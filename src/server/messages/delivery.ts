import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { mailMessage, orderDetail } from "@/server/db/schema";
import type { MailPort } from "@/server/integrations/mail/port";
import { logChange } from "@/server/logbook/service";
import { notifyStaff } from "@/server/notifications/service";

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
