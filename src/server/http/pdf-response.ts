import "server-only";
import { isSameOriginRequest } from "./request-guards";

/**
 * A PDF made for staff (a print-out, a shipping label): never cached, as it carries customers' names and addresses;
 * `inline` opens it in the browser's viewer, `attachment` downloads it.
 */
export function pdfResponse(pdf: Uint8Array, filename: string, disposition: "inline" | "attachment"): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.length),
      "Content-Disposition": `${disposition}; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A plain-text answer (not found, or a reason staff can act on) beside a PDF route; never cached. */
export function textResponse(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
}

/**
 * The refusal of a request for a staff document (a print-out, a label, an export) that a page on another site sent,
 * or null for one from the shop's own pages or typed in. SameSite=Lax cookies go along with a link followed from
 * anywhere, so a staff browser would otherwise fetch it for whoever placed the link; staff open documents from the
 * admin's own pages (SECURITY-REVIEW N-L1).
 */
export function crossSiteDocumentRefusal(headers: Headers): Response | null {
  return isSameOriginRequest(headers) ? null : textResponse(403, "Documents open from the shop's own admin pages only: open this one from there.");
}
