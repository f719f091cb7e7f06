import type { MailMessage } from "./port";

/**
 * The frame every e-mail of the shop is drawn in: the shop's name over a white card on paper, and a small footer.
 * Table layout and inline styles, which mail clients render alike; the light scheme only, as many clients ignore
 * dark-mode styles.
 */

export const mailColours = { paper: "#faf8f4", card: "#ffffff", ink: "#14202e", muted: "#55606d", brass: "#8a6a37", rule: "#e3ddd2" } as const;

/** The style of a line of body text in a table cell or paragraph; callers add padding, margins and borders. */
export const mailTextStyle = `font-family:Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5;color:${mailColours.ink};`;

/** A row of an e-mail's item table: what it is, and the amount beside it when there is one; both escaped here. */
export function emailLineRow(text: string, amount?: string): string {
  const what = `<td style="${mailTextStyle}padding:8px 0;border-bottom:1px solid ${mailColours.rule};">${escapeHtml(text)}</td>`;
  const price = amount === undefined ? "" : `<td align="right" style="${mailTextStyle}padding:8px 0;border-bottom:1px solid ${mailColours.rule};white-space:nowrap;">${escapeHtml(amount)}</td>`;
  return `<tr>${what}${price}</tr>`;
}

/** An order line in an e-mail's item table ("2 × Leather strap"), with what was paid for it when `paid` is given. */
export function emailItemRow(item: { quantity: number; name: string }, paid?: string): string {
  return emailLineRow(`${item.quantity} × ${item.name}`, paid);
}

type ShippingAddress = { name: string; lines: readonly string[] };

/** The plain-text part's address block: "Shipping to:", the name, then the address lines. */
export function shippingToText(address: ShippingAddress): string[] {
  return ["Shipping to:", address.name, ...address.lines];
}

/** The HTML address block: "Shipping to" in bold over the name and the address lines. */
export function shippingToHtml(address: ShippingAddress): string {
  return `<strong>Shipping to</strong><br>${[address.name, ...address.lines].map(escapeHtml).join("<br>")}`;
}


export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character]!);
}

/** The brass call-to-action button; `url` and `label` are escaped here. */
export function emailButton(url: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 24px;"><tr>
        <td style="border-radius:6px;background:${mailColours.brass};">
          <a href="${escapeHtml(url)}" target="_blank" style="display:inline-block;padding:13px 28px;font-family:Helvetica,Arial,sans-serif;font-size:15px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a>
        </td>
      </tr></table>`;
}

/** The card's heading, in the shop's serif. */
export function emailHeading(text: string): string {
  return `<h1 style="margin:0 0 12px;font-family:Georgia,'Times New Roman',serif;font-weight:600;font-size:26px;line-height:1.25;color:${mailColours.ink};">${escapeHtml(text)}</h1>`;
}

/**
 * A whole HTML e-mail around `body` (HTML, already escaped by the caller). `preheader` is the line inbox lists show
 * after the subject; `footer` is HTML too.
 */
export function renderEmailLayout(options: { subject: string; preheader: string; shopName: string; body: string; footer: string; maxWidth?: number }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(options.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${mailColours.paper};">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(options.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${mailColours.paper};padding:32px 12px;">
<tr><td align="center">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:${options.maxWidth ?? 520}px;">
    <tr><td style="padding:0 8px 20px;text-align:center;font-family:Georgia,'Times New Roman',serif;font-size:22px;letter-spacing:0.5px;color:${mailColours.ink};">
      <span style="color:${mailColours.brass};">&#9673;</span>&nbsp;${escapeHtml(options.shopName)}
    </td></tr>
    <tr><td style="background:${mailColours.card};border:1px solid ${mailColours.rule};border-radius:10px;padding:36px 32px;">
      ${options.body}
    </td></tr>
    <tr><td style="padding:20px 8px 0;text-align:center;font-family:Helvetica,Arial,sans-serif;font-size:12px;line-height:1.5;color:${mailColours.muted};">
      ${options.footer}
    </td></tr>
  </table>
</td></tr>
</table>
</body>
</html>`;
}

/**
 * An e-mail to a customer about their order (confirmation, shipping, refund): sent to the order's address, `body` in
 * the branded layout with a footer naming the order, and the plain text ending, as the HTML does, with the link to
 * the order page and the shop's name. `<kind>/<key>` names it for good (`MailMessage.idempotencyKey`); `links` are
 * the ones to click before the order page's.
 */
export function renderOrderEmail(
  order: { email: string; orderNumber: string },
  message: { kind: string; key: string | number; subject: string; preheader: string; body: string; text: string[]; orderUrl: string; links?: string[]; shopName: string },
): MailMessage {
  const { kind, key, subject, preheader, body, text, orderUrl, links = [], shopName } = message;
  return {
    to: order.email,
    subject,
    html: renderEmailLayout({
      subject,
      preheader,
      shopName,
      maxWidth: 560,
      body,
      footer: `${escapeHtml(shopName)} · Sent to ${escapeHtml(order.email)} about order ${escapeHtml(order.orderNumber)}`,
    }),
    text: [...text, "", `See your order: ${orderUrl}`, "", shopName].join("\n"),
    kind,
    links: [...links, orderUrl],
    idempotencyKey: `${kind}/${key}`,
  };
}
