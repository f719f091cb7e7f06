import "server-only";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { createSmtpMail } from "./live";
import type { MailPort } from "./port";
import { createResendMail } from "./resend";
import { createOutboxMail } from "./sandbox";

export function mailFrom(): string {
  return env.MAIL_FROM ?? `${env.SHOP_NAME} <no-reply@localhost>`;
}

/** The mail service MAIL_SERVICE chooses, when its credential is set. */
function configuredService(): { service: "smtp"; url: string } | { service: "resend"; apiKey: string } | null {
  if (env.MAIL_SERVICE === "resend") return env.RESEND_API_KEY ? { service: "resend", apiKey: env.RESEND_API_KEY } : null;
  return env.SMTP_URL ? { service: "smtp", url: env.SMTP_URL } : null;
}

/**
 * The mail service MAIL_SERVICE chooses (a mail server over SMTP, or Resend's API) when its credential is set, the
 * outbox otherwise. Everything the shop mails goes through here: sign-in links, order and shipping e-mails.
 */
export function getMail(db: Db): MailPort {
  const configured = configuredService();
  if (configured?.service === "resend") {
    return createResendMail({
      apiKey: configured.apiKey,
      from: mailFrom(),
      baseUrl: env.RESEND_API_URL,
      onAlreadySent: (repeat) => logger.warn({ event: "MAIL", ...repeat }, "Resend had sent this e-mail already; not sent again"),
    });
  }
  if (configured?.service === "smtp") return createSmtpMail({ url: configured.url, from: mailFrom() });
  return createOutboxMail({ db, from: mailFrom(), log: logger });
}

export function isMailSandbox(): boolean {
  return configuredService() === null;
}
