import "server-only";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";

/**
 * Runs `change` for each order (each once) in a transaction of its own, so one refusal does not hold the others back.
 * `change` reports the order's number through `found` as soon as it knows it, so a refusal after that names the order.
 * An AppError refuses that order with its message; any other error stops the whole run.
 */
export async function changeEachOrderApart(
  db: Db,
  orderIds: readonly number[],
  change: (tx: Db, orderId: number, found: (orderNumber: string) => void) => Promise<void>,
): Promise<{ done: { orderId: number; orderNumber: string }[]; refused: { orderId: number; orderNumber: string | null; reason: string }[] }> {
  const outcome: Awaited<ReturnType<typeof changeEachOrderApart>> = { done: [], refused: [] };
  for (const orderId of new Set(orderIds)) {
    let orderNumber: string | null = null;
    try {
      await db.transaction((tx) =>
        change(tx, orderId, (found) => {
          orderNumber = found;
        }),
      );
      outcome.done.push({ orderId, orderNumber: orderNumber! });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.refused.push({ orderId, orderNumber, reason: error.message });
    }
  }
  return outcome;
}
