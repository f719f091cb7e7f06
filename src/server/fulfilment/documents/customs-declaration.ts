import "server-only";
import { Decimal } from "decimal.js";
import { formatEuro } from "@/lib/money";
import { oneLine } from "@/lib/text";
import { createPdf, mm, pageSizes, pdfBuffer, pdfFonts, type PdfFont } from "@/server/documents/pdf";
import type { CarrierAddress, CustomsDeclaration, CustomsLine } from "@/server/integrations/carriers/port";
import { CUSTOMS_CATEGORY, customsFormOf } from "../customs";
import { formatDocumentDate, type Seller } from "./layout";

/**
 * A parcel's customs declaration as the Universal Postal Union's forms lay it out: a CN22 (A6, the label's size,
 * stuck on the parcel beside it) for goods worth up to €1,000 that fit its five lines, a CN23 (A4, in the pouch on
 * the parcel) otherwise. Both carry per line the description, quantity, net weight, value, HS tariff code and
 * country of origin; the sender and the receiver; "Sale of goods" ticked; the totals; and the certification with the
 * date and a line for the sender's signature. The label's PDF carries these pages after the label itself.
 */

export type CustomsDeclarationInput = {
  declaration: CustomsDeclaration;
  sender: Seller;
  receiver: CarrierAddress;
  /** Our order number and the carrier's tracking number, which customs match the form to the parcel by. */
  orderNumber: string;
  trackingNumber: string;
  carrierName: string;
  /** The parcel with its packaging, grams. */
  grossWeightGrams: number;
  /** The day the label was made: the form's date. */
  date: Date;
};

/** The CN22 has room for this many lines; a parcel with more goes with a CN23 whatever its value. */
export const CN22_MAX_LINES = 5;

/** The form a declaration is printed on. */
export function declarationFormOf(declaration: CustomsDeclaration): "CN22" | "CN23" {
  return declaration.lines.length > CN22_MAX_LINES ? "CN23" : customsFormOf(totalValue(declaration));
}

const totalValue = (declaration: CustomsDeclaration) => declaration.lines.reduce((sum, line) => sum.plus(line.value), new Decimal(0));
const totalNetGrams = (declaration: CustomsDeclaration) => declaration.lines.reduce((sum, line) => sum + line.netWeightGrams, 0);
const kilograms = (grams: number) => `${(grams / 1000).toFixed(3)} kg`;
const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
const countryName = (code: string) => countryNames.of(code.toUpperCase()) ?? code;

const categories = ["Gift", "Commercial sample", "Documents", "Returned goods", CUSTOMS_CATEGORY, "Other"] as const;

const certification =
  "I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.";

function addressLines(address: CarrierAddress): string[] {
  return [
    address.companyName && address.companyName !== address.name ? address.companyName : null,
    `${address.street} ${address.houseNumber}`.trim(),
    address.addressLine2,
    [address.postCode, address.city, address.stateCode].filter(Boolean).join(" "),
    countryName(address.countryCode).toUpperCase(),
  ].filter((line): line is string => Boolean(line));
}

const sellerAsAddress = (seller: Seller): CarrierAddress => ({ ...seller, companyName: seller.name });

/** The declaration's page or pages, as a PDF of their own. */
export async function renderCustomsDeclaration(input: CustomsDeclarationInput): Promise<Buffer> {
  const form = declarationFormOf(input.declaration);
  const size = form === "CN22" ? pageSizes.a6 : pageSizes.a4;
  const doc = createPdf({ size: [size[0], size[1]], margin: 0, info: { Title: `${form} customs declaration, order ${input.orderNumber}`, Subject: input.trackingNumber } });
  drawForm(doc, form, input);
  return pdfBuffer(doc);
}

/** The form's measures: a CN22 is the CN23 drawn smaller on a smaller page. */
type Scale = { width: number; height: number; margin: number; text: number; small: number; title: number };

