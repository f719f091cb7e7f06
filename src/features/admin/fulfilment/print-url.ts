/** The documents route handlers' addresses (labels, packing slips, invoices) for some orders, as one PDF. */
export function printUrl(document: "labels" | "packing-slips" | "invoices", orderIds: readonly number[]): string {
  return `/admin/orders/print/${document}?orders=${orderIds.join(",")}`;
}
