import "server-only";
import { shippingMethodLabels } from "@/lib/labels";
import { drawCode128, pdfFonts } from "@/server/documents/pdf";
import { carrierNames, type OrderView } from "@/server/orders/schemas";
import { contentWidth, drawBlock, drawLetterhead, drawTable, drawTickBox, ensureRoom, flowFrom, formatDocumentDate, ink, page, renderDocument, sellerFooter, type Seller } from "./layout";

/**
 * Packing slips: what goes in the parcel and where it goes, with a box to tick per line as it is packed, and no
 * prices (the parcel may be a gift). One slip per order, each starting on a new page.
 */
export async function renderPackingSlips(seller: Seller, orders: readonly OrderView[]): Promise<Buffer> {
  const title = orders.length === 1 ? `Packing slip ${orders[0]!.orderNumber}` : `Packing slips (${orders.length} orders)`;
  return renderDocument(title, orders, (doc, order) => drawPackingSlip(doc, seller, order));
}

/** One packing slip from a new page; its footer lines. */
function drawPackingSlip(doc: PDFKit.PDFDocument, seller: Seller, order: OrderView): string[] {
  let y = drawLetterhead(doc, seller, "Packing slip", [
    ["Order", order.orderNumber],
    ["Order date", formatDocumentDate(order.createdAt)],
  ]);

  const half = contentWidth / 2;
  const shipTo = drawBlock(doc, "Ship to", [order.address.name, ...order.address.lines], page.left, y, half - 20);
  const { shipping } = order;
  const shippingLines = [
    shippingMethodLabels[shipping.method],
    ...(shipping.carrier ? [`${carrierNames[shipping.carrier]}${shipping.trackingNumber ? `, tracking ${shipping.trackingNumber}` : ""}`] : []),
    ...(shipping.estimatedShippingDate ? [`Leaves us ${formatDocumentDate(new Date(`${shipping.estimatedShippingDate}T12:00:00Z`))}`] : []),
  ];
  const shippingBottom = drawBlock(doc, "Shipping", shippingLines, page.left + half, y, half);
  // The order number as a barcode, for a scanner at the packing table.
  drawCode128(doc, order.orderNumber, { x: page.left + half - 8, y: shippingBottom + 6, width: 170, height: 30 });
  y = Math.max(shipTo, shippingBottom + 42) + 14;

  const flow = flowFrom(doc, y, `Packing slip ${order.orderNumber}`);
  drawTable(flow, [
    { header: "Packed", width: 48, align: "center", draw: (d, _item, box) => drawTickBox(d, box) },
    { header: "Qty", width: 40, align: "right", font: pdfFonts.sansBold, text: (item) => String(item.quantity) },
    { header: "Item", width: contentWidth - 48 - 40 - 80, text: (item) => item.name },
    { header: "Product no.", width: 80, align: "right", font: pdfFonts.mono, text: (item) => String(item.productId) },
  ], order.items);

  const pieces = order.items.reduce((sum, item) => sum + item.quantity, 0);
  ensureRoom(flow, 115);
  doc.font(pdfFonts.sansBold).fontSize(9.5).fillColor(ink.text).text(`${pieces} ${pieces === 1 ? "piece" : "pieces"} in all`, page.left + 48 + 5, flow.y + 8, { lineBreak: false });
  const signY = flow.y + 44;
  for (const [index, label] of ["Packed by", "Checked by"].entries()) {
    const x = page.left + index * (contentWidth / 2);
    doc.font(pdfFonts.sans).fontSize(8.5).fillColor(ink.muted).text(label, x, signY, { lineBreak: false });
    doc.save().lineWidth(0.6).strokeColor(ink.muted).moveTo(x + 58, signY + 9).lineTo(x + contentWidth / 2 - 24, signY + 9).stroke().restore();
  }

  doc.font(pdfFonts.serif).fontSize(10).fillColor(ink.text);
  doc.text("Thank you for buying from collectors.", page.left, signY + 34, { lineBreak: false });
  doc.font(pdfFonts.sans).fontSize(8.5).fillColor(ink.muted);
  doc.text(`Questions about this parcel? Write to ${seller.email} and quote order ${order.orderNumber}.`, page.left, signY + 50, { width: contentWidth });

  return sellerFooter(seller);
}
