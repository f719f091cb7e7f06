import "server-only";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import { oneLine } from "@/lib/text";
import { createPdf, mm, pageSizes, pdfBuffer, pdfFonts, type PdfFont } from "@/server/documents/pdf";

/**
 * The paper the shop prints on: an A4 letterhead (the balance-wheel mark, the shop's name and strap line, the
 * document's title and its facts), address blocks, tables that run over pages with their header repeated, and a
 * footer with "page n of m" per order, so that one PDF of many orders still reads as one document per order.
 */

/** The brand's colours on white paper (BRAND.md); the darker brass carries text, the lighter one rules and marks. */
export const ink = { text: "#14202e", muted: "#55606d", brass: "#a8824a", brassText: "#8a6a37", rule: "#e3ddd2", band: "#f6f2eb" } as const;

export const page = { width: pageSizes.a4[0], height: pageSizes.a4[1], left: mm(18), right: pageSizes.a4[0] - mm(18), top: mm(15), bottom: pageSizes.a4[1] - mm(24) };
export const contentWidth = page.right - page.left;

/** The shop as seller and sender, from its configuration. */
export type Seller = {
  name: string;
  strapLine: string;
  street: string;
  houseNumber: string;
  postCode: string;
  city: string;
  countryCode: string;
  email: string;
  phone: string;
  chamberOfCommerce: string | null;
  vatNumber: string | null;
};

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

export function sellerAddressLines(seller: Seller): string[] {
  return [`${seller.street} ${seller.houseNumber}`, `${seller.postCode} ${seller.city}`, countryNames.of(seller.countryCode.toUpperCase()) ?? seller.countryCode];
}

const documentDate = new Intl.DateTimeFormat("en-GB", { timeZone: SHOP_TIME_ZONE, day: "numeric", month: "long", year: "numeric" });

/** A day as documents print it, in shop time: "4 March 2026". */
export const formatDocumentDate = (date: Date): string => documentDate.format(date);

/**
 * One A4 document of `entries`, each drawn by `draw` from a new page as its own section, whose footer lines `draw`
 * returns and whose pages are counted apart ("Page n of m" per order), so that one PDF of many orders still reads as
 * one document per order. Pages are kept until the end so that the footers can count them.
 */
export async function renderDocument<Entry>(title: string, entries: readonly Entry[], draw: (doc: PDFKit.PDFDocument, entry: Entry) => string[]): Promise<Buffer> {
  const doc = createPdf({ size: "A4", margin: 0, bufferPages: true, autoFirstPage: false, info: { Title: title } });
  const sections = entries.map((entry) => {
    doc.addPage();
    const firstPage = lastPage(doc);
    const footer = draw(doc, entry);
    return { firstPage, lastPage: lastPage(doc), footer };
  });
  drawFooters(doc, sections);
  return pdfBuffer(doc);
}

function lastPage(doc: PDFKit.PDFDocument): number {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
}

/** The balance wheel of the shop's mark: a rim, three arms and the staff in the middle. */
function drawBalanceMark(doc: PDFKit.PDFDocument, cx: number, cy: number, radius: number): void {
  doc.save().lineWidth(1.3).strokeColor(ink.brass).fillColor(ink.brass);
  doc.circle(cx, cy, radius).stroke();
  doc.circle(cx, cy, radius * 0.78).lineWidth(0.5).stroke();
  for (const angle of [90, 210, 330]) {
    const radians = (angle * Math.PI) / 180;
    doc.moveTo(cx, cy).lineTo(cx + Math.cos(radians) * radius * 0.78, cy - Math.sin(radians) * radius * 0.78).lineWidth(1).stroke();
  }
  doc.circle(cx, cy, radius * 0.2).fill();
  doc.restore();
}

/** A small caption over a block: spaced capitals in brass. */
export function caption(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width?: number, align: "left" | "right" = "left"): number {
  doc.font(pdfFonts.sansBold).fontSize(7).fillColor(ink.brassText);
  doc.text(text.toUpperCase(), x, y, { characterSpacing: 0.9, lineBreak: false, ...(width ? { width, align } : {}) });
  return y + 11;
}

/**
 * The top of a document's first page: the mark, the shop's name and strap line on the left; the title and its facts
 * (label and value per line) on the right; a brass rule under both. Returns where the page continues.
 */
