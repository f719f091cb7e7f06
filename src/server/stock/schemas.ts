import type { Decimal } from "decimal.js";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";
import {
  boxStatuses,
  inventoryCorrectionReasons,
  restockStatuses,
  type BoxStatus,
  type InventoryCorrectionReason,
  type RestockStatus,
  type StockRecordType,
} from "@/lib/enums";

const id = rowId;

/**
 * A product is low on stock at this many pieces or fewer: the products list flags it and filters by it, the
 * dashboard lists it.
 */
export const LOW_STOCK = 2;

/**
 * A unit cost typed by staff: up to 8 digits and 2 decimals, in the currency named beside it. A money column holds
 * 10 digits, and a cost in euros is also stored in pesos at the exchange rate (about 60), so 8 is what fits. A comma
 * reads as the decimal point, as staff in the Netherlands type it. Three digits after the point or comma ("1.234") is
 * refused rather than guessed: in Dutch it is one thousand two hundred and thirty-four, in English about one euro
 * and a quarter, and a purchase booked at a thousand times its cost spoils every margin after it.
 */
export const costText = z
  .string()
  .trim()
  .refine((value) => !/^\d{1,3}([.,]\d{3})+$/.test(value), { message: "Write the amount without a thousands separator: 1234 or 1.23", abort: true })
  .regex(/^\d{1,8}([.,]\d{1,2})?$/, "Enter an amount like 12.50")
  .transform((value) => value.replace(",", "."));

/**
 * The most pieces one purchase holds: a lot of ten thousand is more than this shop buys of any part; a larger number
 * is almost always a key held down or a price typed in the wrong field.
 */
export const MAX_PURCHASE_PIECES = 10_000;

export const purchaseCurrencies = ["EUR", "PHP"] as const;
export type PurchaseCurrency = (typeof purchaseCurrencies)[number];

/** The product whose stock staff look at: its ledger, or what is on its way in boxes. */
export const productStockInput = z.object({ productId: id });

export const boxIdInput = z.object({ boxId: id });

export const boxListInput = z.object({
  statuses: z.array(z.enum(boxStatuses)).min(1).max(boxStatuses.length),
});

export const shipBoxInput = z.object({
  boxId: id,
  trackingNumber: text().trim().min(4, "Enter the carrier's tracking number").max(64),
  /** yyyy-mm-dd */
  estimatedDeliveryDate: z.iso.date("Enter the estimated delivery date"),
});
export type ShipBoxInput = z.infer<typeof shipBoxInput>;

/**
 * What staff say of one purchase, wherever they book it (the box page, a restock request, a new product's opening
 * stock, the product table's bulk bar): how many pieces, at what cost each, in which currency.
 */
export const purchaseLineInput = z.object({
  quantity: z
    .number("Enter the number of pieces")
    .int("Whole pieces only")
    .min(1, "At least one piece")
    .max(MAX_PURCHASE_PIECES, "At most 10,000 pieces in one purchase: split a larger lot into several purchases"),
  /** The price of one piece, in the currency it was paid in; the other currency follows from the exchange rate. */
  unitCost: costText,
  currency: z.enum(purchaseCurrencies),
});

export const purchaseRecordInput = purchaseLineInput.extend({ boxId: id, productId: id });
export type PurchaseRecordInput = z.input<typeof purchaseRecordInput>;

export const updatePurchaseRecordInput = purchaseRecordInput.omit({ boxId: true, productId: true }).extend({ purchaseRecordId: id });
export const purchaseRecordIdInput = z.object({ purchaseRecordId: id });

export const inventoryCorrectionInput = z
  .object({
    productId: id,
    /** Signed change of stock: negative takes pieces away. */
    quantity: z
      .number("Enter the number of pieces")
      .int("Whole pieces only")
      .min(-100_000, "At most 100,000 pieces at a time")
      .max(100_000, "At most 100,000 pieces at a time")
      .refine((value) => value !== 0, "The change cannot be zero"),
    reason: z.enum(inventoryCorrectionReasons),
    comment: text().trim().max(500).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.reason === "DAMAGED" || value.reason === "LOST") && value.quantity > 0) {
      ctx.addIssue({ code: "custom", path: ["quantity"], message: "Damaged or lost pieces leave stock: use a negative number" });
    }
    if (value.reason === "OTHER" && !value.comment) {
      ctx.addIssue({ code: "custom", path: ["comment"], message: "Say why the stock changes" });
    }
  });
export type InventoryCorrectionInput = z.input<typeof inventoryCorrectionInput>;

export type BoxSummary = {
  id: number;
  status: BoxStatus;
  trackingNumber: string | null;
  estimatedDeliveryDate: string | null;
  createdAt: Date;
  updatedAt: Date;
  records: number;
  pieces: number;
  totalCostEuro: Decimal;
  totalCostPhp: Decimal;
};

export type PurchaseRecordRow = {
  id: number;
  productId: number;
  productName: string;
  productStock: number;
  purchaseCostEuro: Decimal;
  purchaseCostPhp: Decimal;
  purchasedStock: number;
  remainingStock: number;
  createdAt: Date;
};

export type BoxDetail = BoxSummary & { purchaseRecords: PurchaseRecordRow[] };

export type StockHistoryRow = {
  id: number;
  createdAt: Date;
  type: StockRecordType;
  quantity: number;
  /** The stock after this row, summing the ledger from its first row. */
  balance: number;
  boxId: number | null;
  purchaseRecordId: number | null;
  unitCostEuro: Decimal | null;
  correctionReason: InventoryCorrectionReason | null;
  correctionComment: string | null;
  orderItemId: number | null;
  refundId: number | null;
};

export type StockHistory = {
  productId: number;
  productName: string;
  stock: number;
  /** The ledger's sum; equal to `stock` unless something wrote stock outside the ledger. */
  ledgerSum: number;
  rows: StockHistoryRow[];
};

export type ExchangeRateInfo = { rate: Decimal; updatedAt: Date; source: "sandbox" | "live" };

// Restock manager ---------------------------------------------------------------------------------------------

export const restockListInput = z.object({ status: z.enum(restockStatuses) });
export const restockRequestInput = z.object({ productId: id });
/** What staff decide; RECEIVED is not theirs to choose: it follows from the pieces coming into stock (`restock-arrival.ts`). */
export const restockDecisionInput = z.object({ id, status: z.enum(["PENDING", "APPROVED", "REJECTED"]) });

export type RestockRow = {
  id: number;
  productId: number;
  productName: string;
  stock: number;
  price: Decimal;
  status: RestockStatus;
  /** Pieces on their way in OPEN or SHIPPED boxes. */
  incoming: number;
  /** The last unit cost paid, in euro, to judge a reorder by. */
  lastUnitCostEuro: Decimal | null;
  updatedAt: Date;
};

export type RestockCandidate = { productId: number; productName: string; price: Decimal; updatedAt: Date };
