/**
 * Reads the PDFs the shop makes the way a person would: the text line by line, and a page as a picture. Both go
 * through npm packages (PDF.js, and @napi-rs/canvas's prebuilt Skia for pictures), so the tests need no poppler on
 * the machine (issue 25).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getDocument, type PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextItem } from "pdfjs-dist/types/src/display/api";

/** Opens a PDF for `read`, and closes it (its worker included) however `read` ends. */
async function withPdf<T>(pdf: Uint8Array, read: (document: PDFDocumentProxy) => Promise<T>): Promise<T> {
  // PDF.js takes ownership of the bytes it is given, so it gets a copy and the caller's buffer stays usable.
  const loading = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, verbosity: 0 });
  try {
    return await read(await loading.promise);
  } finally {
    await loading.destroy();
  }
}

/** Text pieces whose baselines are this close (in points) are on the same printed line. */
const SAME_LINE = 2;

/**
 * The text of every page, one printed line per line, the pieces of a line in reading order with a space where the
 * page leaves a gap between them; pages are separated by a form feed, as pdftotext separates them.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  return withPdf(pdf, async (document) => {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const pieces = content.items
        .filter((item): item is TextItem => "str" in item && item.str.length > 0)
        .map((item) => ({ text: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width, height: item.height }));
      pieces.sort((a, b) => b.y - a.y || a.x - b.x);

      const lines: (typeof pieces)[] = [];
      for (const piece of pieces) {
        const line = lines.at(-1);
        if (line && Math.abs(line[0]!.y - piece.y) <= SAME_LINE) line.push(piece);
        else lines.push([piece]);
      }
      pages.push(
        lines
          .map((line) => {
            line.sort((a, b) => a.x - b.x);
            let text = "";
            let end: number | null = null;
            for (const piece of line) {
              // A gap wider than a quarter of the text's height is a space between words or columns.
              if (end !== null && piece.x - end > Math.max(piece.height, 1) / 4 && !text.endsWith(" ")) text += " ";
              text += piece.text;
              end = piece.x + piece.width;
            }
            return text;
          })
          .join("\n"),
      );
      page.cleanup();
    }
    return pages.join("\n\f");
  });
}

/** The number of pages. */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  return withPdf(pdf, async (document) => document.numPages);
}

/** One page (the first unless told) as a PNG at `dpi` dots per inch; its size follows the page's, as pdftoppm's. */
export async function pdfPagePng(pdf: Uint8Array, { dpi = 72, page: number = 1 }: { dpi?: number; page?: number } = {}): Promise<Buffer> {
  const { createCanvas } = await import("@napi-rs/canvas");
  return withPdf(pdf, async (document) => {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
    const context = canvas.getContext("2d");
    // A page is white paper; the canvas starts transparent.
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
    return canvas.toBuffer("image/png");
  });
}

/** Where the pictures of PDFs go, beside the journeys' screenshots, for a person to look at after a run. */
export const pdfPictureDir = path.join(process.cwd(), "test-results", "pdf-pages");

/** Keeps a picture of a PDF page under test-results/pdf-pages/ and returns its path. */
export function keepPdfPicture(name: string, png: Buffer): string {
  mkdirSync(pdfPictureDir, { recursive: true });
  const file = path.join(pdfPictureDir, `${name}.png`);
  writeFileSync(file, png);
  return file;
}
