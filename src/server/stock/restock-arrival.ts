import "server-only";
import { and, eq } from "drizzle-orm";
import type { StockRecordType } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { productRestockManager } from "@/server/db/schema";
import { logProductChange } from "@/server/logbook/service";
import { restockMachine } from "./restock-machine";

/**
 * Pieces bought in (a box exploded) or found (a correction that adds stock) are what an approved restock request
 * waited for. Returned pieces (a refund's restock) are not: nobody bought them again.
 */
const arrivals: readonly StockRecordType[] = ["PURCHASE_RECORD", "INVENTORY_CORRECTION"];

/**
 * Closes the product's approved restock request when pieces of it come into stock, in the booking's transaction, so
 * "Approved - To buy" never lists a product that was bought already. Called by `bookStock` for every movement.
 */
export async function receiveRestockOnArrival(
  tx: Db,
  arrival: { productId: number; quantity: number; type: StockRecordType; stockRecordId: number; userId: string | null; description: string },
): Promise<void> {
  if (arrival.quantity <= 0 || !arrivals.includes(arrival.type)) return;
  const [request] = await tx
    .select({ id: productRestockManager.id, status: productRestockManager.status })
    .from(productRestockManager)
    .where(and(eq(productRestockManager.productId, arrival.productId), eq(productRestockManager.status, "APPROVED")))
    .for("update");
  if (!request) return;
  restockMachine.assert(request.id, request.status, "RECEIVED");
  await tx.update(productRestockManager).set({ status: "RECEIVED" }).where(eq(productRestockManager.id, request.id));
  await logProductChange(tx, arrival.productId, {
    userId: arrival.userId,
    previousState: { restock: request.status },
    newState: { restock: "RECEIVED", stockRecordId: arrival.stockRecordId, pieces: arrival.quantity },
    description: `Restock request ${request.id} received: ${arrival.description}`,
  });
}
