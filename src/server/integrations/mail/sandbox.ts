import "server-only";
import { and, desc, eq, notInArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailOutbox, user } from "@/server/db/schema";
import type { Logger } from "@/server/logger";
import { sandboxProbeAnswer } from "../port-status";
import type { MailPort } from "./port";

/**
 * The embedded default's mail: nothing leaves the machine. Every message is kept in the outbox table (shown at
 * /dev/outbox, except mail to staff) and its links are printed in the server log, so a person can sign in without a
 * mail server; a staff account's sign-in link is found only in the log.
 */
export function createOutboxMail(options: { db: Db; from: string; log: Logger }): MailPort {
  return {
    probe: async () => sandboxProbeAnswer,
    async send(message) {
      // A message sent again under its key (a delivery retried after a crash) is kept once, as Resend keeps it once.
      const kept = await options.db
        .insert(mailOutbox)
        .values({ ...message, idempotencyKey: message.idempotencyKey ?? null, from: options.from })
        .onConflictDoNothing({ target: mailOutbox.idempotencyKey })
        .returning({ id: mailOutbox.id });
      if (kept.length === 0) {
        options.log.info({ event: "MAIL_SANDBOX", kind: message.kind, idempotencyKey: message.idempotencyKey }, "E-mail already in the outbox under its key; not kept twice");
        return;
      }
      options.log.info({ event: "MAIL_SANDBOX", kind: message.kind, to: message.to, links: message.links }, `E-mail kept in the outbox: ${message.subject}`);
    },
  };
}

export type OutboxMessage = typeof mailOutbox.$inferSelect;

/**
 * The newest messages first, optionally for one recipient. Without `withStaffMail`, mail to staff (ADMIN) accounts
 * is left out: a staff sign-in link is never shown to anyone but staff.
 */
export async function listOutbox(db: Db, options: { to?: string; limit?: number; withStaffMail?: boolean } = {}): Promise<OutboxMessage[]> {
  const staff = db.select({ email: user.email }).from(user).where(eq(user.role, "ADMIN"));
  return db
    .select()
    .from(mailOutbox)
    .where(
      and(
        options.to ? eq(mailOutbox.to, options.to.trim().toLowerCase()) : undefined,
        options.withStaffMail ? undefined : notInArray(mailOutbox.to, staff),
      ),
    )
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(options.limit ?? 50);
}
