import { createHash } from "node:crypto";
import { createTransport } from "nodemailer";
import { MailDeliveryError, type MailPort } from "./port";

/**
 * Mail over SMTP (PROVIDERS section 9), from an `smtp://` or `smtps://user:pass@host:port` address. A message's
 * idempotency key travels as the `Resend-Idempotency-Key` header, which Resend's SMTP relay honours like its API's
 * key; any other mail server ignores the header. The key also makes the message's Message-ID, so that a message sent
 * again after a crash carries the same id and a receiving server or mail client can see the second as the same one.
 */
export function createSmtpMail(options: { url: string; from: string }): MailPort {
  // Bounded well inside the delivery job's time (src/server/messages/outbox.ts), so that a try never outlives it and
  // runs beside its own retry; nodemailer's own limits are minutes.
  const transport = createTransport({ url: options.url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 });
  return {
    /** nodemailer's `verify()`: connects, says hello and logs in as the address says, and sends nothing. */
    async probe() {
      await transport.verify();
      return "The mail server accepted the connection and login";
    },

    async send(message) {
      const result = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        ...(message.idempotencyKey
          ? { headers: { "Resend-Idempotency-Key": message.idempotencyKey }, messageId: messageIdOf(message.idempotencyKey, options.from) }
          : {}),
      });
      const refused = [...(result.rejected ?? []), ...(result.pending ?? [])].map(String).filter(Boolean);
      if (refused.length > 0) {
        throw new MailDeliveryError("SMTP", `The mail server refused ${refused.join(", ")}`, { status: null, code: null });
      }
    },
  };
}

/** `<hash of the key@the sender's domain>`: the same for every send of one message, and naming nothing of it. */
export function messageIdOf(idempotencyKey: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 32)}@${domain}>`;
}
