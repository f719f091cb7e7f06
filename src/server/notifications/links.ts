/** An order number as the shop gives them: BC-2026-000123. */
const ORDER_NUMBER = /\bBC-\d{4}-\d{4,}\b/;

/** A back-office address a message names itself ("retry it on /admin/ebay"). */
const ADMIN_PATH = /(?<![\w/])\/admin(?:\/[\w-]+)*/;

/**
 * Where a notification leads in the back office, read from its message in this one place (the table keeps the
 * message alone, and a notification about an order, a refund or an eBay order names the order's number): the
 * order's page for a message that names an order, a back-office address the message names itself, or nowhere.
 */
export function notificationLink(message: string): string | null {
  const orderNumber = ORDER_NUMBER.exec(message)?.[0];
  if (orderNumber) return `/admin/orders/${orderNumber}`;
  return ADMIN_PATH.exec(message)?.[0] ?? null;
}
