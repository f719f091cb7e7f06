import type { MailMessage } from "@/server/integrations/mail/port";

const colours = { paper: "#faf8f4", card: "#ffffff", ink: "#14202e", muted: "#55606d", brass: "#8a6a37", rule: "#e3ddd2" };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

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

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(subject)}</title>
</head>
<body style="margin:0;padding:0;background:${colours.paper};">
<div style="display:none;max-height:0;overflow:hidden;">Your sign-in link for ${e(shopName)}, valid for ${e(lifetime)}.</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colours.paper};padding:32px 12px;">
<tr><td align="center">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;">
    <tr><td style="padding:0 8px 20px;text-align:center;font-family:Georgia,'Times New Roman',serif;font-size:22px;letter-spacing:0.5px;color:${colours.ink};">
      <span style="color:${colours.brass};">&#9673;</span>&nbsp;${e(shopName)}
    </td></tr>
    <tr><td style="background:${colours.card};border:1px solid ${colours.rule};border-radius:10px;padding:36px 32px;">
      <h1 style="margin:0 0 12px;font-family:Georgia,'Times New Roman',serif;font-weight:600;font-size:26px;line-height:1.25;color:${colours.ink};">Your sign-in link</h1>
      <p style="margin:0 0 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.6;color:${colours.ink};">
        Click the button to sign in to ${e(shopName)} as <strong>${e(to)}</strong>. Your saved cart and order history are waiting.
      </p>
      <table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 24px;"><tr>
        <td style="border-radius:6px;background:${colours.brass};">
          <a href="${e(url)}" target="_blank" style="display:inline-block;padding:13px 28px;font-family:Helvetica,Arial,sans-serif;font-size:15px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">Sign in</a>
        </td>
      </tr></table>
      <p style="margin:0 0 8px;font-family:Helvetica,Arial,sans-serif;font-size:13px;line-height:1.5;color:${colours.muted};">Or paste this address into your browser:</p>
      <p style="margin:0 0 24px;font-family:Menlo,Consolas,monospace;font-size:12px;line-height:1.5;word-break:break-all;"><a href="${e(url)}" style="color:${colours.brass};">${e(url)}</a></p>
      <hr style="border:none;border-top:1px solid ${colours.rule};margin:0 0 16px;">
      <p style="margin:0;font-family:Helvetica,Arial,sans-serif;font-size:13px;line-height:1.5;color:${colours.muted};">
        The link works once and for ${e(lifetime)}. If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.
      </p>
    </td></tr>
    <tr><td style="padding:20px 8px 0;text-align:center;font-family:Helvetica,Arial,sans-serif;font-size:12px;line-height:1.5;color:${colours.muted};">
      ${e(shopName)} · ${e(strapLine)}<br>Sent to ${e(to)} from ${e(host)}
    </td></tr>
  </table>
</td></tr>
</table>
</body>
</html>`;
  return { to, subject, html, text, kind: "sign-in", links: [url] };
}
