import type { Carrier } from "@/lib/enums";
import { createPdf, drawCode128, mm, pageSizes, pdfBuffer, pdfFonts, type PdfFont } from "@/server/documents/pdf";
import { carrierNames, type CarrierAddress, type LabelRequest } from "./port";

/**
 * The sandbox carrier's label: laid out like a carrier's own (sender small, receiver large, the service, weight and
 * reference, and a Code 128 barcode of the tracking number), on PostNL's A6 or UPS's 4x6 inch stock, and marked
 * across the foot as a sandbox label that no carrier will take.
 */

const brand: Record<Carrier, { page: readonly [number, number]; band: string; ink: string }> = {
  POSTNL: { page: pageSizes.a6, band: "#ed7000", ink: "#ffffff" },
  UPS: { page: pageSizes.label4x6, band: "#351c15", ink: "#ffb500" },
};

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
const countryName = (code: string) => countryNames.of(code.toUpperCase()) ?? code.toUpperCase();

const labelDate = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Amsterdam", day: "2-digit", month: "short", year: "numeric" });

type Box = { x: number; width: number };

/** Writes one line at the largest size up to `size` that fits the width (down to 60% of it, then cut with an ellipsis). */
function fittedLine(doc: PDFKit.PDFDocument, text: string, font: PdfFont, size: number, box: Box, y: number): number {
  doc.font(font);
  let fontSize = size;
  while (fontSize > size * 0.6 && doc.fontSize(fontSize).widthOfString(text) > box.width) fontSize -= 0.5;
  doc.fontSize(fontSize).text(text, box.x, y, { width: box.width, lineBreak: false, ellipsis: true });
  return y + fontSize * 1.2;
}

function addressLines(address: CarrierAddress): string[] {
  return [
    address.companyName && address.companyName !== address.name ? address.companyName : null,
    `${address.street} ${address.houseNumber}`.trim(),
    address.addressLine2 ?? null,
  ].filter((line): line is string => Boolean(line));
}

function rule(doc: PDFKit.PDFDocument, y: number, box: Box, weight = 1): void {
  doc.save().lineWidth(weight).moveTo(box.x, y).lineTo(box.x + box.width, y).stroke().restore();
}

