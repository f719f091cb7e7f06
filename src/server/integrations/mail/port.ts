import type { Probe } from "../port-status";

/** One e-mail, always with both an HTML and a plain-text body. */
export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What it is for (`sign-in`, ...), for the outbox and the logs. */
  kind: string;
  /** The links a reader is meant to click, logged by the sandbox so a developer can follow them. */
  links: string[];
  /**
   * Names this one e-mail for good (`order-confirmation/BC-2026-000123`), when it has a natural key: a retried job
   * that sends it again under the same key is not delivered twice by a service that honours the key (Resend keeps
   * keys 24 hours). At most 256 characters. Leave it out for mail that may rightly go again (a new sign-in link).
   */
  idempotencyKey?: string;
};

export interface MailPort {
  send(message: MailMessage): Promise<void>;
  /** The owner's Test connection: the mail server's greeting and login, or Resend's answer to the key; sends nothing. */
  probe: Probe;
}

/**
 * A mail service refused or could not take an e-mail: `status` is its HTTP status (null when it was not reached or
 * speaks SMTP), `code` its name for the error, and `retryAfterSeconds` how long it asked us to wait, when it said.
 */
export class MailDeliveryError extends Error {
  constructor(
    readonly service: string,
    message: string,
    readonly details: { status: number | null; code: string | null; retryAfterSeconds?: number },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "MailDeliveryError";
  }
}
