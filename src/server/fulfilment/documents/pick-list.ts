import "server-only";
import { drawCode128, pdfFonts } from "@/server/documents/pdf";
import type { OrderView } from "@/server/orders/schemas";
import { contentWidth, drawLetterhead, drawTable, drawTickBox, flowFrom, formatDocumentDate, ink, renderDocument, type Seller } from "./layout";

/** One product to take from the shelves: how many in all, and how many go into which order. */
export type PickLine = { productId: number; name: string; quantity: number; orders: { orderNumber: string; quantity: number }[] };

/**
 * Everything the orders hold, summed per product and sorted by name (then product number), so that one walk along
 * the shelves picks the whole batch.
 */
export function pickLines(orders: readonly OrderView[]): PickLine[] {
  const byProduct = new Map<number, PickLine>();
  for (const order of orders) {
    for (const item of order.items) {
      const line = byProduct.get(item.productId) ?? { productId: item.productId, name: item.name, quantity: 0, orders: [] };
      line.quantity += item.quantity;
      const inOrder = line.orders.find((entry) => entry.orderNumber === order.orderNumber);
      if (inOrder) inOrder.quantity += item.quantity;
      else line.orders.push({ orderNumber: order.orderNumber, quantity: item.quantity });
      byProduct.set(item.productId, line);
    }
  }
  return [...byProduct.values()].sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.productId - b.productId);
}

/**
 * The pick list of a batch of orders: per product a tick box, a Code 128 barcode of its product number (what the
 * shelf label and the product page show), the quantity, and the orders it goes into.
 */
export async function renderPickList(seller: Seller, orders: readonly OrderView[], printedAt: Date): Promise<Buffer> {
  const lines = pickLines(orders);
  const pieces = lines.reduce((sum, line) => sum + line.quantity, 0);
  const title = `Pick list, ${formatDocumentDate(printedAt)}`;
  // The whole batch is one section: its pages are counted together.
  return renderDocument(title, [lines], (doc, batch) => {
    const y = drawLetterhead(doc, seller, "Pick list", [
      ["Printed", formatDocumentDate(printedAt)],
      ["Orders", String(orders.length)],
      ["Pieces", String(pieces)],
    ]);
    const barcodeWidth = 104;
    drawTable(
      flowFrom(doc, y, title),
      [
        { header: "Picked", width: 46, align: "center", draw: (d, _line, box) => drawTickBox(d, box) },
        {
          header: "Product no.",
          width: barcodeWidth,
          draw: (d, line, box) => {
            drawCode128(d, String(line.productId), { x: box.x, y: box.y, width: box.width, height: 22 });
            d.font(pdfFonts.mono).fontSize(8).fillColor(ink.text).text(String(line.productId), box.x, box.y + 25, { width: box.width, align: "center", lineBreak: false });
          },
        },
        { header: "Qty", width: 40, align: "right", font: pdfFonts.sansBold, text: (line) => String(line.quantity) },
        { header: "Product", width: contentWidth - 46 - barcodeWidth - 40 - 136, text: (line) => line.name },
        { header: "Goes into", width: 136, font: pdfFonts.condensed, text: (line) => line.orders.map((entry) => (entry.quantity > 1 ? `${entry.orderNumber} ×${entry.quantity}` : entry.orderNumber)).join("\n") },
      ],
      batch,
      { minRowHeight: 46 },
    );
    return [`${seller.name} · pick list of ${orders.length} ${orders.length === 1 ? "order" : "orders"}, ${pieces} ${pieces === 1 ? "piece" : "pieces"}`];
  });
}
