import "server-only";
import type { Db } from "@/server/db/client";
import { rateOf } from "./figures";
import type { SellThrough, SellThroughReport } from "./schemas";
import { newestBoxFirst, readHoldings, type Holding } from "./stock-valuation";

/**
 * Sell-through per category and per box: of the pieces received (every lot's pieces), how many are left, how many a
 * correction took (lost, damaged), and the rest, sold; read from what the lots hold per category and box
 * (`stock_holding`). Pieces a refund put back are in stock again, so they count as left, not sold. The rate is sold
 * over received. A category or box that never received a piece (its products all moved elsewhere) is left out.
 */
export async function sellThrough(db: Db): Promise<SellThroughReport> {
  const holdings = await readHoldings(db);
  const categories = new Map<number | null, SellThroughReport["categories"][number]>();
  const boxes = new Map<number | null, SellThroughReport["boxes"][number]>();
  for (const row of holdings) {
    const category = categories.get(row.categoryId) ?? { categoryId: row.categoryId, category: row.category, ...through(0, 0, 0) };
    categories.set(row.categoryId, { ...category, ...added(category, row) });
    const box = boxes.get(row.boxId) ?? { boxId: row.boxId, boxStatus: row.boxStatus, boxCreatedAt: row.boxCreatedAt, ...through(0, 0, 0) };
    boxes.set(row.boxId, { ...box, ...added(box, row) });
  }
  return {
    categories: [...categories.values()].filter((row) => row.received > 0).sort((a, b) => b.received - a.received || a.category.localeCompare(b.category)),
    boxes: [...boxes.values()].filter((row) => row.received > 0).sort(newestBoxFirst),
  };
}

function through(received: number, left: number, writtenOff: number): SellThrough {
  const sold = received - left - writtenOff;
  return { received, sold, writtenOff, left, rate: rateOf(sold, received) };
}

const added = (sum: SellThrough, row: Holding) => through(sum.received + row.piecesBought, sum.left + row.piecesLeft, sum.writtenOff + row.piecesWrittenOff);