export function drawLetterhead(doc: PDFKit.PDFDocument, seller: Seller, title: string, facts: [string, string][]): number {
  const top = page.top;
  drawBalanceMark(doc, page.left + 12, top + 13, 12);
  doc.font(pdfFonts.serifBold).fontSize(19).fillColor(ink.text).text(seller.name, page.left + 32, top + 1, { lineBreak: false });
  doc.font(pdfFonts.sans).fontSize(8).fillColor(ink.muted).text(seller.strapLine, page.left + 32, top + 25, { lineBreak: false });

  const factsWidth = 200;
  const factsLeft = page.right - factsWidth;
  doc.font(pdfFonts.serif).fontSize(20).fillColor(ink.text).text(title, factsLeft, top, { width: factsWidth, align: "right", lineBreak: false });
  let y = top + 32;
  for (const [label, value] of facts) {
    doc.font(pdfFonts.sans).fontSize(8.5).fillColor(ink.muted).text(label, factsLeft, y + 0.5, { lineBreak: false });
    doc.font(pdfFonts.sansBold).fontSize(9).fillColor(ink.text).text(value, factsLeft + 70, y, { width: factsWidth - 70, align: "right", lineBreak: false });
    y += 13;
  }
  y = Math.max(y, top + 44) + 8;
  hairline(doc, y, ink.brass, 1.2);
  return y + 16;
}

/** A line across the content width. */
export function hairline(doc: PDFKit.PDFDocument, y: number, colour: string = ink.rule, width = 0.6, from = page.left, to = page.right): void {
  doc.save().lineWidth(width).strokeColor(colour).moveTo(from, y).lineTo(to, y).stroke().restore();
}

/**
 * A captioned block of lines (an address); the first line bold. Returns the y under it. Each line is printed as one
 * (wrapped only where it is wider than the block): a line break within it would start a line that reads as the
 * document's own (SECURITY-REVIEW N-M5).
 */
export function drawBlock(doc: PDFKit.PDFDocument, title: string, lines: string[], x: number, y: number, width: number): number {
  let next = caption(doc, title, x, y);
  lines.forEach((line, index) => {
    doc.font(index === 0 ? pdfFonts.sansBold : pdfFonts.sans).fontSize(9.5).fillColor(ink.text);
    doc.text(oneLine(line), x, next, { width });
    next = doc.y + 1.5;
  });
  return next;
}

/** Facts in a row of boxes (caption over value), across the content width. Returns the y under them. */
export function drawFactRow(doc: PDFKit.PDFDocument, facts: [string, string][], y: number): number {
  const height = 34;
  doc.save().roundedRect(page.left, y, contentWidth, height, 3).fillColor(ink.band).fill().restore();
  const cellWidth = contentWidth / facts.length;
  facts.forEach(([label, value], index) => {
    const x = page.left + index * cellWidth + 10;
    caption(doc, label, x, y + 7);
    doc.font(pdfFonts.sansBold).fontSize(9.5).fillColor(ink.text).text(value, x, y + 18, { width: cellWidth - 14, lineBreak: false, ellipsis: true });
  });
  return y + height + 16;
}

export type Column<Row> = {
  header: string;
  width: number;
  align?: "left" | "right" | "center";
  font?: PdfFont;
  /** The cell's text, wrapped within the column. */
  text?: (row: Row) => string;
  /** Draws the cell itself (a tick box, a barcode) in the box it is given. */
  draw?: (doc: PDFKit.PDFDocument, row: Row, box: { x: number; y: number; width: number; height: number }) => void;
};

/** Where drawing goes on: the current y, and what to draw at the top of a new page before the table goes on. */
export type Flow = { doc: PDFKit.PDFDocument; y: number; continuation: (doc: PDFKit.PDFDocument) => number };

/** Drawing from `y` on, each next page headed by whose it is: "Packing slip BC-2026-000123 (continued)". */
export function flowFrom(doc: PDFKit.PDFDocument, y: number, heading: string): Flow {
  return { doc, y, continuation: () => continuedHeading(doc, heading) };
}

function continuedHeading(doc: PDFKit.PDFDocument, text: string): number {
  doc.font(pdfFonts.serif).fontSize(12).fillColor(ink.text).text(`${text} (continued)`, page.left, page.top, { lineBreak: false });
  return page.top + 28;
}

/** Makes room for `height` points: on a new page (headed by the flow's continuation) when the page is full. */
export function ensureRoom(flow: Flow, height: number): boolean {
  if (flow.y + height <= page.bottom) return false;
  flow.doc.addPage();
  flow.y = flow.continuation(flow.doc);
  return true;
}

