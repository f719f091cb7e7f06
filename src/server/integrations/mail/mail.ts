import "server-only";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { createSmtpMail } from "./live";
import { plainSetting, secretSetting, type PortDescription } from "../port-status";
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

/** How `getMail` is set up, for the owner's integrations page; nothing is called. SMTP_URL holds a password: only its host is shown. */
export function describeMail(): PortDescription {
  const configured = configuredService();
  const from = plainSetting("MAIL_FROM", env.MAIL_FROM);
  if (configured?.service === "resend") return { mode: "live", detail: "Resend's API", endpoint: env.RESEND_API_URL, settings: [secretSetting("RESEND_API_KEY", configured.apiKey), from] };
  if (configured?.service === "smtp") return { mode: "live", detail: "A mail server over SMTP", endpoint: smtpHost(configured.url), settings: [secretSetting("SMTP_URL", configured.url), from] };
  const wanted = env.MAIL_SERVICE === "resend" ? secretSetting("RESEND_API_KEY", null) : secretSetting("SMTP_URL", null);
  return { mode: "sandbox", detail: "The outbox keeps every e-mail at /dev/outbox; nothing is sent", endpoint: null, settings: env.INTEGRATIONS === "live" ? [wanted] : [] };
}

function smtpHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}
