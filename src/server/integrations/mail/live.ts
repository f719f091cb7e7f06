import { createTransport } from "nodemailer";
import type { MailPort } from "./port";

/** Mail over SMTP (PROVIDERS section 9), from an `smtp://` or `smtps://user:pass@host:port` address. */
export function createSmtpMail(options: { url: string; from: string }): MailPort {
  const transport = createTransport(options.url);
  return {
    async send(message) {
      const result = await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, html: message.html, text: message.text });
      const refused = [...(result.rejected ?? []), ...(result.pending ?? [])].map(String).filter(Boolean);
      if (refused.length > 0) throw new Error(`The mail server refused ${refused.join(", ")}`);
    },
  };
}
