import { createTransport } from "nodemailer";
import { MailDeliveryError, type MailPort } from "./port";

/**
 * Mail over SMTP (PROVIDERS section 9), from an `smtp://` or `smtps://user:pass@host:port` address. A message's
 * idempotency key travels as the `Resend-Idempotency-Key` header, which Resend's SMTP relay honours like its API's
 * key; any other mail server ignores the header.
 */
export function createSmtpMail(options: { url: string; from: string }): MailPort {
  const transport = createTransport(options.url);
  return {
    async send(message) {
      const result = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        ...(message.idempotencyKey ? { headers: { "Resend-Idempotency-Key": message.idempotencyKey } } : {}),
      });
      const refused = [...(result.rejected ?? []), ...(result.pending ?? [])].map(String).filter(Boolean);
      if (refused.length > 0) {
        throw new MailDeliveryError("SMTP", `The mail server refused ${refused.join(", ")}`, { status: null, code: null });
      }
    },
  };
}