const cellPadding = { x: 5, y: 6 };
const bodySize = 9.5;

/**
 * A table across the content width: a banded header, then one row per entry with a rule under it, each as tall as
 * its tallest cell (at least `minRowHeight`). A row never splits; the header repeats on every page.
 */
export function drawTable<Row>(flow: Flow, columns: Column<Row>[], rows: Row[], options: { minRowHeight?: number } = {}): void {
  const { doc } = flow;
  const header = () => {
    doc.save().rect(page.left, flow.y, contentWidth, 18).fillColor(ink.band).fill().restore();
    let x = page.left;
    for (const column of columns) {
      doc.font(pdfFonts.sansBold).fontSize(7).fillColor(ink.muted);
      doc.text(column.header.toUpperCase(), x + cellPadding.x, flow.y + 6, { width: column.width - 2 * cellPadding.x, align: column.align ?? "left", characterSpacing: 0.6, lineBreak: false });
      x += column.width;
    }
    flow.y += 18;
  };
  ensureRoom(flow, 18 + 24);
  header();
  for (const row of rows) {
    const textHeights = columns.map((column) => {
      if (!column.text) return 0;
      doc.font(column.font ?? pdfFonts.sans).fontSize(bodySize);
      return doc.heightOfString(column.text(row), { width: column.width - 2 * cellPadding.x });
    });
    const height = Math.max(options.minRowHeight ?? 0, Math.max(...textHeights) + 2 * cellPadding.y);
    if (ensureRoom(flow, height)) header();
    let x = page.left;
    for (const column of columns) {
      const box = { x: x + cellPadding.x, y: flow.y + cellPadding.y, width: column.width - 2 * cellPadding.x, height: height - 2 * cellPadding.y };
      if (column.draw) column.draw(doc, row, box);
      if (column.text) {
        doc.font(column.font ?? pdfFonts.sans).fontSize(bodySize).fillColor(ink.text);
        doc.text(column.text(row), box.x, box.y + 0.5, { width: box.width, align: column.align ?? "left" });
      }
      x += column.width;
    }
    flow.y += height;
    hairline(doc, flow.y);
  }
}

/** An empty square to tick by hand, centred in the box's first line. */
export function drawTickBox(doc: PDFKit.PDFDocument, box: { x: number; y: number; width: number }): void {
  const size = 10;
  doc.save().lineWidth(0.9).strokeColor(ink.text).rect(box.x + (box.width - size) / 2, box.y, size, size).stroke().restore();
}

/** The pages one order's document took, and what its footer says. */
type Section = { firstPage: number; lastPage: number; footer: string[] };

/** Writes each section's footer lines and "Page n of m" (counted within the section) at the foot of its pages. */
function drawFooters(doc: PDFKit.PDFDocument, sections: Section[]): void {
  for (const section of sections) {
    const pages = section.lastPage - section.firstPage + 1;
    for (let index = 0; index < pages; index++) {
      doc.switchToPage(section.firstPage + index);
      const lineY = page.bottom + mm(8);
      hairline(doc, lineY - 6);
      let y = lineY;
      for (const line of section.footer) {
        // Shrunk rather than wrapped: a footer line that wrapped would run into the next.
        let size = 7.5;
        doc.font(pdfFonts.sans);
        while (size > 5.5 && doc.fontSize(size).widthOfString(line) > contentWidth - 70) size -= 0.25;
        doc.fontSize(size).fillColor(ink.muted).text(line, page.left, y, { lineBreak: false });
        y += 10;
      }
      doc.font(pdfFonts.sans).fontSize(7.5).fillColor(ink.muted).text(`Page ${index + 1} of ${pages}`, page.right - 70, lineY, { width: 70, align: "right", lineBreak: false });
    }
  }
}

/** The seller's footer: name and address, then how to reach it and, when configured, its registrations. */
export function sellerFooter(seller: Seller): string[] {
  return [
    [seller.name, sellerAddressLines(seller).join(", ")].join(" · "),
    [
      seller.email,
      seller.phone,
      ...(seller.chamberOfCommerce ? [`Chamber of Commerce ${seller.chamberOfCommerce}`] : []),
      ...(seller.vatNumber ? [`VAT ${seller.vatNumber}`] : []),
    ].join(" · "),
  ];
}