export async function renderSandboxLabel(input: {
  carrier: Carrier;
  product: { code: string; name: string };
  trackingNumber: string;
  request: LabelRequest;
  createdAt: Date;
}): Promise<Buffer> {
  const { carrier, product, trackingNumber, request, createdAt } = input;
  const style = brand[carrier];
  const [width, height] = style.page;
  const margin = mm(4);
  const box: Box = { x: margin, width: width - 2 * margin };
  const doc = createPdf({ size: [width, height], margin: 0, info: { Title: `${carrierNames[carrier]} label ${trackingNumber} (sandbox)`, Subject: request.reference } });

  // Carrier band: the carrier, and the product as its sorting staff read it.
  const bandHeight = 40;
  doc.rect(0, 0, width, bandHeight).fill(style.band);
  doc.fillColor(style.ink).font(pdfFonts.sansBold).fontSize(22).text(carrierNames[carrier], box.x, 9, { lineBreak: false });
  doc.font(pdfFonts.condensedBold).fontSize(10).text(product.name, box.x, 8, { width: box.width, align: "right", lineBreak: false });
  doc.font(pdfFonts.condensed).fontSize(9).text(`Product ${product.code}`, box.x, 22, { width: box.width, align: "right", lineBreak: false });
  doc.fillColor("black");

  // Sender, small.
  let y = bandHeight + 6;
  const { sender, receiver } = request;
  doc.font(pdfFonts.sansBold).fontSize(6.5).text("FROM", box.x, y, { lineBreak: false });
  const senderLine = [sender.companyName ?? sender.name, `${sender.street} ${sender.houseNumber}`, `${sender.postCode} ${sender.city}`, countryName(sender.countryCode)].join(", ");
  y = fittedLine(doc, senderLine, pdfFonts.condensed, 8, { x: box.x + 26, width: box.width - 26 }, y - 1) + 3;
  rule(doc, y, box);

  // Receiver, large: what the sorting centre and the driver read.
  y += 6;
  doc.font(pdfFonts.sansBold).fontSize(6.5).text("TO", box.x, y, { lineBreak: false });
  y += 10;
  y = fittedLine(doc, receiver.name, pdfFonts.sansBold, 16, box, y);
  for (const line of addressLines(receiver)) y = fittedLine(doc, line, pdfFonts.sans, 13, box, y);
  y = fittedLine(doc, `${receiver.postCode}  ${receiver.city.toUpperCase()}${receiver.stateCode ? ` ${receiver.stateCode}` : ""}`, pdfFonts.sansBold, 16, box, y);
  y = fittedLine(doc, countryName(receiver.countryCode).toUpperCase(), pdfFonts.sansBold, 13, box, y);
  if (receiver.phoneNumber) y = fittedLine(doc, `Tel. ${receiver.phoneNumber}`, pdfFonts.condensed, 8, box, y + 2);
  y += 4;
  rule(doc, y, box, 1.5);

  // Facts in three cells.
  const cells: [string, string][] = [
    ["WEIGHT", `${(request.weightGrams / 1000).toFixed(2)} kg`],
    ["REFERENCE", request.reference],
    ["DATE", labelDate.format(createdAt)],
  ];
  const cellWidth = box.width / cells.length;
  cells.forEach(([caption, value], index) => {
    const x = box.x + index * cellWidth;
    if (index > 0) doc.save().moveTo(x - 3, y).lineTo(x - 3, y + 30).stroke().restore();
    doc.font(pdfFonts.sansBold).fontSize(6.5).text(caption, x, y + 5, { lineBreak: false });
    fittedLine(doc, value, pdfFonts.condensedBold, 11, { x, width: cellWidth - 8 }, y + 14);
  });
  y += 30;
  rule(doc, y, box, 1.5);

  // The barcode and the number under it, just above the foot, where a hand scanner finds it.
  const footHeight = 26;
  const numberY = height - footHeight - 20;
  const barcodeHeight = 76;
  const barcodeTop = numberY - 6 - barcodeHeight;
  drawCode128(doc, trackingNumber, { x: box.x, y: barcodeTop, width: box.width, height: barcodeHeight });
  doc.font(pdfFonts.mono).fontSize(12).text(trackingNumber, box.x, numberY, { width: box.width, align: "center", characterSpacing: 1, lineBreak: false });

  // The routing code between, large, as sorting staff read it at arm's length: country and postal district.
  const routeTop = y + 8;
  const routeHeight = barcodeTop - 10 - routeTop;
  if (routeHeight >= 36) {
    doc.save().lineWidth(2).roundedRect(box.x, routeTop, box.width, routeHeight, 4).stroke().restore();
    doc.font(pdfFonts.sansBold).fontSize(6.5).text("ROUTE", box.x + 6, routeTop + 5, { lineBreak: false });
    const route = `${receiver.countryCode.toUpperCase()} ${receiver.postCode.split(/[\s-]/)[0] ?? ""}`.trim();
    const routeSize = Math.min(40, routeHeight - 14);
    doc.font(pdfFonts.sansBold).fontSize(routeSize).text(route, box.x, routeTop + (routeHeight - routeSize) / 2 + 3, { width: box.width, align: "center", lineBreak: false });
  }

  // The sandbox notice, so that nobody hands a parcel over with it.
  doc.rect(0, height - footHeight, width, footHeight).fill("#000000");
  doc.fillColor("#ffffff").font(pdfFonts.sansBold).fontSize(9).text("SANDBOX LABEL · NOT VALID FOR SHIPPING", 0, height - footHeight + 9, { width, align: "center", lineBreak: false });

  return pdfBuffer(doc);
}
