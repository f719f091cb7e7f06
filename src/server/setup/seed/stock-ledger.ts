import "server-only";
import { Decimal } from "decimal.js";
import type { InferInsertModel } from "drizzle-orm";
import * as schema from "@/server/db/schema";
import { DAY } from "./durations";
import type { DemoOrderPlan } from "./order-plan";
import { generateProduct, type ProductDraft } from "./products";
import { createRandom } from "./random";
import { localDate } from "./reference-data";

/*
 * The demo's purchases: the boxes, purchase records and ledger rows behind every product's stock, and the boxes
 * still on their way.
 */

/** Purchases travel in boxes of about this many records. */
const RECORDS_PER_BOX = 40;

export type Ledger = {
  boxes: InferInsertModel<typeof schema.box>[];
  purchaseRecords: InferInsertModel<typeof schema.purchaseRecord>[];
  stockRecords: InferInsertModel<typeof schema.stockRecord>[];
};

/**
 * The purchases behind the stock of a batch of products: each product in stock, or sold in the demo's orders, was
 * bought in one go (the pieces on the shelf and those the orders sell), travelled in a box with others and was
 * booked into stock when the box was exploded, before the product went online. The orders then take their pieces
 * through the ledger, so each product's stock equals the sum of its ledger rows.
 */
export function stockLedger(
  drafts: ProductDraft[],
  totals: { inStock: number; boxes: number; purchaseRecords: number; stockRecords: number },
  rate: Decimal,
  plan: DemoOrderPlan,
): Ledger {
  const ledger: Ledger = { boxes: [], purchaseRecords: [], stockRecords: [] };
  const bought = (draft: ProductDraft) => draft.stock + (plan.sold.get(draft.index + 1) ?? 0);
  const inStock = drafts.filter((draft) => bought(draft) > 0);
  for (let start = 0; start < inStock.length; start += RECORDS_PER_BOX) {
    const group = inStock.slice(start, start + RECORDS_PER_BOX);
    const boxId = ++totals.boxes;
    const explodedAt = new Date(Math.min(...group.map((draft) => draft.createdAt.getTime())) - DAY);
    const packedAt = new Date(explodedAt.getTime() - 16 * DAY);
    ledger.boxes.push({
      id: boxId, status: "EXPLODED", estimatedDeliveryDate: localDate(explodedAt), trackingNumber: trackingNumber(boxId),
      createdAt: packedAt, updatedAt: explodedAt,
    });
    for (const draft of group) {
      const purchaseRecordId = ++totals.purchaseRecords;
      const costEuro = unitCost(draft);
      const pieces = bought(draft);
      ledger.purchaseRecords.push({
        id: purchaseRecordId, productId: draft.index + 1, boxId, purchaseCostEuro: costEuro, purchaseCostPhp: costEuro.times(rate).toDecimalPlaces(2),
        purchasedStock: pieces, remainingStock: pieces, createdAt: packedAt, updatedAt: explodedAt,
      });
      ledger.stockRecords.push({
        productId: draft.index + 1, type: "PURCHASE_RECORD", purchaseRecordId, quantity: pieces, createdAt: explodedAt, updatedAt: explodedAt,
      });
      totals.stockRecords++;
      if (draft.stock > 0) totals.inStock++;
    }
  }
  return ledger;
}

/** What one piece cost the shop, in euro. */
function unitCost(draft: ProductDraft): Decimal {
  return draft.price.times(draft.costShare).toDecimalPlaces(2);
}

function trackingNumber(boxId: number): string {
  return `LX${String(100_000_000 + boxId * 7_919).slice(-9)}PH`;
}

/**
 * Purchases still on their way: boxes being filled abroad and one in transit, not yet booked into stock. Their
 * products are drawn from the first `plannedProducts` (those the demo's orders are planned over).
 */
export function pendingBoxes(
  productCount: number,
  plannedProducts: number,
  totals: { boxes: number; purchaseRecords: number },
  rate: Decimal,
  now: Date,
  seed: number,
): Ledger {
  const ledger: Ledger = { boxes: [], purchaseRecords: [], stockRecords: [] };
  if (productCount === 0) return ledger;
  const rng = createRandom(seed + 1);
  const plans = [
    { status: "OPEN" as const, records: 4, deliveryInDays: null },
    { status: "OPEN" as const, records: 3, deliveryInDays: null },
    { status: "SHIPPED" as const, records: 6, deliveryInDays: 9 },
  ];
  for (const plan of plans) {
    const boxId = ++totals.boxes;
    const packedAt = new Date(now.getTime() - rng.int(2, 20) * DAY);
    ledger.boxes.push({
      id: boxId, status: plan.status,
      estimatedDeliveryDate: plan.deliveryInDays === null ? null : localDate(new Date(now.getTime() + plan.deliveryInDays * DAY)),
      trackingNumber: plan.status === "SHIPPED" ? trackingNumber(boxId) : null,
      createdAt: packedAt, updatedAt: packedAt,
    });
    for (let i = 0; i < plan.records; i++) {
      const productIndex = rng.int(0, plannedProducts - 1);
      const draftPrice = generateProduct(productIndex, { seed, now }).price;
      const costEuro = draftPrice.times(0.3 + rng.next() * 0.2).toDecimalPlaces(2);
      const quantity = rng.int(1, 5);
      ledger.purchaseRecords.push({
        id: ++totals.purchaseRecords, productId: productIndex + 1, boxId, purchaseCostEuro: costEuro,
        purchaseCostPhp: costEuro.times(rate).toDecimalPlaces(2), purchasedStock: quantity, remainingStock: quantity,
        createdAt: packedAt, updatedAt: packedAt,
      });
    }
  }
  return ledger;
}
