import { desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { mailOutbox } from "@/server/db/schema";
import type { Logger } from "@/server/logger";
import type { MailPort } from "./port";

/**
 * The embedded default's mail: nothing leaves the machine. Every message is kept in the outbox table (shown at
 * /dev/outbox) and its links are printed in the server log, so a person can sign in without a mail server.
 */
export function createOutboxMail(options: { db: Db; from: string; log: Logger }): MailPort {
  return {
    async send(message) {
      await options.db.insert(mailOutbox).values({ ...message, from: options.from });
      options.log.info({ event: "MAIL_SANDBOX", kind: message.kind, to: message.to, links: message.links }, `E-mail kept in the outbox: ${message.subject}`);
    },
  };
}

export type OutboxMessage = typeof mailOutbox.$inferSelect;

/** The newest messages first, optionally for one recipient. */
export async function listOutbox(db: Db, options: { to?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(options.to ? eq(mailOutbox.to, options.to.trim().toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(options.limit ?? 50);
}
