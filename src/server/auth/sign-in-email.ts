import { emailButton, emailHeading, escapeHtml, mailColours as colours, renderEmailLayout } from "@/server/integrations/mail/layout";
import type { MailMessage } from "@/server/integrations/mail/port";

function validFor(expires: Date, now: Date): string {
  const minutes = Math.max(1, Math.round((expires.getTime() - now.getTime()) / 60_000));
  if (minutes % 60 === 0) return minutes === 60 ? "one hour" : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/**
 * The sign-in e-mail: a branded HTML message (table layout and inline styles, which mail clients render alike) and
 * the same words as plain text. The button is the link; the address is repeated for clients that block buttons.
 */
export function renderSignInEmail(options: {
  to: string;
  url: string;
  expires: Date;
  shopName: string;
  strapLine: string;
  now?: Date;
}): MailMessage {
  const { to, url, shopName, strapLine } = options;
  const host = new URL(url).host;
  const lifetime = validFor(options.expires, options.now ?? new Date());
  const subject = `Sign in to ${shopName}`;
  const text = [
    `Sign in to ${shopName}`,
    "",
    `Someone (we hope you) asked to sign in to ${shopName} at ${host} as ${to}.`,
    "Open this link to sign in:",
    url,
    "",
    `The link works once and for ${lifetime}. If you did not ask for it, ignore this e-mail: nobody can sign in without it.`,
    "",
    `${shopName} — ${strapLine}`,
  ].join("\n");

  const html = renderEmailLayout({
    subject,
    preheader: `Your sign-in link for ${shopName}, valid for ${lifetime}.`,
    shopName,
    body: `${emailHeading("Your sign-in link")}
      <p style="margin:0 0 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.6;color:${colours.ink};">
        Click the button to sign in to ${escapeHtml(shopName)} as <strong>${escapeHtml(to)}</strong>. Your saved cart and order history are waiting.
      </p>
      ${emailButton(url, "Sign in")}
      <p style="margin:0 0 8px;font-family:Helvetica,Arial,sans-serif;font-size:13px;line-height:1.5;color:${colours.muted};">Or paste this address into your browser:</p>
      <p style="margin:0 0 24px;font-family:Menlo,Consolas,monospace;font-size:12px;line-height:1.5;word-break:break-all;"><a href="${escapeHtml(url)}" style="color:${colours.brass};">${escapeHtml(url)}</a></p>
      <hr style="border:none;border-top:1px solid ${colours.rule};margin:0 0 16px;">
      <p style="margin:0;font-family:Helvetica,Arial,sans-serif;font-size:13px;line-height:1.5;color:${colours.muted};">
        The link works once and for ${escapeHtml(lifetime)}. If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.
      </p>`,
    footer: `${escapeHtml(shopName)} · ${escapeHtml(strapLine)}<br>Sent to ${escapeHtml(to)} from ${escapeHtml(host)}`,
  });
  return { to, subject, html, text, kind: "sign-in", links: [url] };
}
