import "server-only";
import type { Decimal } from "decimal.js";
import { paymentMethodLabels, shippingMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { pdfFonts } from "@/server/documents/pdf";
import type { OrderView } from "@/server/orders/schemas";
import { contentWidth, drawBlock, drawFactRow, drawLetterhead, drawTable, ensureRoom, flowFrom, formatDocumentDate, hairline, ink, page, renderDocument, sellerAddressLines, sellerFooter, type Seller } from "./layout";
import { formatVatRate, includedVat } from "./vat";

/** One invoice: the order as its one read model shows it, and the number and date it was invoiced under. */
export type InvoiceInput = { order: OrderView; invoiceNumber: string; invoicedAt: Date };

/**
 * Invoices of paid orders: seller and buyer, the invoice's number and date, the order, each line's list price,
 * discount and what was paid, shipping, surcharge and the total from `orderTotals`, and the VAT the total includes at
 * `vatRate` (prices include VAT; a rate of 0 prints no VAT line). One invoice per order, each on its own pages.
 */
export async function renderInvoices(seller: Seller, vatRate: Decimal, invoices: readonly InvoiceInput[]): Promise<Buffer> {
  const title = invoices.length === 1 ? `Invoice ${invoices[0]!.invoiceNumber}` : `Invoices (${invoices.length})`;
  return renderDocument(title, invoices, (doc, invoice) => drawInvoice(doc, seller, vatRate, invoice));
}

const minus = (amount: Decimal) => `−${formatEuro(amount)}`;

/** One invoice from a new page; its footer lines. */
function drawInvoice(doc: PDFKit.PDFDocument, seller: Seller, vatRate: Decimal, { order, invoiceNumber, invoicedAt }: InvoiceInput): string[] {
  let y = drawLetterhead(doc, seller, "Invoice", [
    ["Invoice no.", invoiceNumber],
    ["Invoice date", formatDocumentDate(invoicedAt)],
  ]);

  const half = contentWidth / 2;
  const collected = order.shipping.method === "COLLECTED";
  // A counter sale's buyer has no address on file; the facts below say it was collected in the shop.
  const buyer = [order.address.name, ...order.address.lines, order.email].filter(Boolean);
  const billTo = drawBlock(doc, "Bill to", buyer, page.left, y, half - 20);
  const registrations = [
    ...(seller.vatNumber ? [`VAT no. ${seller.vatNumber}`] : []),
    ...(seller.chamberOfCommerce ? [`Chamber of Commerce ${seller.chamberOfCommerce}`] : []),
  ];
  const from = drawBlock(doc, "From", [seller.name, ...sellerAddressLines(seller), ...registrations], page.left + half, y, half);
  y = drawFactRow(doc, [
    ["Order", order.orderNumber],
    ["Order date", formatDocumentDate(order.createdAt)],
    ["Payment", paymentMethodLabels[order.paymentMethod]],
    ["Shipping", shippingMethodLabels[order.shipping.method]],
  ], Math.max(billTo, from) + 12);

  const flow = flowFrom(doc, y, `Invoice ${invoiceNumber}, order ${order.orderNumber}`);
  const numberWidth = 78;
  drawTable(flow, [
    { header: "Item", width: contentWidth - 40 - 3 * numberWidth, text: (item) => item.name },
    { header: "Qty", width: 40, align: "right", text: (item) => String(item.quantity) },
    { header: "Unit price", width: numberWidth, align: "right", text: (item) => formatEuro(item.paid.plus(item.discount).dividedBy(item.quantity)) },
    // A line charged above its list price (a manual order's override) is stored at that price with no discount.
    { header: "Discount", width: numberWidth, align: "right", text: (item) => (item.discount.isZero() ? "—" : minus(item.discount)) },
    { header: "Amount", width: numberWidth, align: "right", font: pdfFonts.sansBold, text: (item) => formatEuro(item.paid) },
  ], order.items);

  const { totals } = order;
  const lines: [string, string][] = [
    ["Items at list price", formatEuro(totals.items)],
    ...(totals.discount.isZero() ? [] : ([["Discount", minus(totals.discount)]] as [string, string][])),
    collected ? ["Collected in the shop", "no shipping"] : [`Shipping: ${shippingMethodLabels[order.shipping.method]}`, formatEuro(totals.shipping)],
    ...(totals.surcharge.isZero() ? [] : ([["Insurance surcharge", formatEuro(totals.surcharge)]] as [string, string][])),
  ];
  const vatLine = vatRate.isZero() ? null : `incl. ${formatVatRate(vatRate)} VAT ${formatEuro(includedVat(totals.total, vatRate))}`;
  ensureRoom(flow, lines.length * 16 + 60 + 70);

  const labelLeft = page.right - 260;
  const labelWidth = 260 - numberWidth - 5;
  const valueLeft = page.right - numberWidth;
  let totalsY = flow.y + 10;
  for (const [label, value] of lines) {
    doc.font(pdfFonts.sans).fontSize(9.5).fillColor(ink.muted).text(label, labelLeft, totalsY, { width: labelWidth, lineBreak: false });
    doc.font(pdfFonts.sans).fontSize(9.5).fillColor(ink.text).text(value, valueLeft, totalsY, { width: numberWidth - 5, align: "right", lineBreak: false });
    totalsY += 16;
  }
  hairline(doc, totalsY + 2, ink.brass, 1, labelLeft, page.right);
  totalsY += 10;
  doc.font(pdfFonts.serifBold).fontSize(12).fillColor(ink.text).text("Total paid", labelLeft, totalsY, { width: labelWidth, lineBreak: false });
  doc.text(formatEuro(totals.total), valueLeft - 40, totalsY, { width: numberWidth + 35, align: "right", lineBreak: false });
  totalsY += 20;
  if (vatLine) {
    doc.font(pdfFonts.sans).fontSize(9).fillColor(ink.muted).text(vatLine, labelLeft, totalsY, { width: 255, align: "right", lineBreak: false });
    totalsY += 14;
  }

  doc.font(pdfFonts.sans).fontSize(9).fillColor(ink.text);
  doc.text(collected ? "Paid in full at the counter. Thank you for your visit." : `Paid in full with ${paymentMethodLabels[order.paymentMethod]}. Thank you for your order.`, page.left, totalsY + 24, { width: contentWidth });
  return sellerFooter(seller);
}
