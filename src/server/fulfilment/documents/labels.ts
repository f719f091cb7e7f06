import "server-only";
import { PDFDocument } from "@cantoo/pdf-lib";
import { errorMessage } from "@/lib/error-message";

/**
 * The carriers' label PDFs one after another in one PDF, every page as the carrier made it (A6, 4x6 inch), so that
 * staff print the day's labels in one go. `labels` are in print order; each names its order for the error when a PDF
 * cannot be read.
 */
export async function mergeLabelPdfs(labels: readonly { orderNumber: string; pdf: Uint8Array }[], info: { title: string; producer: string }): Promise<Buffer> {
  const merged = await PDFDocument.create();
  merged.setTitle(info.title);
  merged.setProducer(info.producer);
  for (const label of labels) {
    let source: PDFDocument;
    try {
      source = await PDFDocument.load(label.pdf);
    } catch (error) {
      throw new Error(`The label PDF of order ${label.orderNumber} cannot be read: ${errorMessage(error)}`, { cause: error });
    }
    for (const copied of await merged.copyPages(source, source.getPageIndices())) merged.addPage(copied);
  }
  return Buffer.from(await merged.save());
}
