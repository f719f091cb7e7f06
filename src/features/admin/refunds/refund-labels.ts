import type { AdminBadgeTone } from "@/components/ui/admin-badge";
import type { RefundReason, RefundStatus } from "@/lib/enums";

/** The reasons as staff choose and read them. */
export const refundReasonLabels: Record<RefundReason, string> = {
  LOST_IN_TRANSIT: "Lost in transit",
  DAMAGED: "Damaged",
  WRONG_ITEM: "Wrong item",
  WRONG_ADDRESS: "Wrong address",
  OTHER: "Other",
};

export const refundStatusLabels: Record<RefundStatus, string> = { PENDING: "Pending", REFUNDED: "Refunded", FAILED: "Failed" };

export const refundStatusTones: Record<RefundStatus, AdminBadgeTone> = { PENDING: "warning", REFUNDED: "success", FAILED: "danger" };

/**
 * Whether refunded pieces go back in stock, as the form first proposes it for each reason: only when the reason means
 * the piece comes back to the shop fit to sell again. A damaged piece never does, so the form does not even offer it.
 */
export const restockByReason: Record<RefundReason, boolean> = {
  LOST_IN_TRANSIT: false,
  DAMAGED: false,
  WRONG_ITEM: true,
  WRONG_ADDRESS: true,
  OTHER: false,
};

/** Why the box is ticked or not, under "Put back in stock". */
export const restockHints: Record<RefundReason | "", string> = {
  "": "Ticked, the pieces count in stock again and can be sold.",
  LOST_IN_TRANSIT: "A lost piece is not here to sell: left unticked. Tick it if the parcel turns up after all.",
  DAMAGED: "Damaged pieces cannot be sold again, so they stay out of stock. Choose another reason if they can.",
  WRONG_ITEM: "The piece comes back unworn: ticked. Untick it if it does not come back.",
  WRONG_ADDRESS: "The parcel comes back to us: ticked. Untick it if it does not.",
  OTHER: "Tick it when the pieces are back here and fit to sell.",
};
