import "server-only";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { createSmtpMail } from "./live";
import type { MailPort } from "./port";
import { createOutboxMail } from "./sandbox";

export function mailFrom(): string {
  return env.MAIL_FROM ?? `${env.SHOP_NAME} <no-reply@localhost>`;
}

/** SMTP when a mail server is configured, the outbox otherwise. */
export function getMail(db: Db): MailPort {
  return env.SMTP_URL ? createSmtpMail({ url: env.SMTP_URL, from: mailFrom() }) : createOutboxMail({ db, from: mailFrom(), log: logger });
}

export function isMailSandbox(): boolean {
  return !env.SMTP_URL;
}
