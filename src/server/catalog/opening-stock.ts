import "server-only";
import type { Db } from "@/server/db/client";
import { addPurchaseRecord } from "@/server/stock/boxes";
import { correctInventory } from "@/server/stock/service";
import type { CreateProductValues } from "./admin-schemas";

/**
 * A new product's opening stock, in the transaction that creates it, the way stock always arrives: pieces counted in
 * the shop as an inventory correction (reason OTHER, with staff's words for where they came from), booked through the
 * ledger; pieces bought as a purchase in an OPEN box, with their cost, which reach stock when the box is exploded.
 */
export async function bookOpeningStock(tx: Db, productId: number, opening: NonNullable<CreateProductValues["openingStock"]>, userId: string): Promise<void> {
  if (opening.kind === "correction") {
    await correctInventory(tx, { productId, quantity: opening.quantity, reason: "OTHER", comment: opening.comment }, userId);
    return;
  }
  await addPurchaseRecord(tx, { boxId: opening.boxId, productId, quantity: opening.quantity, unitCost: opening.unitCost, currency: opening.currency }, userId);
}
