import type { Db } from "@/server/db/client";
import type { Logger } from "@/server/logger";
import { expireUnpaidOrders } from "./service";

/** How often the sweep looks for unpaid orders that have run out of time. */
export const ORDER_EXPIRY_SWEEP_MS = 60_000;

/**
 * The background job that expires unpaid orders: every minute, PENDING orders older than the timeout are
 * cancelled and their stock returned (`expireUnpaidOrders`). Several app instances may run it at once: each order
 * is locked while it is cancelled, and one already cancelled is left alone. Returns a function that stops it.
 */
export function startOrderExpiryJob(db: Db, timeoutMinutes: number, log: Logger): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const expired = await expireUnpaidOrders(db, new Date(Date.now() - timeoutMinutes * 60_000));
      if (expired.length > 0) log.info({ event: "ORDER", expired }, `expired ${expired.length} unpaid order(s)`);
    } catch (error) {
      log.error({ event: "ORDER", err: error }, "the unpaid order sweep failed");
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), ORDER_EXPIRY_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
