import { z } from "zod";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";

/**
 * Buyers' returns and cancellations from eBay on the order page (`admin.ebay.requests.*`): what the buyer asked, and
 * staff's answers (accept or decline, a return received back into stock, the refund through eBay).
 */

export const orderRequestsInput = z.object({ orderNumber: text().trim().min(1).max(40) });

/** Accept or decline a request: eBay is told first, then the shop records it. */
export const decideRequestInput = z.object({
  requestId: rowId,
  accept: z.boolean(),
  /** Said to the buyer on eBay; a declined return should say why. */
  comment: text().trim().max(1000).optional(),
});
export type DecideRequestInput = z.input<typeof decideRequestInput>;

/** A return's pieces arrived back: into stock, once. Also the refund of a return: through eBay, once. */
export const oneRequestInput = z.object({ requestId: rowId });
export type OneRequestInput = z.input<typeof oneRequestInput>;

export type MarketplaceRequestState = "REQUESTED" | "ACCEPTED" | "DECLINED" | "CLOSED";

/** A buyer's request as staff see it on the order page. Amounts are euro strings with two decimals. */
export type MarketplaceRequestView = {
  id: number;
  kind: "RETURN" | "CANCELLATION";
  /** eBay's returnId or cancelId. */
  marketplaceRequestId: string;
  state: MarketplaceRequestState;
  /** eBay's own word for where it stands. */
  marketplaceState: string;
  /** eBay's reason in words. */
  reason: string;
  buyerComment: string | null;
  lines: { orderItemId: number; productName: string; quantity: number }[];
  requestedRefund: string | null;
  requestedAt: Date;
  respondBy: Date | null;
  decidedAt: Date | null;
  receivedAt: Date | null;
  /** The refunds given for it, as the refunds list them on the order. */
  refundIds: number[];
  closedAt: Date | null;
  /** What staff can do now. */
  can: { decide: boolean; receive: boolean; refund: boolean };
};