function drawForm(doc: PDFKit.PDFDocument, form: "CN22" | "CN23", input: CustomsDeclarationInput): void {
  const cn22 = form === "CN22";
  const [width, height] = cn22 ? pageSizes.a6 : pageSizes.a4;
  const s: Scale = cn22 ? { width, height, margin: mm(5), text: 7, small: 5.5, title: 12 } : { width, height, margin: mm(15), text: 9.5, small: 7.5, title: 18 };
  const left = s.margin;
  const right = width - s.margin;
  const inner = right - left;
  const put = (text: string, x: number, y: number, font: PdfFont, size: number, options: PDFKit.Mixins.TextOptions = {}) => {
    doc.font(font).fontSize(size).fillColor("#000000").text(oneLine(text), x, y, { lineBreak: false, ...options });
  };
  const rule = (y: number, weight = 0.6) => doc.save().lineWidth(weight).moveTo(left, y).lineTo(right, y).stroke().restore();

  // Title: the form, what it is, and that customs may open the parcel.
  let y = s.margin;
  put(`CUSTOMS DECLARATION  ${form}`, left, y, pdfFonts.sansBold, s.title);
  y += s.title + 4;
  put("May be opened officially", left, y, pdfFonts.sansBold, s.small);
  put(`Designated operator: ${input.carrierName}`, left, y, pdfFonts.condensed, s.small, { width: inner, align: "right" });
  y += s.small + 3;
  const invoiced = input.declaration.invoiceNumber !== input.orderNumber;
  const references = [`Tracking ${input.trackingNumber}`, `Order ${input.orderNumber}`, ...(invoiced ? [`Invoice ${input.declaration.invoiceNumber}`] : [])];
  put(references.join(" · "), left, y, pdfFonts.condensed, s.small, { width: inner });
  y += s.small + 6;
  rule(y, 1.2);

  // Sender and receiver side by side.
  y += 4;
  const half = inner / 2;
  const party = (caption: string, address: CarrierAddress, x: number) => {
    let lineY = y;
    put(caption, x, lineY, pdfFonts.sansBold, s.small);
    lineY += s.small + 3;
    put(address.companyName || address.name, x, lineY, pdfFonts.sansBold, s.text, { width: half - 8, ellipsis: true });
    lineY += s.text + 3;
    for (const line of addressLines(address).filter((line) => line !== (address.companyName || address.name))) {
      put(line, x, lineY, pdfFonts.sans, s.text, { width: half - 8, ellipsis: true });
      lineY += s.text + 2.5;
    }
    return lineY;
  };
  const receiverName = { ...input.receiver, companyName: input.receiver.companyName ? `${input.receiver.name}, ${input.receiver.companyName}` : null };
  y = Math.max(party("FROM (SENDER)", sellerAsAddress(input.sender), left), party("TO (ADDRESSEE)", receiverName, left + half)) + 4;
  rule(y, 1.2);

  // Category of item: sale of goods, ticked.
  y += 5;
  const tick = s.text;
  const categoryWidth = inner / 3;
  categories.forEach((category, index) => {
    const x = left + (index % 3) * categoryWidth;
    const rowY = y + Math.floor(index / 3) * (tick + 4);
    doc.save().lineWidth(0.7).rect(x, rowY, tick, tick).stroke().restore();
    if (category === CUSTOMS_CATEGORY) put("X", x + tick * 0.18, rowY + 0.5, pdfFonts.sansBold, tick * 0.9);
    put(category, x + tick + 3, rowY + 1, category === CUSTOMS_CATEGORY ? pdfFonts.sansBold : pdfFonts.sans, s.small + 0.5);
  });
  y += 2 * (tick + 4) + 3;
  rule(y, 1.2);

  // The goods, one line each.
  const columns: { header: string; share: number; align: "left" | "right"; cell: (line: CustomsLine) => string }[] = [
    { header: "Qty", share: cn22 ? 0.08 : 0.06, align: "right", cell: (line) => String(line.quantity) },
    { header: "Detailed description of contents", share: cn22 ? 0.36 : 0.44, align: "left", cell: (line) => line.description },
    { header: "Net weight", share: cn22 ? 0.15 : 0.12, align: "right", cell: (line) => kilograms(line.netWeightGrams) },
    { header: "Value (EUR)", share: cn22 ? 0.15 : 0.13, align: "right", cell: (line) => formatEuro(line.value) },
    { header: "HS tariff no.", share: cn22 ? 0.13 : 0.12, align: "left", cell: (line) => line.hsCode },
    { header: "Origin", share: cn22 ? 0.13 : 0.13, align: "left", cell: (line) => (cn22 ? line.originCountryCode : countryName(line.originCountryCode)) },
  ];
  const pad = 3;
  const drawRow = (cells: string[], font: PdfFont, size: number, rowY: number) => {
    let x = left;
    let rowHeight = size + 2 * pad;
    columns.forEach((column, index) => {
      const columnWidth = column.share * inner;
      doc.font(font).fontSize(size);
      rowHeight = Math.max(rowHeight, doc.heightOfString(oneLine(cells[index]!), { width: columnWidth - 2 * pad }) + 2 * pad);
      x += columnWidth;
    });
    x = left;
    columns.forEach((column, index) => {
      const columnWidth = column.share * inner;
      doc.font(font).fontSize(size).fillColor("#000000").text(oneLine(cells[index]!), x + pad, rowY + pad, { width: columnWidth - 2 * pad, align: column.align });
      x += columnWidth;
    });
    return rowY + rowHeight;
  };
  y = drawRow(columns.map((column) => column.header), pdfFonts.sansBold, s.small, y);
  rule(y);
  for (const line of input.declaration.lines) {
    if (y > height - s.margin - (cn22 ? 110 : 230)) {
      doc.addPage({ size: [width, height], margin: 0 });
      y = s.margin;
      put(`${form} customs declaration, order ${input.orderNumber} (continued)`, left, y, pdfFonts.sansBold, s.text);
      y += s.text + 8;
    }
    y = drawRow(columns.map((column) => column.cell(line)), pdfFonts.sans, s.text, y);
    rule(y, 0.3);
  }

  // Totals.
  y += 4;
  const totals: [string, string][] = [
    ["Total net weight", kilograms(totalNetGrams(input.declaration))],
    ["Total gross weight", kilograms(input.grossWeightGrams)],
    ["Total value", `${formatEuro(totalValue(input.declaration))} (${input.declaration.currency})`],
  ];
  const totalWidth = inner / totals.length;
  totals.forEach(([label, value], index) => {
    put(label.toUpperCase(), left + index * totalWidth, y, pdfFonts.sansBold, s.small);
    put(value, left + index * totalWidth, y + s.small + 3, pdfFonts.sansBold, s.text + 1);
  });
  y += s.small + s.text + 10;
  rule(y, 1.2);

  if (!cn22) {
    y += 6;
    const sale = invoiced
      ? `Invoice ${input.declaration.invoiceNumber} of ${formatDocumentDate(input.declaration.invoiceDate)} goes with the parcel.`
      : `Sold under order ${input.orderNumber} of ${formatDocumentDate(input.declaration.invoiceDate)}.`;
    doc.font(pdfFonts.sans).fontSize(s.text).fillColor("#000000").text(`${sale} Explanation: goods sold by the sender to the addressee, sent by the sender.`, left, y, { width: inner });
    y = doc.y + 4;
  }

  // Certification, date and the signature line.
  y += 5;
  doc.font(pdfFonts.sans).fontSize(s.small).fillColor("#000000").text(certification, left, y, { width: inner });
  y = doc.y + (cn22 ? 8 : 14);
  put(`Date: ${formatDocumentDate(input.date)}`, left, y + (cn22 ? 6 : 10), pdfFonts.sans, s.text);
  const signLeft = left + inner * 0.45;
  doc.save().lineWidth(0.7).moveTo(signLeft, y + (cn22 ? 16 : 24)).lineTo(right, y + (cn22 ? 16 : 24)).stroke().restore();
  put(`Sender's signature (${input.sender.name})`, signLeft, y + (cn22 ? 19 : 28), pdfFonts.sans, s.small);
}
