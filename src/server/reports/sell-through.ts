import "server-only";
import type { Db } from "@/server/db/client";
import { rateOf } from "./figures";
import type { SellThrough, SellThroughReport } from "./schemas";
import { holdingsPerBox, holdingsPerCategory, newestBoxFirst, type HoldingFigures } from "./stock-valuation";

/**
 * Sell-through per category and per box: of the pieces received (every lot's pieces), how many are left, how many a
 * correction took (lost, damaged), and the rest, sold; added up from what the lots hold per category and box
 * (`stock_holding`, stock/holdings.ts). Pieces a refund put back are in stock again, so they count as left, not sold.
 * The rate is sold over received. A category or box that never received a piece (its products all moved elsewhere)
 * is left out.
 */
export async function sellThrough(db: Db): Promise<SellThroughReport> {
  const [categories, boxes] = await Promise.all([holdingsPerCategory(db), holdingsPerBox(db)]);
  return {
    categories: categories
      .filter((row) => row.piecesBought > 0)
      .map((row) => ({ categoryId: row.categoryId, category: row.category, ...through(row) }))
      .sort((a, b) => b.received - a.received || a.category.localeCompare(b.category)),
    boxes: boxes
      .filter((row) => row.piecesBought > 0)
      .map((row) => ({ boxId: row.boxId, boxStatus: row.boxStatus, boxCreatedAt: row.boxCreatedAt, ...through(row) }))
      .sort(newestBoxFirst),
  };
}

function through(row: HoldingFigures): SellThrough {
  const sold = row.piecesBought - row.piecesLeft - row.piecesWrittenOff;
  return { received: row.piecesBought, sold, writtenOff: row.piecesWrittenOff, left: row.piecesLeft, rate: rateOf(sold, row.piecesBought) };
}
