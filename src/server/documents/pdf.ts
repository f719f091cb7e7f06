import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import bwipjs from "bwip-js/node";
import PDFDocument from "pdfkit";
import { env } from "@/env";

/**
 * What every PDF the shop makes shares: labels, packing slips, invoices and pick lists. pdfkit's built-in fonts are
 * the 14 standard PDF fonts in WinAnsi encoding, which has the euro sign and western accents but not "Č", "ő" or
 * "ł", so an address in Prague or Kraków would print wrong. The shop embeds DejaVu (TrueType, all of Latin Extended,
 * €, and more), subset to the glyphs a document uses.
 */

/** Millimetres in PDF points (1/72 inch), for page sizes and margins given in mm. */
export const mm = (millimetres: number) => (millimetres * 72) / 25.4;

/** Page sizes in points: A6 (PostNL's label), 4x6 inch (thermal label stock, UPS's), A4 (slips and invoices). */
export const pageSizes = {
  a6: [mm(105), mm(148)],
  label4x6: [288, 432],
  a4: [mm(210), mm(297)],
} as const satisfies Record<string, readonly [number, number]>;

/** The fonts registered on every document from `createPdf`, by the name to pass to `doc.font()`. */
export const pdfFonts = {
  sans: "Sans",
  sansBold: "Sans-Bold",
  /** Narrower, for long names and addresses on a label. */
  condensed: "Sans-Condensed",
  condensedBold: "Sans-Condensed-Bold",
  serif: "Serif",
  serifBold: "Serif-Bold",
  /** Fixed width, for tracking numbers and codes a person reads out or types. */
  mono: "Mono",
} as const;

export type PdfFont = (typeof pdfFonts)[keyof typeof pdfFonts];

const fontFiles: Record<PdfFont, string> = {
  Sans: "DejaVuSans.ttf",
  "Sans-Bold": "DejaVuSans-Bold.ttf",
  "Sans-Condensed": "DejaVuSansCondensed.ttf",
  "Sans-Condensed-Bold": "DejaVuSansCondensed-Bold.ttf",
  Serif: "DejaVuSerif.ttf",
  "Serif-Bold": "DejaVuSerif-Bold.ttf",
  Mono: "DejaVuSansMono.ttf",
};

/**
 * Where the DejaVu TrueType files are: the `dejavu-fonts-ttf` npm package. Resolved from the working directory, not
 * through `require.resolve`, so that Next's bundler leaves the path alone: the server always runs from the project
 * folder.
 */
const fontDirectory = path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf");

// Read once per process: a bulk print makes hundreds of documents.
let fontData: Map<PdfFont, Buffer> | null = null;

function loadFonts(): Map<PdfFont, Buffer> {
  if (fontData) return fontData;
  if (!existsSync(path.join(fontDirectory, fontFiles.Sans))) {
    throw new Error(`The DejaVu fonts for PDFs are missing from ${fontDirectory}: install the npm package dejavu-fonts-ttf`);
  }
  fontData = new Map(Object.entries(fontFiles).map(([name, file]) => [name as PdfFont, readFileSync(path.join(fontDirectory, file))]));
  return fontData;
}

/**
 * A new PDF with the shop's fonts registered and `pdfFonts.sans` selected. Pass pdfkit's options (`size`, `margin`,
 * `info`, `autoFirstPage`...); the document's producer is the shop.
 */
export function createPdf(options: PDFKit.PDFDocumentOptions = {}): PDFKit.PDFDocument {
  const fonts = loadFonts();
  const doc = new PDFDocument({ ...options, info: { Producer: env.SHOP_NAME, Creator: env.SHOP_NAME, ...options.info } });
  for (const [name, data] of fonts) doc.registerFont(name, data);
  doc.font(pdfFonts.sans);
  return doc;
}

/** Ends the document and returns its bytes. Call it once, after the last page is drawn. */
export function pdfBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    doc.end();
  });
}

/**
 * Draws `text` as a Code 128 barcode filling the box, with the quiet zone (ten modules each side) inside it. The
 * bars are vector rectangles, sharp at any printer resolution; scanners need a module of at least 0.25 mm, so give
 * a 16-character code about 60 mm. Throws for text Code 128 cannot encode.
 */
export function drawCode128(doc: PDFKit.PDFDocument, text: string, box: { x: number; y: number; width: number; height: number }): void {
  const [symbol] = bwipjs.raw({ bcid: "code128", text });
  if (!symbol || !("sbs" in symbol)) throw new Error(`Code 128 cannot encode "${text}"`);
  const widths: number[] = symbol.sbs;
  const quietModules = 10;
  const modules = widths.reduce((sum, width) => sum + width, 0) + 2 * quietModules;
  const moduleWidth = box.width / modules;
  let x = box.x + quietModules * moduleWidth;
  doc.save().fillColor("black");
  // Bars and spaces alternate, starting with a bar.
  widths.forEach((width, index) => {
    if (index % 2 === 0) doc.rect(x, box.y, width * moduleWidth, box.height).fill();
    x += width * moduleWidth;
  });
  doc.restore();
}
