import { describe, expect, it } from "vitest";
import { perFile } from "../../../../tests/helpers/per-file";
import { startSmtpServer } from "../../../../tests/helpers/smtp-server";
import { createSmtpMail } from "./live";
import type { MailMessage } from "./port";

// The SMTP adapter against a local mail server: the e-mail's idempotency key travels as the header Resend's SMTP
// relay reads, and mail without one carries no such header.

const smtp = perFile(startSmtpServer, (server) => server.close());

const message = (idempotencyKey?: string): MailMessage => ({
  to: "ada@example.com",
  subject: "Your order BC-2026-000123 is on its way",
  html: "<p>On its way</p>",
  text: "On its way",
  kind: "shipping-confirmation",
  links: [],
  ...(idempotencyKey ? { idempotencyKey } : {}),
});

describe("mail over SMTP", () => {
  it("sends the idempotency key as the Resend-Idempotency-Key header, and none without a key", async () => {
    const mail = createSmtpMail({ url: `smtp://127.0.0.1:${smtp.port}`, from: "shop@example.com" });
    await mail.send(message("shipping-confirmation/BC-2026-000123"));
    await mail.send(message());

    expect(smtp.received.map((received) => received.to)).toEqual([["ada@example.com"], ["ada@example.com"]]);
    expect(smtp.received[0]!.data).toMatch(/^Resend-Idempotency-Key: shipping-confirmation\/BC-2026-000123\r$/m);
    expect(smtp.received[1]!.data).not.toContain("Resend-Idempotency-Key");
  });
});
